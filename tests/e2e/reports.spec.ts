import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import type { TSeasonReport } from '../../src/contract';
import { submitForm } from './dashboard-support';
import { choose, parseCsv } from './players-support';
import {
  cardFigures,
  demoSeasons,
  expectedGrowthText,
  openPastReport,
  openReports,
  readReport,
  readReportCards,
  REPORT_CARD_IDS,
  waitForReport,
} from './reports-support';
import { signInByApi } from './support';
import { readCsvFile } from '../support/csv';

/**
 * The Reports screen against the real server and its demo data: parameters applied
 * by Generate Report and kept in the address, the cards, the four tabs, the bars, the incomplete players, and
 * the JSON and CSV exports, each compared with GET /api/reports/season for the same parameters.
 */

const consoleErrors: string[] = [];
const expectedConsoleErrors: RegExp[] = [];
const expectFailedResponse = (status: number) =>
  expectedConsoleErrors.push(new RegExp(`^Failed to load resource: the server responded with a status of ${status}\\b`));
test.beforeEach(({ page }) => {
  consoleErrors.length = 0;
  expectedConsoleErrors.length = 0;
  page.on('console', (message) => {
    const text = message.text();
    // With the address, so a failed request names itself.
    if (message.type() === 'error' && !expectedConsoleErrors.some((re) => re.test(text))) consoleErrors.push(`${text} (${message.location().url})`);
  });
  page.on('pageerror', (error) => consoleErrors.push(error.message));
});
test.afterEach(() => {
  expect(consoleErrors).toEqual([]);
});

const DOC_TYPE_NAMES = { birth_certificate: 'Birth Certificate', residency: 'Residency', medical: 'Medical', waiver: 'Waiver' } as const;
const STATUS_WORDS = { complete: 'Verified', pending: 'Under Review', processing: 'Processing', missing: 'Missing', expired: 'Expired', not_required: 'Not Required' } as const;

const totalPlayersCard = (page: Page) => page.getByTestId(REPORT_CARD_IDS.totalPlayers);

async function generate(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Generate Report' }).click();
}

