import { expect, test } from '@playwright/test';
import { signInAndWaitForShell } from './support';

test.describe('app shell on a phone (390 px)', () => {
  test('starts with the sidebar closed, opens it from the menu button and closes it on navigation', async ({ page }) => {
    await signInAndWaitForShell(page);
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav).toBeHidden();

    await page.getByRole('button', { name: 'Open navigation' }).click();
    await expect(nav).toBeVisible();
    await nav.getByRole('link', { name: 'Players' }).click();
    await expect(page).toHaveURL('/players');
    await expect(page.getByRole('heading', { level: 1, name: 'Players' })).toBeVisible();
    await expect(nav).toBeHidden();
  });

  test('fits the screen without sideways scrolling', async ({ page }) => {
    await page.goto('/');
    const gateOverflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(gateOverflow).toBeLessThanOrEqual(0);
    await signInAndWaitForShell(page);
    const shellOverflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(shellOverflow).toBeLessThanOrEqual(0);
  });
});
