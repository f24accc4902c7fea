import { expect, test } from '@playwright/test';
import { signIn, signInAndWaitForShell } from './support';

test.describe('access gate', () => {
  test('refuses a wrong password, then lets the right one in', async ({ page }) => {
    await signIn(page, 'definitely-not-it');
    await expect(page.getByRole('alert')).toHaveText('Invalid password. Please try again.');
    await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);

    await page.getByPlaceholder('Enter system password').fill('e2e-shared-password');
    await page.getByRole('button', { name: 'Access System' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  });

  test('never checks the password in the browser or keeps it in storage', async ({ page }) => {
    const loginBodies: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/auth/login')) loginBodies.push(request.postData() ?? '');
    });
    await signInAndWaitForShell(page);
    expect(loginBodies).toEqual([JSON.stringify({ password: 'e2e-shared-password' })]);
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
    expect(stored).not.toContain('e2e-shared-password');
    const cookies = await page.context().cookies();
    const session = cookies.find((c) => c.name === 'cb_session');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    expect(await page.evaluate(() => document.cookie)).not.toContain('cb_session');
  });

  test('keeps the session across a reload and ends it on logout', async ({ page }) => {
    await signInAndWaitForShell(page);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();

    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page.getByRole('heading', { name: 'Access System' })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Access System' })).toBeVisible();
    const status = await page.evaluate(async () => (await fetch('/api/health')).status);
    expect(status).toBe(401);
  });
});