test.describe('Reports screen', () => {
  test('opens on the current season, all divisions, compared, with the cards of the API', async ({ page }) => {
    await openReports(page);
    const form = page.getByRole('form', { name: 'Report parameters' });
    await expect(form.getByRole('combobox', { name: 'Season' })).toHaveText(/\(current\)$/);
    await expect(form.getByRole('combobox', { name: 'Division' })).toHaveText('All Divisions');
    await expect(form.getByRole('checkbox', { name: 'Compare with previous season' })).toBeChecked();
    await expect(page.getByRole('button', { name: 'Export Report' })).toBeEnabled();

    // Other specs add players and documents to the current season: poll until the cards and the API agree.
    await expect(async () => {
      const report = await readReport(page.request);
      expect(report.summary.growth).not.toBeNull();
      expect(await readReportCards(page)).toEqual(cardFigures(report));
      await expect(totalPlayersCard(page)).toContainText(expectedGrowthText(report), { timeout: 1000 });
      await expect(page.getByTestId(REPORT_CARD_IDS.completeProfiles)).toContainText(`${report.summary.completionRate}% completion rate`, { timeout: 1000 });
      await expect(page.getByTestId('report-season')).toHaveText(`${report.season.name} · All Divisions`, { timeout: 1000 });
    }).toPass({ timeout: 40_000 });
  });

  test('a new season and division apply only on Generate; the cards, badge and address then follow the API', async ({ page }) => {
    await signInByApi(page);
    const { compared, oldest } = await demoSeasons(page.request);
    await page.goto('/reports');
    await waitForReport(page);
    const before = await readReportCards(page);
    const shownSeason = await page.getByTestId('season-report').getAttribute('data-season');

    const form = page.getByRole('form', { name: 'Report parameters' });
    await choose(page, form, 'Season', compared.name);
    await choose(page, form, 'Division', 'AA');
    // Edited, not generated: the report on screen stays.
    await expect(page.getByTestId('report-parameters-status')).toHaveText('Parameters changed: Generate Report to apply them.');
    await expect(page.getByTestId('season-report')).toHaveAttribute('data-season', shownSeason ?? '');
    expect(await readReportCards(page)).toEqual(before);
    await expect(page).toHaveURL(/\/reports$/);

    await generate(page);
    await expect(page).toHaveURL(new RegExp(`/reports\\?season=${compared.id}&division=AA$`));
    await waitForReport(page, { season: compared.id, division: 'AA', compare: true });
    const report = await readReport(page.request, { season: compared.id, division: 'AA' });
    expect(await readReportCards(page)).toEqual(cardFigures(report));
    expect(report.summary.totalPlayers).not.toBe(before.totalPlayers);
    await expect(page.getByTestId('report-season')).toHaveText(`${compared.name} · AA`);
    await expect(page.getByTestId('report-parameters-status')).toHaveText('');
    // The oldest season is the previous one of the same kind.
    expect(report.summary.growth?.previousSeason?.id).toBe(oldest.id);
    await expect(totalPlayersCard(page)).toContainText(expectedGrowthText(report));

    // The address keeps the report: a reload shows the same one, and Back the one before.
    await page.reload();
    await waitForReport(page, { season: compared.id, division: 'AA', compare: true });
    expect(await readReportCards(page)).toEqual(cardFigures(report));
    await expect(form.getByRole('combobox', { name: 'Season' })).toHaveText(compared.name);
    await expect(form.getByRole('combobox', { name: 'Division' })).toHaveText('AA');
    await page.goBack();
    await expect(page).toHaveURL(/\/reports$/);
    await waitForReport(page, { division: 'all' });
  });

  test("Compare off hides the growth; a season without a previous one says 'No previous season'", async ({ page }) => {
    await signInByApi(page);
    const { compared, oldest } = await demoSeasons(page.request);
    await page.goto(`/reports?season=${compared.id}`);
    await waitForReport(page, { season: compared.id, compare: true });
    const withGrowth = await readReport(page.request, { season: compared.id });
    await expect(totalPlayersCard(page)).toContainText(expectedGrowthText(withGrowth));
    await expect(totalPlayersCard(page)).toContainText(` vs ${oldest.name}`);

    await page.getByRole('checkbox', { name: 'Compare with previous season' }).click();
    await generate(page);
    await expect(page).toHaveURL(new RegExp(`\\?season=${compared.id}&compare=false$`));
    await waitForReport(page, { season: compared.id, compare: false });
    const without = await readReport(page.request, { season: compared.id, compare: false });
    expect(without.summary.growth).toBeNull();
    await expect(totalPlayersCard(page)).not.toContainText(' vs ');
    await expect(totalPlayersCard(page)).toContainText(`Registered in ${compared.name}`);
    expect(await readReportCards(page)).toEqual(cardFigures(without));

    await page.goto(`/reports?season=${oldest.id}`);
    await waitForReport(page, { season: oldest.id, compare: true });
    const first = await readReport(page.request, { season: oldest.id });
    expect(first.summary.growth).toEqual({ totalPlayers: null, completeProfiles: null, previousSeason: null });
    await expect(totalPlayersCard(page)).toContainText('No previous season');
  });

  test('Overview and Historical Trends draw their charts, each named by what it shows', async ({ page }) => {
    await signInByApi(page);
    const { all, shortHistory } = await demoSeasons(page.request);
    await page.goto(`/reports?season=${shortHistory.id}`);
    await waitForReport(page, { season: shortHistory.id });
    const report = await readReport(page.request, { season: shortHistory.id });
    const total = report.summary.totalPlayers;

    await expect(page.getByRole('tab', { name: 'Overview' })).toHaveAttribute('aria-selected', 'true');
    const types = page.getByRole('img', { name: /^Completion by document type: / });
    await expect(types).toBeVisible();
    for (const stat of report.documentStats) {
      await expect(types).toHaveAttribute('aria-label', new RegExp(`${DOC_TYPE_NAMES[stat.docType]} ${stat.completionRate}% complete \\(${stat.complete} of ${total}\\)`));
    }
    await expect(types.locator('.recharts-bar-rectangle').first()).toBeVisible();
    const divisions = page.getByRole('img', { name: /^Players by division: / });
    for (const stat of report.divisionStats.filter((d) => d.players > 0)) {
      await expect(divisions).toHaveAttribute('aria-label', new RegExp(`${stat.division} ${stat.players} players? `));
    }
    await expect(divisions.locator('.recharts-pie-sector').first()).toBeVisible();
    const monthly = page.getByRole('img', { name: /^Monthly registrations and completions, / });
    const registrations = report.monthly.reduce((sum, m) => sum + m.registrations, 0);
    await expect(monthly).toHaveAttribute('aria-label', new RegExp(`: ${registrations.toLocaleString('en-US')} registrations? and `));
    await expect(monthly.locator('.recharts-line-curve')).toHaveCount(2);

    await page.getByRole('tab', { name: 'Historical Trends' }).click();
    const history = page.getByRole('img', { name: /^Total players and complete profiles per season, / });
    await expect(history).toBeVisible();
    // Every season up to the report's, both kinds, oldest first.
    expect(report.history.map((h) => h.season.id)).toEqual(all.slice(2).reverse().map((s) => s.id));
    await expect(history).toHaveAttribute('aria-label', new RegExp(`from ${report.history[0]?.totalPlayers} players .* in ${all[5]?.name} to ${total} players`));
    await expect(history.locator('.recharts-line-curve')).toHaveCount(2);
    const rates = page.getByRole('img', { name: /^Completion rate per season: / });
    await expect(rates).toHaveAttribute('aria-label', `Completion rate per season: ${report.history.map((h) => `${h.season.name} ${h.completionRate}%`).join(', ')}.`);
    await expect(rates.locator('.recharts-bar-rectangle')).toHaveCount(4);
    // Each season's tick is there, on two lines.
    for (const season of report.history) {
      const [kind = '', year = ''] = season.season.name.replace(' Ball', '').split(' ');
      await expect(rates.locator('text', { hasText: `${kind}${year}` }).first()).toBeVisible();
    }
  });

  test('Growth Projections shows each projected season of the API, or why there is none', async ({ page }) => {
    await signInByApi(page);
    const { projected, shortHistory } = await demoSeasons(page.request);
    // Three seasons of its kind up to it: enough for a projection.
    await page.goto(`/reports?season=${projected.id}`);
    await waitForReport(page, { season: projected.id });
    const report = await readReport(page.request, { season: projected.id });
    expect(report.projections.enoughHistory).toBe(true);
    await page.getByRole('tab', { name: 'Growth Projections' }).click();
    const cards = page.getByTestId('projection-period');
    await expect(cards).toHaveCount(report.projections.periods.length);
    for (const [index, period] of report.projections.periods.entries()) {
      const card = cards.nth(index);
      await expect(card.getByTestId('projection-period-name')).toHaveText(period.period);
      await expect(card.getByTestId('projection-players')).toHaveText(period.projectedPlayers.toLocaleString('en-US'));
      await expect(card.getByTestId('projection-completion')).toHaveText(`${period.projectedCompletion}%`);
      await expect(card.getByTestId('projection-confidence')).toHaveText(`${period.confidenceLevel}%`);
      await expect(card.getByRole('listitem')).toHaveText(period.factors);
    }
    const chart = page.getByRole('img', { name: new RegExp(`^Players per ${projected.kind} season: `) });
    await expect(chart).toHaveAttribute('aria-label', new RegExp(`projected ${report.projections.periods.map((p) => `${p.period} ${p.projectedPlayers}`).join(', ')}\\.$`));
    await expect(chart.locator('.recharts-line-curve')).toHaveCount(2);

    // Two seasons of its kind: the server's message instead.
    await page.goto(`/reports?season=${shortHistory.id}`);
    await waitForReport(page, { season: shortHistory.id });
    const short = await readReport(page.request, { season: shortHistory.id });
    expect(short.projections.enoughHistory).toBe(false);
    await page.getByRole('tab', { name: 'Growth Projections' }).click();
    await expect(page.getByTestId('projection-message')).toContainText(short.projections.message ?? '');
    await expect(page.getByTestId('projection-period')).toHaveCount(0);
  });

  test('Detailed Analysis and the bars below the tabs show each type and division as the API counts them', async ({ page }) => {
    const season = await openPastReport(page);
    const report = await readReport(page.request, { season: season.id });
    const total = report.summary.totalPlayers;

    // Below the tabs: done/total · percent, one row per type, one per division (all five for All Divisions).
    const typeRows = page.getByTestId('progress-types').getByTestId('progress-row');
    await expect(typeRows).toHaveCount(4);
    for (const [index, stat] of report.documentStats.entries()) {
      await expect(typeRows.nth(index)).toContainText(DOC_TYPE_NAMES[stat.docType]);
      await expect(typeRows.nth(index).getByTestId('progress-figures')).toHaveText(`${stat.complete}/${total} · ${stat.completionRate}%`);
      await expect(typeRows.nth(index).getByRole('progressbar')).toHaveAttribute('aria-valuenow', String(Math.round(stat.completionRate)));
    }
    const divisionRows = page.getByTestId('progress-divisions').getByTestId('progress-row');
    await expect(divisionRows).toHaveCount(report.divisionStats.length);
    for (const [index, stat] of report.divisionStats.entries()) {
      await expect(divisionRows.nth(index).getByTestId('progress-figures')).toHaveText(`${stat.complete}/${stat.players} · ${stat.completionRate}%`);
    }

    await page.getByRole('tab', { name: 'Detailed Analysis' }).click();
    const details = page.getByTestId('details-type');
    await expect(details).toHaveCount(4);
    for (const [index, stat] of report.documentStats.entries()) {
      const row = details.nth(index);
      for (const status of ['complete', 'pending', 'processing', 'missing'] as const) {
        await expect(row.getByTestId(`details-${status}`)).toHaveText(String(stat[status]));
      }
      await expect(row.getByRole('img')).toHaveAttribute('aria-label', new RegExp(`^${DOC_TYPE_NAMES[stat.docType]}: ${stat.complete} verified, ${stat.pending} under review`));
    }
    const divisions = page.getByTestId('details-division');
    await expect(divisions).toHaveCount(report.divisionStats.length);
    for (const [index, stat] of report.divisionStats.entries()) {
      await expect(divisions.nth(index)).toContainText(`${stat.complete} complete, ${stat.players - stat.complete} incomplete`);
      await expect(divisions.nth(index).getByRole('progressbar')).toHaveAttribute('aria-valuenow', String(Math.round(stat.completionRate)));
    }
  });

  test('lists the incomplete players of the API, lowest first, with a labelled dot per document', async ({ page }) => {
    const season = await openPastReport(page);
    const report = await readReport(page.request, { season: season.id });
    expect(report.playersTotal).toBeGreaterThan(10);
    expect(report.players.length).toBe(report.playersTotal);

    const list = page.getByRole('region', { name: 'Incomplete players' });
    const rows = list.getByTestId('incomplete-player');
    await expect(rows).toHaveCount(report.players.length);
    await expect(page.getByTestId('incomplete-count')).toHaveText(`${report.playersTotal} players below 100% completion, lowest first`);
    await expect(list.getByTestId('incomplete-player-name')).toHaveText(report.players.map((p) => p.playerName));
    await expect(list.getByTestId('incomplete-player-percent')).toHaveText(report.players.map((p) => `${p.completionPercentage}%`));
    const first = report.players[0];
    if (!first) throw new Error('No incomplete player');
    const dots = rows.first().getByRole('img');
    await expect(dots).toHaveCount(4);
    for (const [index, type] of (['birth_certificate', 'residency', 'medical', 'waiver'] as const).entries()) {
      const status = first.documentsStatus[type];
      await expect(dots.nth(index)).toHaveAccessibleName(`${DOC_TYPE_NAMES[type]}: ${STATUS_WORDS[status].toLowerCase()}`);
      await expect(dots.nth(index)).toHaveAttribute('data-status', status);
    }
    await expect(page.getByTestId('incomplete-unlisted')).toHaveCount(0);
    // The list scrolls inside its card, not the page.
    const { scrollHeight, clientHeight } = await list.evaluate((el) => ({ scrollHeight: el.scrollHeight, clientHeight: el.clientHeight }));
    expect(scrollHeight).toBeGreaterThan(clientHeight);
  });

  test('Export Report → JSON downloads the report on screen, equal to the API answer for its parameters', async ({ page }) => {
    const season = await openPastReport(page, { division: 'AA' });
    const report = await readReport(page.request, { season: season.id, division: 'AA', compare: true });
    const startedAt = Date.now();

    await page.getByRole('button', { name: 'Export Report' }).click();
    const downloading = page.waitForEvent('download');
    await page.getByRole('menuitem', { name: /^JSON/ }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(new RegExp(`^clearbase-report-${season.id}-aa-\\d{8}T\\d{4}Z\\.json$`));
    const exported = JSON.parse(await readFile(await download.path(), 'utf8')) as Record<string, unknown> & { generatedAt: string };
    expect(Object.keys(exported)).toEqual(['generatedAt', 'season', 'division', 'summary', 'documentStats', 'divisionStats', 'players']);
    const { generatedAt, ...figures } = exported;
    expect(Math.abs(Date.parse(generatedAt) - startedAt)).toBeLessThan(60_000);
    expect(figures).toEqual({
      season: report.season,
      division: 'AA',
      summary: report.summary,
      documentStats: report.documentStats,
      divisionStats: report.divisionStats,
      players: report.players,
    });
    await expect(page.getByText('Report Exported', { exact: true })).toBeVisible();
  });

  test('the incomplete players CSV has its eight columns and one row per incomplete player, lowest first', async ({ page }) => {
    const season = await openPastReport(page, { division: 'AA' });
    const report = await readReport(page.request, { season: season.id, division: 'AA' });

    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export incomplete players (CSV)' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(new RegExp(`^clearbase-incomplete-players-${season.id}-\\d{8}T\\d{4}Z\\.csv$`));
    const text = await readCsvFile(await download.path());
    const [header, ...rows] = parseCsv(text);
    expect(header).toEqual(['Player ID', 'Player Name', 'Division', 'Completion %', 'Birth Certificate', 'Residency', 'Medical', 'Waiver']);
    expect(rows).toEqual(
      report.players.map((p) => [
        p.playerId,
        p.playerName,
        'AA',
        String(p.completionPercentage),
        ...(['birth_certificate', 'residency', 'medical', 'waiver'] as const).map((type) => STATUS_WORDS[p.documentsStatus[type]]),
      ]),
    );
    expect(rows).toHaveLength(report.playersTotal);
    await expect(page.getByText(`${report.playersTotal} incomplete players exported to CSV.`, { exact: true })).toBeVisible();
  });

  test('a failed load shows the server message, and Try again reads the report again', async ({ page }) => {
    await signInByApi(page);
    const { shortHistory: season } = await demoSeasons(page.request);
    let failures = 1;
    await page.route('**/api/reports/season?*', async (route) => {
      if (failures-- > 0) {
        await route.fulfill({ status: 503, json: { code: 'SERVICE_UNAVAILABLE', message: 'The database is not answering. Try again in a moment.' } });
      } else {
        await route.continue();
      }
    });
    expectFailedResponse(503);
    await page.goto(`/reports?season=${season.id}`);
    const error = page.getByTestId('report-error');
    await expect(error.getByRole('alert')).toContainText('Unable to load the report');
    await expect(error.getByRole('alert')).toContainText('The database is not answering. Try again in a moment.');
    await expect(page.getByRole('button', { name: 'Export Report' })).toBeDisabled();
    await error.getByRole('button', { name: 'Try again' }).click();
    await waitForReport(page, { season: season.id });
    await expect(error).toHaveCount(0);
    expect(await readReportCards(page)).toEqual(cardFigures(await readReport(page.request, { season: season.id })));
  });

  test('a season without players says so; a report without incomplete players says all are complete', async ({ page }) => {
    await signInByApi(page);
    const { shortHistory: season } = await demoSeasons(page.request);
    const real = await readReport(page.request, { season: season.id, division: 'AAA' });
    const empty: TSeasonReport = {
      ...real,
      summary: { ...real.summary, totalPlayers: 0, completeProfiles: 0, incompleteProfiles: 0, completionRate: 0, totalDocuments: 0 },
      documentStats: real.documentStats.map((d) => ({ ...d, complete: 0, pending: 0, processing: 0, missing: 0, completionRate: 0 })),
      divisionStats: real.divisionStats.map((d) => ({ ...d, players: 0, complete: 0, completionRate: 0 })),
      players: [],
      playersTotal: 0,
    };
    const allComplete: TSeasonReport = {
      ...real,
      summary: { ...real.summary, completeProfiles: real.summary.totalPlayers, incompleteProfiles: 0, completionRate: 100 },
      players: [],
      playersTotal: 0,
    };
    let answer = empty;
    await page.route('**/api/reports/season?*', (route) => route.fulfill({ json: answer }));

    await page.goto(`/reports?season=${season.id}&division=AAA`);
    await waitForReport(page, { season: season.id, division: 'AAA' });
    await expect(page.getByTestId('report-empty')).toContainText(`No players in ${season.name}`);
    await expect(page.getByTestId('report-empty')).toContainText('Nobody is registered for this season in AAA yet.');
    expect(await readReportCards(page)).toEqual({ totalPlayers: 0, completeProfiles: 0, incompleteProfiles: 0, totalDocuments: 0 });
    await expect(page.getByRole('tab')).toHaveCount(0);

    answer = allComplete;
    await generate(page);
    await expect(page.getByTestId('incomplete-none')).toHaveText('All players have complete profiles!');
    await expect(page.getByRole('button', { name: 'Export incomplete players (CSV)' })).toBeDisabled();
    await expect(page.getByTestId(REPORT_CARD_IDS.completeProfiles)).toContainText('100% completion rate');
  });

  test('a live document event reads the report on screen again', async ({ page, baseURL }) => {
    await openReports(page);
    await expect(page.getByTestId('live-indicator')).toHaveAttribute('data-state', 'connected');
    const reread = page.waitForRequest((request) => request.url().includes('/api/reports/season'));
    await submitForm(baseURL ?? '', `reports-live-${Date.now()}.pdf`);
    await reread;
    await waitForReport(page);
  });
});
