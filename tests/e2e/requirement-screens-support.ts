import { createHmac, randomUUID } from 'node:crypto';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import {
  divisionAgesText,
  leagueAge,
  SEASON_KINDS,
  seasonIdFor,
  ZMissingReport,
  ZSeasonRequirements,
  ZSeasonResponse,
  ZSeasons,
  type TSeason,
} from '../../src/contract';
import { buildMultipart } from '../support/multipart';
import { makeOnePagePdf, newTestPlayer, waitForProcessed, type TestPlayer } from './documents-helpers';
import { playerRows, selectedLabel, waitForPlayers } from './players-support';
import { pageOverflow } from './settings-support';
import { E2E_WEBHOOK_SECRET, openSignedIn } from './support';

/**
 * The requirement screens on the shared e2e server: a player whose medical form runs out within 30 days and
 * whose league age is outside the division, seen on the Players screen, in the player's dialog and on the
 * dashboard. The demo's current season has ended (an ended season is judged on its last day, so nothing in it
 * is expiring), so each spec makes a running season of its own, through the API and not made current, with a
 * kind and year no other season has: the figures of the demo seasons every other spec reads stay as they were.
 */

const DAY_MS = 86_400_000;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
const isoDay = (time: number): string => new Date(time).toISOString().slice(0, 10);
/** '6 Dec 2026', as the screens write a day. */
const shortDay = (day: string): string => {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return `${date} ${MONTHS[month - 1] ?? ''} ${year}`;
};

export type ExpiringCase = {
  season: TSeason;
  player: TestPlayer;
  playerId: string;
  /** The player's league age in the season. */
  age: number;
  /** 'Age 12 · outside AA (ages 8–10)': the league-age badge's words. */
  flagText: string;
  /** 'Medical Form expires on 6 Dec 2026': what the player's dialog says. */
  expiringText: string;
};

/**
 * A season running today (started 30 days ago, ends in 90), of a kind and year no season has yet, offering AA;
 * not made current. Its year is one it runs in, as a season's must be.
 */
async function createRunningSeason(request: APIRequestContext): Promise<TSeason> {
  const taken = new Set(ZSeasons.parse(await (await request.get('/api/seasons')).json()).seasons.map((season) => season.id));
  const now = Date.now();
  const startsOn = isoDay(now - 30 * DAY_MS);
  const endsOn = isoDay(now + 90 * DAY_MS);
  const years = [...new Set([Number(startsOn.slice(0, 4)), Number(endsOn.slice(0, 4))])];
  const free = years.flatMap((year) => SEASON_KINDS.map((kind) => ({ kind, year }))).find(({ kind, year }) => !taken.has(seasonIdFor(kind, year)));
  if (!free) throw new Error(`Every season kind of ${years.join(' and ')} is taken already`);
  const response = await request.post('/api/seasons', {
    data: { name: `${free.kind} ${free.year}`, kind: free.kind, year: free.year, startsOn, endsOn, registrationDeadline: isoDay(now + 30 * DAY_MS), divisions: ['AA'] },
  });
  expect(response.status(), await response.text()).toBe(201);
  const { season } = ZSeasonResponse.parse(await response.json());
  expect(season.isCurrent).toBe(false);
  return season;
}

/** Registers the player for the season with a medical form, through the signed form webhook as the form provider does. */
async function registerWithMedicalForm(baseURL: string, season: TSeason, player: TestPlayer, birthDate: string): Promise<void> {
  const { body, contentType } = buildMultipart([
    { name: 'submissionId', value: `e2e-requirement-screens-${randomUUID()}` },
    { name: 'season', value: season.id },
    { name: 'division', value: 'AA' },
    { name: 'playerFirstName', value: player.firstName },
    { name: 'playerLastName', value: player.lastName },
    { name: 'playerBirthDate', value: birthDate },
    { name: 'medical', filename: 'medical-form.pdf', content: makeOnePagePdf('Medical form') },
  ]);
  const signature = `sha256=${createHmac('sha256', E2E_WEBHOOK_SECRET).update(body).digest('hex')}`;
  const response = await fetch(`${baseURL}/api/intake/form`, {
    method: 'POST',
    body: new Uint8Array(body),
    headers: { 'content-type': contentType, 'x-clearbase-signature': signature },
  });
  expect(response.status, await response.text()).toBe(202);
}

/**
 * The whole case, through the API: the running season; a player registered in AA two years older than the
 * division's oldest; their medical form approved with an exam 12 months less 10 days ago, so it runs out in
 * about 10 days. Checks that the server lists exactly that player as expiring.
 */
