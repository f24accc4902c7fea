import { expect, test } from '@playwright/test';
import { SCREENS, signInAndWaitForShell } from './support';

test.describe('app shell', () => {
  test.beforeEach(async ({ page }) => {
    await signInAndWaitForShell(page);
  });

  test('reaches every screen from the sidebar, with its heading and breadcrumbs', async ({ page }) => {
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const screen of SCREENS.filter((s) => s.nav !== null)) {
      await nav.getByRole('link', { name: screen.nav ?? '' }).click();
      await expect(page).toHaveURL(screen.path);
      await expect(page.getByRole('heading', { level: 1, name: screen.heading })).toBeVisible();
      await expect(nav.getByRole('link', { name: screen.nav ?? '' })).toHaveAttribute('aria-current', 'page');
      const crumbs = page.getByTestId('breadcrumbs');
      await expect(crumbs.getByRole('link').first()).toHaveAttribute('href', '/');
      if (screen.crumb) await expect(crumbs).toContainText(screen.crumb);
      await expect(page).toHaveTitle(new RegExp(`${screen.heading} · Clearbase`));
    }
  });

  test('opens Recent Uploads by address and shows the 404 page for an unknown one', async ({ page }) => {
    await page.goto('/uploads');
    await expect(page.getByRole('heading', { level: 1, name: 'Recent Uploads' })).toBeVisible();
    await expect(page.getByTestId('breadcrumbs')).toContainText('Recent Uploads');

    await page.goto('/no-such-screen');
    await expect(page.getByText('404 Page Not Found')).toBeVisible();
    await expect(page.getByTestId('breadcrumbs')).toContainText('No-such-screen');
    await page.getByRole('link', { name: /dashboard/i }).last().click();
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  });

  test('switches theme and keeps the choice under ui-theme', async ({ page }) => {
    const html = page.locator('html');
    await page.getByTestId('theme-menu-trigger').click();
    await page.getByRole('menuitemradio', { name: 'Dark' }).click();
    await expect(html).toHaveClass(/dark/);
    expect(await page.evaluate(() => localStorage.getItem('ui-theme'))).toBe('dark');

    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    await expect(html).toHaveClass(/dark/);

    await page.getByTestId('theme-menu-trigger').click();
    await page.getByRole('menuitemradio', { name: 'Light' }).click();
    await expect(html).not.toHaveClass(/dark/);
    expect(await page.evaluate(() => localStorage.getItem('ui-theme'))).toBe('light');
  });

  test('shows real system status from the server', async ({ page }) => {
    const status = page.getByTestId('system-status');
    await expect(status).toContainText('Database');
    await expect(status).toContainText('Operational');
    await expect(status).toContainText('Degraded');
    await expect(status).toContainText(/write and read OK/);
  });

  test('opens the live connection and receives its connected message', async ({ page }) => {
    await expect(page.getByTestId('live-indicator')).toHaveAttribute('data-state', 'connected');
  });

  test('collapses the sidebar to icons and remembers it', async ({ page }) => {
    const sidebar = page.getByTestId('sidebar');
    await page.getByRole('button', { name: 'Collapse sidebar' }).click();
    await expect(sidebar).toHaveAttribute('data-state', 'collapsed');
    await page.reload();
    await expect(page.getByTestId('sidebar')).toHaveAttribute('data-state', 'collapsed');
    await page.getByRole('button', { name: 'Expand sidebar' }).click();
    await expect(page.getByTestId('sidebar')).toHaveAttribute('data-state', 'expanded');
  });
});
