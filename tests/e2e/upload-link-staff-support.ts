import { expect, test, type Locator, type Page } from '@playwright/test';
import { ZUploadLinkStatus } from '../../src/contract';
import { seriousViolations } from './axe-support';
import { openPlayers, playerRows } from './players-support';
import { openSignedIn } from './support';

/**
 * Staff hand a family its upload link, shared by upload-link-staff.spec.ts (1280 px) and
 * upload-link-staff.phone.spec.ts (390 px), on the shared e2e server with the demo data, signed in with the shared
 * password (an admin): in the player dialog Copy upload link shows the new link (`/family#token=` and 43
 * characters) and the status line counts it, Stop links (after its confirm) leaves none working, and the Players
 * row's menu copies a link without opening the player, and Send link e-mails the guardian a new link (the e2e
 * server's SMTP receiver takes it) and says to whom. Each size uses a player of its own, so the two projects,
 * which share one server, do not count each other's links. Settings → Notifications says in words why a number of
 * days is refused (nothing is saved: the other specs share the setting).
 */

type Size = { phone: boolean };

const FAMILY_LINK = /\/family#token=[A-Za-z0-9_-]{43}$/;

async function press(locator: Locator, { phone }: Size): Promise<void> {
  if (phone) await locator.tap();
  else await locator.click();
}

/** The season the list shows, and how many of the player's links work there (the server's answer). */
async function workingLinks(page: Page, playerId: string, season: string): Promise<number> {
  const answer = await page.request.get(`/api/players/${encodeURIComponent(playerId)}/upload-link?season=${encodeURIComponent(season)}`);
  expect(answer.status()).toBe(200);
  return ZUploadLinkStatus.parse(await answer.json()).active;
}

async function seasonOfTheList(page: Page): Promise<string> {
  const answer = await page.request.get('/api/report/missing?pageSize=1');
  expect(answer.status()).toBe(200);
  const body: unknown = await answer.json();
  const season = typeof body === 'object' && body !== null && 'season' in body ? body.season : undefined;
  const id = typeof season === 'object' && season !== null && 'id' in season ? season.id : undefined;
  if (typeof id !== 'string') throw new Error('the player list named no season');
  return id;
}

const clipboardText = (page: Page): Promise<string> => page.evaluate(() => navigator.clipboard.readText());

