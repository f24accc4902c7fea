import { expect, test, type Page } from '@playwright/test';
import { ZPlayerReport } from '../../src/contract';
import { foldForSearch } from '../../src/web/lib/search-text';
import { choose, matchingTotal, openPlayers, parseCsv, playerRows, readRows, uniqueSurname, waitForPlayers } from './players-support';
import { signInAndWaitForShell, signInByApi } from './support';
import { readCsvFile } from '../support/csv';

/**
 * The Players screen (table, filters, search, paging, Add Player, texts and toasts) against the real server
 * and its demo data, and the pieces the dashboard shares: the player detail dialog and the CSV export of the
 * player table.
 */

/** No console errors on these screens, but for failed responses a test causes on purpose. */
const consoleErrors: string[] = [];
/** Chromium's own line for a failed response a test causes on purpose, e.g. the 409 of a duplicate. */
const expectedConsoleErrors: RegExp[] = [];
const expectFailedResponse = (status: number) =>
  expectedConsoleErrors.push(new RegExp(`^Failed to load resource: the server responded with a status of ${status}\\b`));
test.beforeEach(({ page }) => {
  consoleErrors.length = 0;
  expectedConsoleErrors.length = 0;
  page.on('console', (message) => {
    const text = message.text();
    if (message.type() === 'error' && !expectedConsoleErrors.some((re) => re.test(text))) consoleErrors.push(text);
  });
  page.on('pageerror', (error) => consoleErrors.push(error.message));
});
test.afterEach(() => {
  expect(consoleErrors).toEqual([]);
});

const CSV_HEADER = 'Player ID,Player Name,Division,Birth Certificate,Residency,Medical,Waiver,Completion %,Guardian Name,Guardian E-mail,Guardian Phone';

/** The address bar's query parameter, once the debounced search (or a filter) has written it. */
async function expectParam(page: Page, name: string, value: string | null): Promise<void> {
  await expect.poll(() => new URL(page.url()).searchParams.get(name)).toBe(value);
}

async function countCard(page: Page, key: 'total' | 'complete' | 'incomplete'): Promise<number> {
  const text = await page.getByTestId(`player-count-${key}`).getByTestId('player-count-value').textContent();
  return Number((text ?? '').replace(/[^\d]/g, ''));
}

