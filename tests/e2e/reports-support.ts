import { expect, type APIRequestContext, type Page } from '@playwright/test';
import type { TSeasonReport, TSeasons } from '../../src/contract';
import { YEARS as DEMO_YEARS } from '../../src/server/demo/demo-seasons';
import { openSignedIn, signInByApi } from './support';

/**
 * Helpers for the Reports specs (reports.spec.ts, reports.phone.spec.ts, accessibility.spec.ts). They run against
 * the shared e2e server and its demo data (six seasons, Spring and Fall Ball 2023-2025): figures are read from
 * GET /api/reports/season, never assumed. Past seasons are the stable ones; other specs add players and documents
 * to the current season while the run goes on.
 */

export type ReportQuery = { season?: string; division?: 'all' | 'AAA' | 'AA' | 'A'; compare?: boolean };

/** GET /api/reports/season with the page's session cookie. */
export async function readReport(request: APIRequestContext, query: ReportQuery = {}): Promise<TSeasonReport> {
  const params = new URLSearchParams();
  if (query.season) params.set('season', query.season);
  if (query.division) params.set('division', query.division);
  if (query.compare !== undefined) params.set('compare', String(query.compare));
  const response = await request.get(`/api/reports/season?${params.toString()}`);
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()) as TSeasonReport;
}

/** GET /api/seasons: newest first. */
export async function readSeasons(request: APIRequestContext): Promise<TSeasons['seasons']> {
  const response = await request.get('/api/seasons');
  expect(response.ok(), await response.text()).toBe(true);
  return ((await response.json()) as TSeasons).seasons;
}

type Season = TSeasons['seasons'][number];

/**
 * The demo data's six seasons (newest first, the kinds alternating) by the part each plays in the specs, so the
 * specs hold whichever kind is current:
 * - `projected`: the newest past season, with three seasons of its kind up to it (enough for a projection);
 * - `shortHistory`: the next, with two of its kind (not enough);
 * - `compared`: the next, with a previous season of its kind (`oldest`) to compare with;
 * - `oldest`: the first season, with none before it.
 */
export async function demoSeasons(request: APIRequestContext): Promise<{ all: Season[]; projected: Season; shortHistory: Season; compared: Season; oldest: Season }> {
  // Only the demo's: a spec may add a season of a later year (requirement-screens makes a running one).
  const all = (await readSeasons(request)).filter((season) => (DEMO_YEARS as readonly number[]).includes(season.year));
  const [, projected, shortHistory, compared, , oldest] = all;
  if (all.length !== 6 || !projected || !shortHistory || !compared || !oldest) throw new Error(`Expected the six demo seasons, got ${all.length}`);
  return { all, projected, shortHistory, compared, oldest };
}

export async function openReports(page: Page, query = ''): Promise<void> {
  await openSignedIn(page, `/reports${query}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible();
  await waitForReport(page);
}

/**
 * Opens the report of a past season (figures no other spec changes): `shortHistory` unless told otherwise, or
 * `projected` for one with projections.
 */
export async function openPastReport(
  page: Page,
  query: { division?: 'AAA' | 'AA' | 'A'; season?: 'shortHistory' | 'projected' } = {},
): Promise<Season> {
  await signInByApi(page);
  const season = (await demoSeasons(page.request))[query.season ?? 'shortHistory'];
  await page.goto(`/reports?season=${season.id}${query.division ? `&division=${query.division}` : ''}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible();
  await waitForReport(page, { season: season.id, division: query.division ?? 'all' });
  return season;
}

/** The report region shows a settled answer (not the last report kept while the next one loads), for these parameters. */
export async function waitForReport(page: Page, expected: { season?: string; division?: string; compare?: boolean } = {}): Promise<void> {
  const region = page.getByTestId('season-report');
  await expect(region).toHaveAttribute('data-season', expected.season ?? /.+/);
  if (expected.division) await expect(region).toHaveAttribute('data-division', expected.division);
  if (expected.compare !== undefined) await expect(region).toHaveAttribute('data-compare', String(expected.compare));
  await expect(region).toHaveAttribute('aria-busy', 'false');
}

export const REPORT_CARD_IDS = {
  totalPlayers: 'report-total-players',
  completeProfiles: 'report-complete-profiles',
  incompleteProfiles: 'report-incomplete-profiles',
  totalDocuments: 'report-total-documents',
} as const;
export type ReportCardField = keyof typeof REPORT_CARD_IDS;

/** The four figures the summary cards show (the raw number is in data-value; the text is formatted). */
export async function readReportCards(page: Page): Promise<Record<ReportCardField, number>> {
  const read = async (field: ReportCardField) =>
    Number(await page.getByTestId(REPORT_CARD_IDS[field]).getByTestId('stat-value').getAttribute('data-value'));
  return {
    totalPlayers: await read('totalPlayers'),
    completeProfiles: await read('completeProfiles'),
    incompleteProfiles: await read('incompleteProfiles'),
    totalDocuments: await read('totalDocuments'),
  };
}

export const cardFigures = (report: TSeasonReport): Record<ReportCardField, number> => ({
  totalPlayers: report.summary.totalPlayers,
  completeProfiles: report.summary.completeProfiles,
  incompleteProfiles: report.summary.incompleteProfiles,
  totalDocuments: report.summary.totalDocuments,
});

/** What the Total Players card should say about growth for a report, word for word. */
export function expectedGrowthText(report: TSeasonReport): string {
  const growth = report.summary.growth;
  if (growth === null) return `Registered in ${report.season.name}`;
  if (growth.previousSeason === null) return 'No previous season';
  if (growth.totalPlayers === null) return `No players in ${growth.previousSeason.name} to compare`;
  return `${growth.totalPlayers > 0 ? '+' : ''}${growth.totalPlayers}% vs ${growth.previousSeason.name}`;
}

/** The page is no wider than the screen: nothing scrolls it sideways. */
export const pageOverflow = (page: Page): Promise<number> => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