export function describeUploadLinkStaff(size: Size): void {
  // The rows of the first page a size works with: the dialog's player, then the row menu's player.
  const rowIndex = size.phone ? { dialog: 2, menu: 3, send: 5 } : { dialog: 0, menu: 1, send: 4 };

  test.beforeEach(async ({ context, baseURL }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL ?? '' });
  });

  test('the player dialog copies a new link, counts it, and Stop links leaves none working', async ({ page }) => {
    await openPlayers(page);
    const season = await seasonOfTheList(page);
    const row = playerRows(page).nth(rowIndex.dialog);
    const playerId = (await row.getAttribute('data-player-id')) ?? '';
    expect(playerId).not.toBe('');
    const before = await workingLinks(page, playerId, season);

    await press(row.getByTestId('player-name'), size);
    const dialog = page.getByTestId('player-detail-dialog');
    const section = dialog.getByTestId('upload-link-section');
    const status = section.getByTestId('upload-link-status');
    await expect(status).not.toContainText('Checking');

    await section.getByRole('button', { name: 'Copy upload link' }).scrollIntoViewIfNeeded();
    await press(section.getByRole('button', { name: 'Copy upload link' }), size);
    const field = section.getByTestId('upload-link-url');
    await expect(field).toHaveValue(FAMILY_LINK);
    const url = await field.inputValue();
    await expect(section.getByTestId('upload-link-expires')).toContainText(/^Works until .+\. Copied to the clipboard\.$/);
    expect(await clipboardText(page)).toBe(url);
    const after = before + 1;
    await expect(status).toContainText(`${after} working ${after === 1 ? 'link' : 'links'}`);
    // The field is labelled, and can be copied by hand: focus selects the whole link.
    await expect(section.getByLabel(/^Upload link for /)).toHaveValue(url);

    await page.screenshot({ path: test.info().outputPath(`upload-link-${size.phone ? 'phone' : 'desktop'}.png`) });
    expect(await seriousViolations(page)).toEqual([]);
    if (size.phone) {
      expect(await dialog.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(0);
    }

    // Stop links asks first; Cancel keeps them.
    const stop = section.getByRole('button', { name: 'Stop links' });
    await press(stop, size);
    const confirm = page.getByTestId('stop-links-dialog');
    await expect(confirm).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(confirm).toBeHidden();
    await expect(stop).toBeFocused();
    await expect(status).toContainText(`${after} working`);

    await press(stop, size);
    await press(confirm.getByRole('button', { name: 'Stop links' }), size);
    await expect(confirm).toBeHidden();
    await expect(status).toContainText('No working link');
    await expect(section.getByTestId('upload-link-outcome')).toContainText('stopped working');
    await expect(section.getByRole('button', { name: 'Stop links' })).toHaveCount(0);
    await expect(section.getByTestId('upload-link-url')).toHaveCount(0);
    await expect(status).toBeFocused();
    expect(await workingLinks(page, playerId, season)).toBe(0);
  });

  test('the row menu copies a link without opening the player', async ({ page }) => {
    await openPlayers(page);
    const season = await seasonOfTheList(page);
    const row = playerRows(page).nth(rowIndex.menu);
    const playerId = (await row.getAttribute('data-player-id')) ?? '';
    const before = await workingLinks(page, playerId, season);

    await press(row.getByTestId('player-row-actions'), size);
    await press(page.getByRole('menuitem', { name: 'Copy upload link' }), size);
    await expect(page.getByRole('status').filter({ hasText: 'Upload link copied' })).toBeVisible();
    await expect(page.getByTestId('player-detail-dialog')).toHaveCount(0);
    expect(await clipboardText(page)).toMatch(FAMILY_LINK);
    expect(await workingLinks(page, playerId, season)).toBe(before + 1);
    // Focus goes back to the menu's button.
    await expect(row.getByTestId('player-row-actions')).toBeFocused();

    // The keyboard opens it too: Enter on the button, the arrows and Escape.
    await row.getByTestId('player-row-actions').focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('menuitem', { name: 'Send link' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('menu')).toHaveCount(0);
    await expect(page.getByTestId('player-detail-dialog')).toHaveCount(0);
  });

  test('Settings say in words why a number of days is refused', async ({ page }) => {
    await openSignedIn(page, '/settings?tab=notifications');
    const card = page.getByTestId('upload-link-settings');
    const field = card.getByLabel('Upload links work for (days)');
    await expect(field).toHaveValue(/^\d+$/);
    const saved = await field.inputValue();
    for (const [typed, words] of [
      ['0', 'Upload link days must be at least 1 day.'],
      ['181', 'Upload link days must be at most 180 days.'],
      ['', 'Enter how many days an upload link works.'],
    ] as const) {
      await field.fill(typed);
      await press(card.getByRole('button', { name: 'Save' }), size);
      await expect(card.getByRole('alert')).toHaveText(words);
      await expect(field).toHaveAttribute('aria-invalid', 'true');
    }
    await page.reload();
    await expect(page.getByTestId('upload-link-settings').getByLabel('Upload links work for (days)')).toHaveValue(saved);
  });

  test('Send link e-mails the guardian a new link and says to whom', async ({ page }) => {
    await openPlayers(page);
    const season = await seasonOfTheList(page);
    const row = playerRows(page).nth(rowIndex.send);
    const playerId = (await row.getAttribute('data-player-id')) ?? '';
    const before = await workingLinks(page, playerId, season);

    await press(row.getByTestId('player-name'), size);
    const dialog = page.getByTestId('player-detail-dialog');
    const guardianEmail = ((await dialog.getByTestId('guardian-contact').getByRole('link', { name: /@/ }).textContent()) ?? '').trim();
    expect(guardianEmail).toContain('@');
    const section = dialog.getByTestId('upload-link-section');
    await expect(section.getByTestId('upload-link-status')).not.toContainText('Checking');
    await section.getByRole('button', { name: 'Send link' }).scrollIntoViewIfNeeded();
    await press(section.getByRole('button', { name: 'Send link' }), size);
    await expect(section.getByTestId('upload-link-outcome')).toHaveText(`Sent to ${guardianEmail}`);
    const after = before + 1;
    await expect(section.getByTestId('upload-link-status')).toContainText(`${after} working ${after === 1 ? 'link' : 'links'}`);
    expect(await workingLinks(page, playerId, season)).toBe(after);
  });
}
