import { test } from '@playwright/test';
import { checkDashboard, checkPlayersScreen, prepareExpiringPlayer, type ExpiringCase } from './requirement-screens-support';
import { signInByApi } from './support';

/**
 * A medical form running out within 30 days and a league age outside the division, on a computer: the Players
 * screen's 'Expiring within 30 days' filter, the player's dialog and the dashboard's card, for a running season
 * of this spec's own (see requirement-screens-support.ts).
 */
let expiring: ExpiringCase | undefined;

test.beforeEach(async ({ page, baseURL }) => {
  await signInByApi(page);
  expiring ??= await prepareExpiringPlayer(page, baseURL ?? '');
});

test('the Players screen lists the player whose medical form runs out soon, with the league-age warning; the dialog says when it expires', async ({ page }) => {
  if (!expiring) throw new Error('the expiring player was not prepared');
  await checkPlayersScreen(page, expiring, 'tmp/requirement-screens-players-1280.png', false);
});

test('the dashboard counts the player in Expiring within 30 days, and the card opens the Players screen filtered to them', async ({ page }) => {
  if (!expiring) throw new Error('the expiring player was not prepared');
  await checkDashboard(page, expiring, 'tmp/requirement-screens-dashboard-1280.png', false);
});
