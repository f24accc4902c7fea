import { expect, type Locator, type Page } from '@playwright/test';
import { openSignedIn } from './support';

/**
 * Helpers for the Players specs (players.spec.ts, players.phone.spec.ts, accessibility.spec.ts). They run
 * against the shared e2e server and its demo data: counts are read from the screen, never assumed.
 */

export async function openPlayers(page: Page, query = ''): Promise<void> {
  await openSignedIn(page, `/players${query}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Players' })).toBeVisible();
  await waitForPlayers(page);
}

/** The table shows the answer to the current filters (not the previous page kept while the next loads). */
export async function waitForPlayers(page: Page, scope: Page | Locator = page): Promise<void> {
  await expect(scope.getByTestId('player-results')).toHaveAttribute('aria-busy', 'false');
}

/** The players listed: table rows at 1280 px, cards on a phone. */
export const playerRows = (scope: Page | Locator): Locator => scope.locator('[data-testid="player-row"], [data-testid="player-card"]');

/** Picks an option of a labelled select: the browser's own (the player filters) or a Radix one. */
export async function choose(page: Page, scope: Page | Locator, label: string, option: string): Promise<void> {
  const select = scope.getByRole('combobox', { name: label });
  if ((await select.evaluate((el) => el.tagName)) === 'SELECT') {
    await select.selectOption({ label: option });
    return;
  }
  await select.click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** The label of the option a browser's own select shows. */
export const selectedLabel = (select: Locator): Promise<string> =>
  select.evaluate((el) => (el instanceof HTMLSelectElement ? (el.selectedOptions[0]?.textContent ?? '') : ''));

/** Every row's name, id, division and completion, as the table shows them. */
export async function readRows(scope: Page | Locator): Promise<Array<{ name: string; id: string; division: string; completion: number }>> {
  return playerRows(scope).evaluateAll((rows) =>
    rows.map((row) => ({
      name: row.querySelector('[data-testid="player-name"]')?.textContent ?? '',
      id: row.querySelector('[data-testid="player-id"]')?.textContent ?? '',
      division: row.querySelectorAll('td')[1]?.textContent ?? '',
      completion: Number(row.querySelector('[role="progressbar"]')?.getAttribute('aria-valuenow')),
    })),
  );
}

/** The number after 'of' in 'Showing 1–10 of 123': every row matching the filters. */
export async function matchingTotal(scope: Page | Locator): Promise<number> {
  const text = (await scope.getByTestId('player-range').textContent()) ?? '';
  const match = /of ([\d,]+)$/.exec(text.trim()) ?? /^([\d,]+) players$/.exec(text.trim());
  if (!match?.[1]) throw new Error(`No total in "${text}"`);
  return Number(match[1].replace(/,/g, ''));
}

/** A name no other run or spec will have used: letters only, as a person's name would be. */
export function uniqueSurname(prefix = 'Testa'): string {
  const letters = Date.now().toString(36) + Math.floor(Math.random() * 36 ** 3).toString(36);
  return prefix + [...letters].map((c) => (/[0-9]/.test(c) ? String.fromCharCode(97 + Number(c)) : c)).join('');
}

export { parseCsv } from '../support/csv';
