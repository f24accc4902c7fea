import { expect, test } from '@playwright/test';
import { signInByApi } from './support';
import { accentedPlayer, documentOfAccentedPlayer, findDocumentTypedWithoutAccents, findPlayerTypedWithoutAccents } from './search-accents-support';

/** Searches ignore accents (390 px): a demo name typed without its accents finds the accented player and documents. */

test.describe('search without accents on a phone', () => {
  test('Players: typing the name without accents finds the accented demo player', async ({ page }) => {
    await signInByApi(page);
    const player = await accentedPlayer(page.request);
    const row = await findPlayerTypedWithoutAccents(page, player);
    await expect(row).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('players-search-accents-phone.png') });
  });

  test('Documents: typing the player name without accents finds the accented player’s documents', async ({ page }) => {
    await signInByApi(page);
    await findDocumentTypedWithoutAccents(page, await documentOfAccentedPlayer(page.request));
  });
});