test.describe('Players screen', () => {
  test('shows the season, the three counts and ten players a page in seven columns', async ({ page }) => {
    await openPlayers(page);
    await expect(page.getByTestId('players-season')).toHaveText(/^(Spring|Fall) Ball \d{4}$/);
    await expect(page.getByRole('button', { name: 'Add Player' })).toBeVisible();

    const total = await countCard(page, 'total');
    expect(total).toBeGreaterThan(10);
    expect((await countCard(page, 'complete')) + (await countCard(page, 'incomplete'))).toBe(total);

    const table = page.getByTestId('player-table');
    for (const column of ['Player', 'Division', 'Birth Certificate', 'Residency', 'Medical', 'Waiver', 'Completion']) {
      await expect(table.getByRole('columnheader', { name: column, exact: true })).toBeVisible();
    }
    await expect(playerRows(page)).toHaveCount(10);
    const first = playerRows(page).first();
    // 'Last, First' with the initials of both parts.
    const name = (await first.getByTestId('player-name').textContent()) ?? '';
    expect(name).toMatch(/^.+, .+$/);
    const [last = '', firstName = ''] = name.split(', ');
    await expect(first.locator('span[aria-hidden="true"]').first()).toHaveText(`${[...firstName][0]}${[...last][0]}`.toUpperCase());
    // One status per document type.
    await expect(first.locator('[data-status]')).toHaveCount(4);
    expect(await matchingTotal(page)).toBe(total);
  });

  test('search narrows to a name from the first row (or its guardian), then to that player id, case-insensitively', async ({ page }) => {
    await openPlayers(page);
    const [first] = await readRows(page);
    if (!first) throw new Error('No players in the demo data');
    const lastName = first.name.split(', ')[0] ?? '';

    const search = page.getByRole('searchbox', { name: 'Search' });
    await search.fill(lastName.toUpperCase());
    await expectParam(page, 'search', lastName.toUpperCase());
    await waitForPlayers(page);
    const byName = await readRows(page);
    expect(byName.length).toBeGreaterThan(0);
    const needle = foldForSearch(lastName);
    for (const row of byName) {
      if (foldForSearch(`${row.name} ${row.id}`).includes(needle)) continue;
      // Not by the player's own name: then by the guardian's, which the search looks in too.
      const report = ZPlayerReport.parse(await (await page.request.get(`/api/report/player?player_id=${encodeURIComponent(row.id)}`)).json());
      expect(foldForSearch(`${report.guardian.name ?? ''} ${report.guardian.email ?? ''}`)).toContain(needle);
    }
    expect(byName.map((row) => row.id)).toContain(first.id);

    await search.fill(first.id);
    await expectParam(page, 'search', first.id);
    await waitForPlayers(page);
    expect(await readRows(page)).toEqual([first]);
    await expect(page.getByTestId('player-range')).toHaveText('Showing 1–1 of 1');
  });

  test('the division filter shows only that division and the counts follow it', async ({ page }) => {
    await openPlayers(page);
    const allTotal = await countCard(page, 'total');
    await choose(page, page, 'Division', 'AA');
    await expect(page).toHaveURL(/division=AA(&|$)/);
    await waitForPlayers(page);
    const rows = await readRows(page);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.division).toBe('AA');
    const divisionTotal = await countCard(page, 'total');
    expect(divisionTotal).toBeLessThan(allTotal);
    expect(await matchingTotal(page)).toBe(divisionTotal);
  });

  test('status Complete shows only players at 100 %, Incomplete only players below', async ({ page }) => {
    await openPlayers(page);
    await choose(page, page, 'Status', 'Complete');
    await expect(page).toHaveURL(/status=complete/);
    await waitForPlayers(page);
    const complete = await readRows(page);
    expect(complete.length).toBeGreaterThan(0);
    for (const row of complete) expect(row.completion).toBe(100);
    expect(await matchingTotal(page)).toBe(await countCard(page, 'complete'));

    await choose(page, page, 'Status', 'Incomplete');
    await expect(page).toHaveURL(/status=incomplete/);
    await waitForPlayers(page);
    for (const row of await readRows(page)) expect(row.completion).toBeLessThan(100);
    expect(await matchingTotal(page)).toBe(await countCard(page, 'incomplete'));

    // Pending: players with a document awaiting review, some of all.
    await choose(page, page, 'Status', 'Under Review');
    await expect(page).toHaveURL(/status=pending/);
    await waitForPlayers(page);
    const pending = await matchingTotal(page);
    expect(pending).toBeGreaterThan(0);
    expect(pending).toBeLessThan(await countCard(page, 'total'));
  });

  test('paging shows up to five page numbers, an ellipsis and the last page; page 2 shows other players', async ({ page }) => {
    await openPlayers(page);
    const pager = page.getByRole('navigation', { name: 'Players pages' });
    const total = await matchingTotal(page);
    const lastPage = Math.ceil(total / 10);
    expect(lastPage).toBeGreaterThan(6);
    for (const n of [1, 2, 3, 4, 5, lastPage]) await expect(pager.getByRole('button', { name: `Page ${n}`, exact: true })).toBeVisible();
    await expect(pager.getByRole('button', { name: 'Page 6', exact: true })).toHaveCount(0);
    await expect(pager.getByText('…')).toBeVisible();
    await expect(pager.getByRole('button', { name: 'Previous page' })).toBeDisabled();

    const pageOne = (await readRows(page)).map((row) => row.id);
    await pager.getByRole('button', { name: 'Page 2', exact: true }).click();
    await expect(page).toHaveURL(/page=2/);
    await waitForPlayers(page);
    await expect(pager.getByRole('button', { name: 'Page 2', exact: true })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByTestId('player-range')).toHaveText(`Showing 11–20 of ${total}`);
    const pageTwo = (await readRows(page)).map((row) => row.id);
    expect(pageTwo).toHaveLength(10);
    expect(pageTwo.filter((id) => pageOne.includes(id))).toEqual([]);

    await pager.getByRole('button', { name: `Page ${lastPage}`, exact: true }).click();
    await waitForPlayers(page);
    await expect(pager.getByRole('button', { name: 'Next page' })).toBeDisabled();
    await expect(playerRows(page)).toHaveCount(total - (lastPage - 1) * 10);
  });

  test('keeps the filters in the address, so a link or a reload shows the same players; Clear Filters resets them', async ({ page }) => {
    await openPlayers(page, '?division=A&status=incomplete&page=2');
    const filters = page.getByRole('search', { name: 'Player filters' });
    await expect(filters.getByRole('combobox', { name: 'Division' })).toHaveValue('A');
    await expect(filters.getByRole('combobox', { name: 'Status' })).toHaveValue('incomplete');
    await expect(page.getByRole('button', { name: 'Page 2', exact: true })).toHaveAttribute('aria-current', 'page');
    const before = await readRows(page);
    for (const row of before) expect(row.division).toBe('A');

    await page.reload();
    await waitForPlayers(page);
    expect(await readRows(page)).toEqual(before);

    await filters.getByRole('searchbox', { name: 'Search' }).fill('a');
    await expectParam(page, 'search', 'a');
    await filters.getByRole('button', { name: 'Clear Filters' }).click();
    await expect(page).toHaveURL(/\/players$/);
    await expect(filters.getByRole('searchbox', { name: 'Search' })).toHaveValue('');
    await expect(filters.getByRole('combobox', { name: 'Division' })).toHaveValue('all');
    await expect(filters.getByRole('combobox', { name: 'Status' })).toHaveValue('all');
    await expect(filters.getByRole('button', { name: 'Clear Filters' })).toBeDisabled();
    // The season stays what it was (the current one).
    await expect(filters.getByRole('combobox', { name: 'Season' })).toHaveText(/\(current\)$/);
  });

  test('another season shows that season in the badge and the address', async ({ page }) => {
    await openPlayers(page);
    const current = await page.getByTestId('players-season').textContent();
    await page.getByRole('combobox', { name: 'Season' }).click();
    const options = page.getByRole('option');
    await expect(options.first()).toBeVisible();
    expect(await options.count()).toBeGreaterThan(1);
    const other = options.filter({ hasNotText: '(current)' }).first();
    const otherName = ((await other.textContent()) ?? '').trim();
    await other.click();
    await expect(page).toHaveURL(/season=(spring|fall)-\d{4}/);
    await waitForPlayers(page);
    await expect(page.getByTestId('players-season')).toHaveText(otherName);
    expect(otherName).not.toBe(current);
  });

  test('a page past the end (an old link) moves to the last page', async ({ page }) => {
    await openPlayers(page, '?division=AAA&page=999');
    await expect(page).toHaveURL(/page=\d+/);
    const total = await matchingTotal(page);
    const lastPage = Math.ceil(total / 10);
    await expect.poll(() => new URL(page.url()).searchParams.get('page')).toBe(String(lastPage));
    await waitForPlayers(page);
    await expect(playerRows(page)).toHaveCount(total - (lastPage - 1) * 10);
    await expect(page.getByRole('button', { name: `Page ${lastPage}`, exact: true })).toHaveAttribute('aria-current', 'page');
  });

  test('a failed load shows the server message and Try again reads the players again', async ({ page }) => {
    await signInByApi(page);
    let failures = 1;
    await page.route('**/api/report/missing?*', async (route) => {
      if (failures-- > 0) {
        await route.fulfill({ status: 503, json: { code: 'SERVICE_UNAVAILABLE', message: 'The database is not answering. Try again in a moment.' } });
      } else {
        await route.continue();
      }
    });
    expectFailedResponse(503);
    await page.goto('/players');
    const error = page.getByTestId('player-table-error');
    await expect(error.getByRole('alert')).toContainText('Unable to load players');
    await expect(error.getByRole('alert')).toContainText('The database is not answering. Try again in a moment.');
    await error.getByRole('button', { name: 'Try again' }).click();
    await waitForPlayers(page);
    await expect(playerRows(page)).toHaveCount(10);
  });

  test("shows 'No players found' when nothing matches", async ({ page }) => {
    await openPlayers(page);
    await page.getByRole('searchbox', { name: 'Search' }).fill('zzzz-no-such');
    await expectParam(page, 'search', 'zzzz-no-such');
    await waitForPlayers(page);
    await expect(page.getByText('No players found', { exact: true })).toBeVisible();
    await expect(page.getByText('No players match your current filters.', { exact: true })).toBeVisible();
    await expect(playerRows(page)).toHaveCount(0);
    await expect(page.getByRole('navigation', { name: 'Players pages' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Export CSV' })).toBeDisabled();
  });
});

test.describe('Add Player', () => {
  test('names each missing or bad field next to it, and focuses the first', async ({ page }) => {
    await openPlayers(page);
    await page.getByRole('button', { name: 'Add Player' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Player' });
    await dialog.getByRole('button', { name: 'Add Player' }).click();

    const firstName = dialog.getByRole('textbox', { name: 'First name' });
    await expect(firstName).toHaveAttribute('aria-invalid', 'true');
    await expect(firstName).toHaveAccessibleDescription('First name is required');
    await expect(firstName).toBeFocused();
    await expect(dialog.getByRole('textbox', { name: 'Last name' })).toHaveAccessibleDescription('Last name is required');
    await expect(dialog.getByText('Birth date is required')).toBeVisible();
    await expect(dialog.getByRole('combobox', { name: 'Division' })).toHaveAccessibleDescription('Division is required');
    // The season has a default (the current season), so it is not reported.
    await expect(dialog.getByRole('combobox', { name: 'Season' })).toHaveText(/\(current\)$/);
    await expect(dialog.getByRole('combobox', { name: 'Season' })).toHaveAttribute('aria-invalid', 'false');

    await dialog.getByRole('textbox', { name: 'Guardian e-mail' }).fill('not-an-email');
    await dialog.getByRole('textbox', { name: 'Guardian phone' }).fill('call me');
    await dialog.getByRole('button', { name: 'Add Player' }).click();
    await expect(dialog.getByRole('textbox', { name: 'Guardian e-mail' })).toHaveAccessibleDescription('Guardian e-mail must be an e-mail address');
    await expect(dialog.getByRole('textbox', { name: 'Guardian phone' })).toHaveAccessibleDescription(
      'Guardian phone may hold digits, spaces and + ( ) - . only',
    );
    // Editing a field takes its message away.
    await firstName.fill('Ava');
    await expect(firstName).toHaveAttribute('aria-invalid', 'false');

    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
  });

  test('adds a player who then appears in the search with every document missing; adding them again is refused', async ({ page }) => {
    await openPlayers(page);
    const totalBefore = await countCard(page, 'total');
    const lastName = uniqueSurname();

    const addPlayer = async () => {
      await page.getByRole('button', { name: 'Add Player' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add Player' });
      await dialog.getByRole('textbox', { name: 'First name' }).fill('Quinn');
      await dialog.getByRole('textbox', { name: 'Last name' }).fill(lastName);
      await dialog.getByLabel('Birth date').fill('2015-03-14');
      await choose(page, dialog, 'Division', 'AA');
      await dialog.getByRole('textbox', { name: 'Guardian name' }).fill('Morgan Example');
      await dialog.getByRole('textbox', { name: 'Guardian e-mail' }).fill('morgan@example.org');
      await dialog.getByRole('textbox', { name: 'Guardian phone' }).fill('+1 (212) 555-0142');
      await dialog.getByRole('button', { name: 'Add Player' }).click();
      return dialog;
    };

    const dialog = await addPlayer();
    await expect(dialog).toBeHidden();
    await expect(page.getByText('Player added', { exact: true })).toBeVisible();
    // The toast's own line (its live-region announcement repeats the text with the title).
    const toastText = (await page.getByText(new RegExp(`^${lastName}, Quinn · \\S+$`)).textContent()) ?? '';
    const playerId = toastText.split(' · ')[1] ?? '';
    expect(playerId).not.toBe('');
    await expect.poll(() => countCard(page, 'total')).toBe(totalBefore + 1);

    await page.getByRole('searchbox', { name: 'Search' }).fill(lastName.toLowerCase());
    await expectParam(page, 'search', lastName.toLowerCase());
    await waitForPlayers(page);
    expect(await readRows(page)).toEqual([{ name: `${lastName}, Quinn`, id: playerId, division: 'AA', completion: 0 }]);
    await expect(playerRows(page).first().locator('[data-status="missing"]')).toHaveCount(4);

    // The new player's dialog: no documents yet, and the guardian just entered.
    await playerRows(page).first().getByTestId('player-name').click();
    const detail = page.getByTestId('player-detail-dialog');
    await expect(detail.getByRole('heading', { level: 2 })).toContainText(lastName);
    await expect(detail.getByText('No documents uploaded yet')).toBeVisible();
    await expect(detail.getByText('Morgan Example')).toBeVisible();
    await expect(detail.getByRole('link', { name: 'morgan@example.org' })).toHaveAttribute('href', 'mailto:morgan@example.org');
    await expect(detail.getByRole('link', { name: '+1 (212) 555-0142' })).toHaveAttribute('href', 'tel:+12125550142');
    await page.keyboard.press('Escape');
    await expect(detail).toBeHidden();

    // The same name and birth date in the same season is the same player: refused (409), the dialog says why.
    expectFailedResponse(409);
    const again = await addPlayer();
    await expect(again.getByRole('alert')).toBeVisible();
    await expect(again.getByRole('alert')).toContainText('already registered');
    await expect(again).toBeVisible();
    await again.getByRole('button', { name: 'Cancel' }).click();
    await expect(again).toBeHidden();
    await expect(page.getByRole('button', { name: 'Add Player' })).toBeFocused();
  });

  test('a player added without a guardian says so in the player dialog', async ({ page }) => {
    await openPlayers(page);
    const lastName = uniqueSurname('Solo');
    await page.getByRole('button', { name: 'Add Player' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Player' });
    await dialog.getByRole('textbox', { name: 'First name' }).fill('Rowan');
    await dialog.getByRole('textbox', { name: 'Last name' }).fill(lastName);
    await dialog.getByLabel('Birth date').fill('2016-07-01');
    await choose(page, dialog, 'Division', 'A');
    await dialog.getByRole('button', { name: 'Add Player' }).click();
    await expect(dialog).toBeHidden();

    await page.getByRole('searchbox', { name: 'Search' }).fill(lastName);
    await expectParam(page, 'search', lastName);
    await waitForPlayers(page);
    await expect(playerRows(page)).toHaveCount(1);
    await playerRows(page).first().getByTestId('player-name').click();
    const detail = page.getByTestId('player-detail-dialog');
    await expect(detail.getByText('No documents uploaded yet')).toBeVisible();
    await expect(detail.getByText('No guardian information available')).toBeVisible();
  });
});

test.describe('player detail dialog', () => {
  test('opens from the keyboard and shows the documents, the guardian and where the files are kept', async ({ page }) => {
    await openPlayers(page, '?status=complete');
    const [first] = await readRows(page);
    if (!first) throw new Error('No complete players in the demo data');

    // Keyboard: the name is a button; Enter opens the dialog, Escape closes it and gives focus back.
    const nameButton = playerRows(page).first().getByTestId('player-name');
    await nameButton.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByTestId('player-detail-dialog');
    await expect(dialog).toBeVisible();
    await expect(dialog.getByTestId('player-detail-id')).toHaveText(first.id);
    await expect(dialog.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');

    // A complete player has a verified document of every type.
    const documents = dialog.getByTestId('player-document');
    await expect(documents.first()).toBeVisible();
    expect(await documents.count()).toBeGreaterThanOrEqual(4);
    for (const type of ['Birth Certificate', 'Residency Proof', 'Medical Form', 'Liability Waiver']) {
      await expect(documents.filter({ hasText: type }).filter({ has: page.locator('[data-status="verified"]') }).first()).toBeVisible();
    }
    const firstDocument = documents.first();
    await expect(firstDocument).toContainText(/\d+(\.\d{2})? (Bytes|KB|MB|GB)/);
    await expect(firstDocument.getByRole('link', { name: /^Download/ })).toHaveAttribute('href', /^\/api\/documents\/[0-9a-f-]+\/file$/);
    await expect(firstDocument.getByRole('link', { name: /^Download/ })).toHaveAttribute('download', /.+/);

    // Guardian contact, or a fixed text when there is none.
    await expect(dialog.getByTestId('guardian-contact').or(dialog.getByText('No guardian information available'))).toBeVisible();

    // Where the file is kept, in words: no storage path and nothing to copy.
    await expect(firstDocument.getByTestId('storage-words')).toHaveText(/^Stored encrypted (on this server|in the S3 bucket)$/);
    await expect(dialog).not.toContainText('file://');
    // Copy upload link gives the family a link, not a storage location.
    await expect(dialog.getByRole('button', { name: /^Copy(?! upload link)/ })).toHaveCount(0);

    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(nameButton).toBeFocused();
  });

  test('View opens the file viewer above the player dialog; closing it returns to the player', async ({ page }) => {
    await openPlayers(page, '?status=complete');
    await playerRows(page).first().click();
    const dialog = page.getByTestId('player-detail-dialog');
    const firstDocument = dialog.getByTestId('player-document').first();
    const fileName = ((await firstDocument.locator('p.break-all').textContent()) ?? '').trim();
    // The file is shown, or the server's reason it cannot be (demo rows have no stored bytes: 404).
    expectFailedResponse(404);
    await firstDocument.getByRole('button', { name: /^View/ }).click();
    const viewer = page.getByRole('dialog', { name: fileName });
    await expect(viewer).toBeVisible();
    await expect(viewer.getByTestId('document-viewer-body')).toHaveAttribute('data-state', /ready|error/);
    await page.keyboard.press('Escape');
    await expect(viewer).toBeHidden();
    await expect(dialog).toBeVisible();
    await expect(firstDocument.getByRole('button', { name: /^View/ })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    // A row click opens the dialog from the row's name button, so focus comes back to it.
    await expect(playerRows(page).first().getByTestId('player-name')).toBeFocused();
  });
});

test.describe('CSV export', () => {
  test('exports every player matching the filters, with the CSV header, in a file named after the season', async ({ page }) => {
    await openPlayers(page);
    await choose(page, page, 'Division', 'AAA');
    await expect(page).toHaveURL(/division=AAA/);
    await waitForPlayers(page);
    // With only a division chosen, the matching rows are the count card's total (the summary).
    const total = await countCard(page, 'total');
    expect(await matchingTotal(page)).toBe(total);
    const seasonName = (await page.getByTestId('players-season').textContent()) ?? '';
    const seasonId = seasonName.toLowerCase().replace(/ ball /, '-');

    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(new RegExp(`^clearbase-players-${seasonId}-\\d{4}-\\d{2}-\\d{2}T\\d{2}-\\d{2}-\\d{2}\\.csv$`));
    const text = await readCsvFile(await download.path());
    expect(text.split('\r\n')[0]).toBe(CSV_HEADER);
    const rows = parseCsv(text).slice(1);
    expect(rows).toHaveLength(total);
    for (const row of rows) {
      expect(row).toHaveLength(11);
      expect(row[0]).toMatch(/\S/);
      expect(row[2]).toBe('AAA');
      expect(row.slice(3, 7).every((status) => ['Verified', 'Missing', 'Under Review', 'Processing', 'Expired', 'Not Required'].includes(status))).toBe(true);
      expect(Number(row[7])).toBeGreaterThanOrEqual(0);
    }
    await expect(page.getByText('Export Successful', { exact: true })).toBeVisible();
    await expect(page.getByText(`${total} players exported to CSV.`, { exact: true })).toBeVisible();
  });
});

test.describe("dashboard's Document Status Overview", () => {
  test('filters the players, opens one, and exports exactly the summary total for the division', async ({ page }) => {
    await signInAndWaitForShell(page);
    const overview = page.getByTestId('document-status-overview');
    await overview.scrollIntoViewIfNeeded();
    await waitForPlayers(page, overview);
    await expect(playerRows(overview)).toHaveCount(10);
    await expect(overview.getByRole('navigation', { name: 'Document status overview pages' })).toBeVisible();

    await choose(page, overview, 'Division', 'AA');
    await waitForPlayers(page, overview);
    for (const row of await readRows(overview)) expect(row.division).toBe('AA');
    // The season and division's summary, as the server counts it.
    const response = await page.request.get('/api/report/missing?division=AA&pageSize=1');
    expect(response.ok()).toBe(true);
    const report = (await response.json()) as { season: { id: string }; summary: { total: number } };
    expect(await matchingTotal(overview)).toBe(report.summary.total);

    const downloading = page.waitForEvent('download');
    await overview.getByRole('button', { name: 'Export CSV' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(new RegExp(`^clearbase-players-${report.season.id}-.+\\.csv$`));
    const text = await readCsvFile(await download.path());
    expect(text.split('\r\n')[0]).toBe(CSV_HEADER);
    const rows = parseCsv(text).slice(1);
    expect(rows).toHaveLength(report.summary.total);
    expect(rows.every((row) => row[2] === 'AA')).toBe(true);
    await expect(page.getByText(`${report.summary.total} players exported to CSV.`, { exact: true })).toBeVisible();

    // A row opens the shared player dialog.
    const [first] = await readRows(overview);
    await playerRows(overview).first().getByTestId('player-name').click();
    const dialog = page.getByTestId('player-detail-dialog');
    await expect(dialog.getByTestId('player-detail-id')).toHaveText(first?.id ?? '');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();

    // Nothing matches: the empty state, and nothing to export.
    await overview.getByRole('searchbox', { name: 'Search' }).fill('zzzz-no-such');
    await expect(overview.getByText('No players found', { exact: true })).toBeVisible();
    await expect(overview.getByRole('button', { name: 'Export CSV' })).toBeDisabled();
    await overview.getByRole('button', { name: 'Clear Filters' }).click();
    await expect(playerRows(overview)).toHaveCount(10);
  });
});
