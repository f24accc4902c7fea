import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { ZDocumentList, ZMissingReport } from '../../src/contract';
import { LAST_NAMES } from '../../src/server/demo/name-pools';
import { foldForSearch } from '../../src/web/lib/search-text';
import { documentRow, listSettled, openDocuments } from './documents-helpers';
import { openPlayers, playerRows, waitForPlayers } from './players-support';

/**
 * Helpers for search-accents.spec.ts and its phone twin: a demo player whose name has accents (the demo's
 * name pools have Martínez, Müller, Côté…), found through the API, then typed without them into a search box.
 */

/** The demo's last names that carry an accent. */
const ACCENTED_LAST_NAMES = LAST_NAMES.filter((name) => foldForSearch(name) !== name.toLowerCase());

/** What a person types for `name`: lowercase, no accents ("Zoë Martínez" → "zoe martinez"). */
export const typedWithoutAccents = (name: string): string => foldForSearch(name);

/** A current-season demo player with an accented last name: its id, first and last name. */
export async function accentedPlayer(request: APIRequestContext): Promise<{ id: string; firstName: string; lastName: string }> {
  for (const lastName of ACCENTED_LAST_NAMES) {
    const response = await request.get(`/api/report/missing?search=${encodeURIComponent(lastName)}&pageSize=100`);
    expect(response.ok(), await response.text()).toBe(true);
    const row = ZMissingReport.parse(await response.json()).players.find((player) => player.lastName === lastName);
    if (row) return { id: row.playerId, firstName: row.firstName, lastName: row.lastName };
  }
  throw new Error(`No current-season demo player named ${ACCENTED_LAST_NAMES.join(', ')}`);
}

/** A demo document of a player with an accented last name: its id and the player's name as listed. */
export async function documentOfAccentedPlayer(request: APIRequestContext): Promise<{ id: string; playerName: string }> {
  for (const lastName of ACCENTED_LAST_NAMES) {
    const response = await request.get(`/api/documents?search=${encodeURIComponent(lastName)}&pageSize=100`);
    expect(response.ok(), await response.text()).toBe(true);
    const row = ZDocumentList.parse(await response.json()).documents.find((document) => document.playerName.endsWith(` ${lastName}`));
    if (row) return { id: row.id, playerName: row.playerName };
  }
  throw new Error(`No demo document of a player named ${ACCENTED_LAST_NAMES.join(', ')}`);
}

/**
 * Players: types the player's name without accents into the search and waits for the answer; the row of the
 * accented player is among the results, with its name as written. Returns that row.
 */
export async function findPlayerTypedWithoutAccents(page: Page, player: { id: string; firstName: string; lastName: string }) {
  await openPlayers(page);
  const typed = typedWithoutAccents(`${player.firstName} ${player.lastName}`);
  expect(typed).not.toBe(`${player.firstName} ${player.lastName}`.toLowerCase());
  // On a phone the filters, the search among them, are folded behind one button.
  const filters = page.getByTestId('player-filters-toggle');
  if (await filters.isVisible()) await filters.click();
  await page.getByRole('searchbox', { name: 'Search' }).fill(typed);
  await expect.poll(() => new URL(page.url()).searchParams.get('search')).toBe(typed);
  await waitForPlayers(page);
  const row = playerRows(page).filter({ has: page.getByTestId('player-id').getByText(player.id, { exact: true }) });
  await expect(row.getByTestId('player-name')).toHaveText(`${player.lastName}, ${player.firstName}`);
  // Every row found is that name, whatever its accents.
  for (const name of await playerRows(page).getByTestId('player-name').allTextContents()) {
    const [last = '', first = ''] = name.split(', ');
    expect(typedWithoutAccents(`${first} ${last}`)).toContain(typed);
  }
  return row;
}

/** Documents: types the player's name without accents into the search; the accented player's document is listed. */
export async function findDocumentTypedWithoutAccents(page: Page, document: { id: string; playerName: string }): Promise<void> {
  await openDocuments(page);
  const typed = typedWithoutAccents(document.playerName);
  expect(typed).not.toBe(document.playerName.toLowerCase());
  await page.getByRole('searchbox', { name: 'Search' }).fill(typed);
  await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe(typed);
  await listSettled(page);
  await expect(documentRow(page, document.id).getByTestId('document-player')).toContainText(document.playerName);
  for (const name of await page.getByTestId('document-row').getByTestId('document-player').allTextContents()) {
    expect(typedWithoutAccents(name)).toContain(typed);
  }
}
