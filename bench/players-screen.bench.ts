import type { Page } from 'playwright-core';
import { launchChromium } from '../scripts/screenshot-support';

/**
 * The Players screen in a real Chromium against a server holding the scale data, to show the screen stays
 * responsive at that size: from navigation to the first rows on screen, then a page change, a filter
 * change and a search, each until the table shows the new rows. Times in ms, the median of `rounds`.
 */
export interface PlayersScreenTimings {
  firstRowsMs: number;
  nextPageMs: number;
  statusFilterMs: number;
  searchMs: number;
  rounds: number;
}

/** What 'responsive' means here: every interaction shows its rows within this many ms. */
export const PLAYERS_SCREEN_LIMIT_MS = 1_000;


export async function measurePlayersScreen(baseUrl: string, sessionCookie: string, rounds = 5): Promise<PlayersScreenTimings> {
  const [name, value] = splitCookie(sessionCookie);
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addCookies([{ name, value, url: baseUrl }]);
    const page = await context.newPage();
    const samples: Array<Omit<PlayersScreenTimings, 'rounds'>> = [];
    // Round 0 warms the browser's cache of the app's chunks, as a second visit would have it.
    for (let round = 0; round <= rounds; round++) {
      let started = performance.now();
      await page.goto(`${baseUrl}/players`, { waitUntil: 'commit' });
      const firstName = await firstRowName(page);
      const firstRowsMs = performance.now() - started;

      started = performance.now();
      await page.getByRole('button', { name: 'Page 2' }).first().click();
      await rowsChangeFrom(page, firstName);
      const nextPageMs = performance.now() - started;

      const beforeFilter = await firstRowName(page);
      started = performance.now();
      await page.goto(`${baseUrl}/players?status=complete`, { waitUntil: 'commit' });
      await rowsChangeFrom(page, beforeFilter);
      const statusFilterMs = performance.now() - started;

      const beforeSearch = await firstRowName(page);
      started = performance.now();
      await page.getByPlaceholder('Name, player ID or guardian').fill('Hopper');
      await rowsChangeFrom(page, beforeSearch);
      const searchMs = performance.now() - started;

      if (round > 0) samples.push({ firstRowsMs, nextPageMs, statusFilterMs, searchMs });
    }
    const median = (pick: (s: (typeof samples)[number]) => number) => {
      const sorted = samples.map(pick).sort((a, b) => a - b);
      return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
    };
    return {
      firstRowsMs: median((s) => s.firstRowsMs),
      nextPageMs: median((s) => s.nextPageMs),
      statusFilterMs: median((s) => s.statusFilterMs),
      searchMs: median((s) => s.searchMs),
      rounds,
    };
  } finally {
    await browser.close();
  }
}

export function formatPlayersScreen(t: PlayersScreenTimings): string {
  const row = (label: string, ms: number) =>
    `  ${label.padEnd(34)} ${ms.toFixed(0).padStart(6)} ms  ${ms <= PLAYERS_SCREEN_LIMIT_MS ? 'ok' : `OVER ${PLAYERS_SCREEN_LIMIT_MS} ms`}\n`;
  return (
    `Players screen in Chromium (median of ${t.rounds}; until the table shows the rows):\n` +
    row('open /players → first rows', t.firstRowsMs) +
    row('Page 2 → its rows', t.nextPageMs) +
    row('status Complete → its rows', t.statusFilterMs) +
    row('search typed → its rows (debounce incl.)', t.searchMs)
  );
}

/** The first row's player id (names repeat at this scale; ids do not). */
async function firstRowName(page: Page): Promise<string> {
  const name = page.getByTestId('player-row').first().getByTestId('player-id');
  await name.waitFor({ state: 'visible', timeout: 30_000 });
  return (await name.textContent()) ?? '';
}

/** Until the first row's player id differs from `before` (the new rows are on screen). */
async function rowsChangeFrom(page: Page, before: string): Promise<void> {
  // Runs in the page (the CSP forbids evaluating a string); this file is compiled without the DOM's types.
  type PageGlobal = { document: { querySelector(selector: string): { textContent: string | null } | null } };
  await page.waitForFunction(
    (previous) => {
      const first = (globalThis as unknown as PageGlobal).document.querySelector('[data-testid="player-row"] [data-testid="player-id"]');
      return first !== null && first.textContent !== previous;
    },
    before,
    { timeout: 30_000, polling: 'raf' },
  );
}

function splitCookie(cookie: string): [string, string] {
  const at = cookie.indexOf('=');
  if (at <= 0) throw new Error('the session cookie is not name=value');
  return [cookie.slice(0, at), cookie.slice(at + 1)];
}
