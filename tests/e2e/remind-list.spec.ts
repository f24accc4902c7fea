import { expect, test } from '@playwright/test';
import { ZMissingReport } from '../../src/contract';
import { openPlayers, readRows, waitForPlayers } from './players-support';
import {
  actionCounter,
  countedInPage,
  expectedRecipients,
  historyTotal,
  REMIND_QUERY,
  sendAndCheckHistory,
  startCountingInPage,
} from './remind-list-support';
import { signInAndWaitForShell } from './support';

/** Finding a list on the Players screen (a missing document, an order) and reminding its families, at 1280 px. */

test.describe('Find and remind a list (1280 px)', () => {
  test('from the dashboard, the AA players missing a birth certificate are reminded in at most 5 actions', async ({ page }) => {
    await signInAndWaitForShell(page);
    const expected = await expectedRecipients(page);
    expect(expected.emails.length).toBeGreaterThan(0);
    const historyBefore = await historyTotal(page);
    await startCountingInPage(page);
    const actions = actionCounter();
    const started = Date.now();

    await actions.click(page.getByRole('navigation').getByRole('link', { name: 'Players', exact: true }));
    await expect(page.getByRole('heading', { level: 1, name: 'Players' })).toBeVisible();
    const filters = page.getByRole('search', { name: 'Player filters' });
    await actions.pick(filters.getByRole('combobox', { name: 'Division' }), 'AA');
    await actions.pick(filters.getByRole('combobox', { name: 'Missing document' }), 'Birth Certificate');
    await expect(page).toHaveURL(/division=AA/);
    await expect(page).toHaveURL(/missing=birth_certificate/);
    await waitForPlayers(page);
    await actions.click(page.getByTestId('remind-families'));
    await sendAndCheckHistory(page, actions, expected, historyBefore);

    const seconds = (Date.now() - started) / 1000;
    test.info().annotations.push({ type: 'elapsed seconds', description: seconds.toFixed(1) });
    const inPage = await countedInPage(page);
    test.info().annotations.push({ type: 'actions', description: `${actions.count} by the test; in the page ${inPage.clicks} clicks, ${inPage.changes} choices` });
    expect(inPage.clicks + inPage.changes).toBe(actions.count);
    expect(actions.count).toBeLessThanOrEqual(5);
  });

  test('missing= in the address filters on load; a column header sorts on the server and writes sort= in the address', async ({ page }) => {
    await openPlayers(page, `?${REMIND_QUERY}`);
    const filters = page.getByRole('search', { name: 'Player filters' });
    await expect(filters.getByRole('combobox', { name: 'Missing document' })).toHaveValue('birth_certificate');
    const response = await page.request.get(`/api/report/missing?${REMIND_QUERY}&pageSize=10`);
    const report = ZMissingReport.parse(await response.json());
    const rows = await readRows(page);
    expect(rows.map((row) => row.id)).toEqual(report.players.map((player) => player.playerId));
    const birthCells = page.getByTestId('player-row').locator('td:nth-child(3) [data-status]');
    for (const status of await birthCells.evaluateAll((cells) => cells.map((cell) => cell.getAttribute('data-status')))) expect(status).toBe('missing');
    await expect(page.getByTestId('player-range')).toContainText(`of ${report.total}`);
    await page.screenshot({ path: test.info().outputPath('players-missing-desktop.png'), fullPage: true });

    // Completion, highest first: the order and the address change, every page of it in the server's order.
    const completion = page.getByRole('columnheader', { name: /Completion/ });
    await expect(completion).toHaveAttribute('aria-sort', 'none');
    await expect(page.getByRole('columnheader', { name: /Player/ })).toHaveAttribute('aria-sort', 'ascending');
    await openPlayers(page, '');
    const byName = await readRows(page);
    await page.getByTestId('sort-completion').click();
    await expect(page).toHaveURL(/sort=completion/);
    await waitForPlayers(page);
    await page.getByTestId('sort-completion').click();
    await expect(page).toHaveURL(/sort=-completion/);
    await waitForPlayers(page);
    await expect(page.getByRole('columnheader', { name: /Completion/ })).toHaveAttribute('aria-sort', 'descending');
    const sorted = await readRows(page);
    expect(sorted.map((row) => row.id)).not.toEqual(byName.map((row) => row.id));
    const everyByCompletion = ZMissingReport.parse(await (await page.request.get('/api/report/missing?sort=-completion&pageSize=10')).json());
    expect(sorted.map((row) => row.id)).toEqual(everyByCompletion.players.map((player) => player.playerId));
    for (let i = 1; i < sorted.length; i++) expect(sorted[i - 1]?.completion ?? 0).toBeGreaterThanOrEqual(sorted[i]?.completion ?? 0);

    await page.getByRole('button', { name: 'Page 2', exact: true }).click();
    await waitForPlayers(page);
    await expect(page).toHaveURL(/sort=-completion/);
    const second = ZMissingReport.parse(await (await page.request.get('/api/report/missing?sort=-completion&pageSize=10&page=2')).json());
    expect((await readRows(page)).map((row) => row.id)).toEqual(second.players.map((player) => player.playerId));
  });

  test("the division filter lists every division the season offers; the remind dialog says who gets it", async ({ page }) => {
    await openPlayers(page);
    const seasons = (await (await page.request.get('/api/seasons')).json()) as { seasons: Array<{ id: string; isCurrent: boolean; divisions: string[] }> };
    const current = seasons.seasons.find((season) => season.isCurrent) ?? seasons.seasons[0];
    const options = await page
      .getByRole('search', { name: 'Player filters' })
      .getByRole('combobox', { name: 'Division' })
      .locator('option')
      .evaluateAll((els) => els.map((el) => el.textContent));
    expect(options).toEqual(['All', ...(current?.divisions ?? [])]);

    await openPlayers(page, '?status=incomplete');
    await page.getByTestId('remind-families').click();
    const dialog = page.getByTestId('remind-families-dialog');
    await expect(dialog.getByTestId('remind-reach')).toContainText(/players in this list/);
    await page.screenshot({ path: test.info().outputPath('players-remind-desktop.png') });
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('remind-families')).toBeFocused();
    await page.screenshot({ path: test.info().outputPath('players-desktop.png'), fullPage: true });
  });
});
