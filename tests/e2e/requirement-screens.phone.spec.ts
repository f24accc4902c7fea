import { test } from '@playwright/test';
import { checkDashboard, checkPlayersScreen, prepareExpiringPlayer, type ExpiringCase } from './requirement-screens-support';
import { signInByApi } from './support';

/**
 * The same on a phone (390 px): the expiring player's card with its league-age warning, the dialog and the
 * dashboard's card, nothing wider than the screen. A running season of this spec's own, as on a computer.
 */
let expiring: ExpiringCase | undefined;

test.beforeEach(async ({ page, baseURL }) => {
  await signInByApi(page);
  expiring ??= await prepareExpiringPlayer(page, baseURL ?? '');
});

test('on a phone the expiring player’s card shows the league-age warning and the dialog when the medical form expires, within 390 px', async ({ page }) => {
  if (!expiring) throw new Error('the expiring player was not prepared');
  await checkPlayersScreen(page, expiring, 'tmp/requirement-screens-players-390.png', true);
});

test('on a phone the dashboard’s Expiring within 30 days card counts the player and opens the filtered Players screen, within 390 px', async ({ page }) => {
  if (!expiring) throw new Error('the expiring player was not prepared');
  await checkDashboard(page, expiring, 'tmp/requirement-screens-dashboard-390.png', true);
});
