import { readFile } from 'node:fs/promises';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { ZMissingReport, ZPlayerReport, type TPlayerReport } from '../../src/contract';
import { unzip } from '../support/zip';
import { seriousViolations } from './axe-support';
import { startPrivateServer, type PrivateServer } from './private-server';
import { playerRows } from './players-support';

/**
 * A family's data from the player dialog, shared by family-data.spec.ts (1280 px) and family-data.phone.spec.ts
 * (390 px), on a server of the spec's own with the demo data (the erasure removes a demo player every other spec
 * may count on), signed in with its shared password (an admin): Export data downloads a ZIP holding the player's
 * files and records; Erase player… opens a dialog whose button stays off until the player's name is typed,
 * Escape gives focus back, and the erasure leaves for the Players list with a message, the player gone.
 */

type Size = { phone: boolean };

async function press(locator: Locator, { phone }: Size): Promise<void> {
  if (phone) await locator.tap();
  else await locator.click();
}

/** A demo player of the current season with at least two stored files. */
async function findPlayer(page: Page, server: PrivateServer): Promise<{ report: TPlayerReport; stored: number }> {
  const list = await page.request.get(`${server.url}/api/report/missing?pageSize=100`);
  expect(list.status()).toBe(200);
  for (const row of ZMissingReport.parse(await list.json()).players) {
    const answer = await page.request.get(`${server.url}/api/report/player?player_id=${encodeURIComponent(row.playerId)}`);
    const report = ZPlayerReport.parse(await answer.json());
    const stored = report.documents.filter((document) => document.storageDriver !== null).length;
    if (stored >= 2) return { report, stored };
  }
  throw new Error('no demo player has two stored files');
}

async function noSidewaysScroll(page: Page, element: Locator): Promise<void> {
  expect(await element.evaluate((node) => node.scrollWidth - node.clientWidth)).toBeLessThanOrEqual(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
}

export function describeFamilyData(size: Size): void {
  let server: PrivateServer | undefined;
  const own = (): PrivateServer => {
    if (!server) throw new Error('the family data server did not start');
    return server;
  };
  const shot = (name: string) => test.info().outputPath(`family-data-${name}-${size.phone ? 'phone' : 'desktop'}.png`);

  test.beforeAll(async () => {
    test.setTimeout(300_000);
    server = await startPrivateServer({ name: 'familydata' });
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test('exports the player as a ZIP, and erases them only once their name is typed', async ({ page }) => {
    test.setTimeout(90_000);
    const login = await page.request.post(`${own().url}/api/auth/login`, { data: { password: own().sharedPassword } });
    expect(login.ok(), await login.text()).toBe(true);
    const { report, stored } = await findPlayer(page, own());
    const { playerId, playerName } = report.status;

    await page.goto(`${own().url}/players?search=${encodeURIComponent(playerId)}`);
    await press(playerRows(page).filter({ hasText: playerId }).getByTestId('player-name'), size);
    const dialog = page.getByTestId('player-detail-dialog');
    await expect(dialog.getByTestId('player-detail-id')).toHaveText(playerId);
    const section = dialog.getByTestId('family-data');
    await section.scrollIntoViewIfNeeded();
    await expect(section.getByRole('button', { name: 'Export data' })).toBeVisible();
    await page.screenshot({ path: shot('section') });

    // Export data: a ZIP with every stored file and the records, saved by the browser.
    const downloading = page.waitForEvent('download');
    await press(section.getByRole('button', { name: 'Export data' }), size);
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(new RegExp(`^clearbase-${playerId}-\\d{4}-\\d{2}-\\d{2}\\.zip$`));
    const entries = unzip(await readFile((await download.path()) ?? ''));
    // Every season's files: at least this season's, each named by its season and type.
    expect(entries.filter((entry) => entry.name.startsWith(`documents/${report.season.name} - `)).length).toBeGreaterThanOrEqual(stored);
    const records = JSON.parse(entries.find((entry) => entry.name === 'records.json')?.bytes.toString() ?? '{}') as { player: { id: string } };
    expect(records.player.id).toBe(playerId);
    await expect(page.getByRole('status').filter({ hasText: 'Export ready' })).toBeVisible();

    // Erase player…: the button stays off until the name is typed; Escape closes and gives focus back.
    const eraseButton = section.getByRole('button', { name: 'Erase player…' });
    await eraseButton.focus();
    await page.keyboard.press('Enter');
    const erase = page.getByTestId('erase-player-dialog');
    await expect(erase).toBeVisible();
    await expect(erase.getByRole('heading', { name: `Erase ${playerName}?` })).toBeVisible();
    const confirm = erase.getByRole('button', { name: 'Erase player' });
    const name = erase.getByRole('textbox', { name: `Type ${playerName} to confirm` });
    await expect(confirm).toBeDisabled();
    await name.fill(playerName.slice(0, -1));
    await expect(confirm).toBeDisabled();
    await expect(erase.getByText('Not the name yet.')).toBeVisible();
    await page.keyboard.press('Enter');
    await expect(erase).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: shot('dialog') });
    if (size.phone) await noSidewaysScroll(page, erase);
    await page.keyboard.press('Escape');
    await expect(erase).toBeHidden();
    await expect(eraseButton).toBeFocused();

    // Typed in another case: it matches; Enter erases, and the Players list says so without the player.
    await page.keyboard.press('Enter');
    await expect(name).toHaveValue('');
    await name.fill(playerName.toUpperCase());
    await expect(confirm).toBeEnabled();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('status').filter({ hasText: 'Player erased' })).toContainText(`${playerName} was erased`);
    await expect(page).toHaveURL(/\/players(\?|$)/);
    await expect(page.getByTestId('player-detail-dialog')).toBeHidden();
    await expect(page.getByRole('heading', { level: 1, name: 'Players' })).toBeVisible();
    await page.screenshot({ path: shot('after') });
    const gone = await page.request.get(`${own().url}/api/report/player?player_id=${encodeURIComponent(playerId)}`);
    expect(gone.status()).toBe(404);
    await page.goto(`${own().url}/players?search=${encodeURIComponent(playerId)}`);
    await expect(page.getByTestId('player-results')).toHaveAttribute('aria-busy', 'false');
    await expect(playerRows(page)).toHaveCount(0);
  });
}