export async function prepareExpiringPlayer(page: Page, baseURL: string): Promise<ExpiringCase> {
  const request = page.request;
  const season = await createRunningSeason(request);
  const requirements = ZSeasonRequirements.parse(await (await request.get(`/api/seasons/${season.id}/requirements`)).json());
  const ages = requirements.divisionAges.AA;
  const age = (ages?.max ?? 10) + 2;
  const birthDate = `${Number(requirements.ageDate.slice(0, 4)) - age}-01-15`;
  expect(leagueAge(birthDate, requirements.ageDate)).toBe(age);

  const player = newTestPlayer('Expiry');
  await registerWithMedicalForm(baseURL, season, player, birthDate);
  const [medical] = await waitForProcessed(request, player, 1);
  if (!medical) throw new Error('The medical form was not recorded');
  expect(medical.docType).toBe('medical');

  const today = new Date();
  const examDate = isoDay(Date.UTC(today.getUTCFullYear() - 1, today.getUTCMonth(), today.getUTCDate()) + 10 * DAY_MS);
  const approved = await request.patch(`/api/documents/${medical.id}/status`, { data: { status: 'verified', documentDate: examDate } });
  expect(approved.ok(), await approved.text()).toBe(true);

  const listed = await request.get(`/api/report/missing?season=${season.id}&status=expiring&pageSize=100`);
  expect(listed.ok(), await listed.text()).toBe(true);
  const { players } = ZMissingReport.parse(await listed.json());
  expect(players.map((row) => row.lastName)).toEqual([player.lastName]);
  const [row] = players;
  if (!row?.expiresOn) throw new Error('The expiring player has no expiry day');
  // Within the next 30 days, about 10 days from now.
  expect(row.expiresOn > isoDay(today.getTime())).toBe(true);
  expect(row.expiresOn <= isoDay(today.getTime() + 30 * DAY_MS)).toBe(true);
  expect(row.leagueAge).toBe(age);
  expect(row.ageFitsDivision).toBe(false);
  return {
    season,
    player,
    playerId: row.playerId,
    age,
    flagText: `Age ${age} · outside AA (${divisionAgesText(ages)})`,
    expiringText: `Medical Form expires on ${shortDay(row.expiresOn)}`,
  };
}

/**
 * /players?season=…&status=expiring: the filter shows 'Expiring within 30 days', exactly the case's player is
 * listed, with the league-age badge; the player's dialog gives the league age and when the medical form expires.
 * `screenshot` is where the list's picture goes; on a phone nothing is wider than the screen.
 */
export async function checkPlayersScreen(page: Page, expiring: ExpiringCase, screenshot: string, phone: boolean): Promise<void> {
  await openSignedIn(page, `/players?season=${expiring.season.id}&status=expiring`);
  await expect(page.getByRole('heading', { level: 1, name: 'Players' })).toBeVisible();
  await waitForPlayers(page);
  // A phone folds the filters behind one button.
  const toggle = page.getByTestId('player-filters-toggle');
  if (phone) await toggle.click();
  const filters = page.getByRole('search', { name: 'Player filters' });
  expect(await selectedLabel(filters.getByRole('combobox', { name: 'Status' }))).toBe('Expiring within 30 days');
  if (phone) await toggle.click();
  await expect(playerRows(page)).toHaveCount(1);
  const row = playerRows(page).first();
  await expect(row).toHaveAttribute('data-player-id', expiring.playerId);
  await expect(row.getByTestId('player-name')).toHaveText(`${expiring.player.lastName}, ${expiring.player.firstName}`);
  const flag = row.getByTestId('league-age-flag');
  // A phone's card says it in words; the table's narrow column shows the sign and the age, the words as its name.
  await expect(flag).toHaveText(phone ? expiring.flagText : String(expiring.age));
  await expect(flag).toHaveAccessibleName(/^League age \d+ is outside AA, which takes ages/);
  if (phone) {
    expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
  } else {
    // The table fits 1280 px with the League age column.
    const scroller = page.getByTestId('player-table').locator('xpath=..');
    expect(await scroller.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(0);
  }
  await page.screenshot({ path: screenshot, fullPage: true });

  await row.getByTestId('player-name').click();
  const dialog = page.getByTestId('player-detail-dialog');
  await expect(dialog.getByTestId('player-detail-id')).toHaveText(expiring.playerId);
  await expect(dialog.getByTestId('league-age-flag')).toHaveText(expiring.flagText);
  await expect(dialog.getByTestId('player-expiring')).toHaveText(expiring.expiringText);
  if (phone) {
    expect(await dialog.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(0);
    expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
  }
  await page.screenshot({ path: screenshot.replace('.png', '-dialog.png') });
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
}

/**
 * The dashboard, its season picked in the Season select: 'Expiring within 30 days' counts the one player, and
 * following the card opens the Players screen filtered to them.
 */
export async function checkDashboard(page: Page, expiring: ExpiringCase, screenshot: string, phone: boolean): Promise<void> {
  await openSignedIn(page, '/');
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await page.getByTestId('season-select').click();
  await page.getByRole('option', { name: expiring.season.name, exact: true }).click();
  await expect(page.getByTestId('season-badge')).toHaveText(expiring.season.name);
  const card = page.getByTestId('stat-expiring-soon');
  await expect(card).toContainText('Expiring within 30 days');
  await expect(card.getByTestId('stat-value')).toHaveAttribute('data-value', '1');
  await expect(page.getByTestId('stat-total-players').getByTestId('stat-value')).toHaveAttribute('data-value', '1');
  if (phone) expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
  await page.screenshot({ path: screenshot });

  await card.click();
  await expect(page).toHaveURL(new RegExp(`/players\\?(?=.*status=expiring)(?=.*season=${expiring.season.id})`));
  await expect(page.getByRole('heading', { level: 1, name: 'Players' })).toBeVisible();
  await waitForPlayers(page);
  await expect(playerRows(page)).toHaveCount(1);
  await expect(playerRows(page).first()).toHaveAttribute('data-player-id', expiring.playerId);
}
