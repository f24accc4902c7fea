import { expect, test } from '@playwright/test';
import { startRolesServer, type RolesServer } from './roles-support';

/**
 * A viewer (who may not message families) sees no upload link controls: no row menu on Players, no Upload link
 * section in the player dialog, and Settings say how long links work as read-only text. On a server of its own
 * whose database the spec writes the viewer into (tests/e2e/roles-support.ts).
 */
let server: RolesServer | undefined;

test.beforeAll(async () => {
  test.setTimeout(300_000);
  server = await startRolesServer();
});
test.afterAll(async () => {
  await server?.stop();
});

function own(): RolesServer {
  if (!server) throw new Error('the roles server did not start');
  return server;
}

test('a viewer sees no upload link controls, and how long links work as text', async ({ page }) => {
  await own().signInAs(page, 'viewer');
  await page.goto(`${own().url}/players`);
  const row = page.getByTestId('player-row').first();
  await expect(row).toBeVisible();
  await expect(page.getByTestId('player-row-actions')).toHaveCount(0);

  await row.getByTestId('player-name').click();
  const dialog = page.getByTestId('player-detail-dialog');
  await expect(dialog.getByTestId('player-document').first()).toBeVisible();
  await expect(dialog.getByTestId('upload-link-section')).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: /upload link|Send link|Stop links/ })).toHaveCount(0);

  await page.goto(`${own().url}/settings?tab=notifications`);
  const card = page.getByTestId('upload-link-settings');
  await expect(card.getByTestId('fact-uploadLinkDays')).toHaveText('Upload links work for 30 days.');
  await expect(card.getByRole('spinbutton')).toHaveCount(0);
  await expect(card.getByTestId('read-only-note')).toBeVisible();
});
