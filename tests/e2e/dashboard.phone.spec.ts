import { expect, test, type Locator, type Page } from '@playwright/test';
import { openDetails, settledStats, statCard } from './dashboard-support';
import { signInAndWaitForShell } from './support';

/** The dashboard on a 390 px phone: nothing sideways, cards two by two, controls wrap, the modal fits. */

const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  if (!found) throw new Error('not on screen');
  return found;
}

test.describe('dashboard on a phone (390 px)', () => {
  // Each test signs in and reads the server several times; the shared machine is sometimes busy.
  test.describe.configure({ timeout: 60_000 });

  test.beforeEach(async ({ page }) => {
    await signInAndWaitForShell(page);
  });

  test('fits the screen: no sideways scrolling, header controls inside the width, cards two per row', async ({ page }) => {
    await settledStats(page);
    await expect(page.getByTestId('processing-card').getByTestId('processing-state')).toBeVisible();
    expect(await overflow(page)).toBeLessThanOrEqual(0);

    const width = page.viewportSize()?.width ?? 390;
    for (const control of [
      page.getByRole('combobox', { name: 'Season' }),
      page.getByPlaceholder('Search players, documents...'),
      page.getByRole('button', { name: 'Refresh dashboard' }),
      page.getByRole('link', { name: 'System settings', exact: true }),
      page.getByTestId('notifications-button'),
    ]) {
      const { x, width: w } = await box(control);
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x + w).toBeLessThanOrEqual(width);
    }

    const first = await box(statCard(page, 'totalPlayers'));
    const second = await box(statCard(page, 'documentsUploaded'));
    const third = await box(statCard(page, 'pendingReview'));
    expect(second.y).toBe(first.y);
    expect(third.y).toBeGreaterThan(first.y);
  });

  test('a detail modal fits the screen, and its tabs and list work', async ({ page }) => {
    const dialog = await openDetails(page, 'pendingReview');
    const width = page.viewportSize()?.width ?? 390;
    const { x, width: w } = await box(dialog);
    expect(x).toBeGreaterThanOrEqual(0);
    expect(x + w).toBeLessThanOrEqual(width);
    const scrollsSideways = await dialog.evaluate((node) => node.scrollWidth > node.clientWidth);
    expect(scrollsSideways).toBe(false);

    await dialog.getByRole('tab', { name: 'Details' }).click();
    await dialog.getByRole('button', { name: 'Expand Under Review' }).click();
    await expect(dialog.getByRole('button', { name: 'Collapse Under Review' })).toHaveAttribute('aria-expanded', 'true');
    await expect(dialog.locator('[data-item-id="under-review-waiver"]')).toContainText('Liability Waiver');
    await dialog.getByRole('tab', { name: 'Analytics' }).click();
    await expect(dialog.getByTestId('completion-trend')).toBeVisible();
    expect(await overflow(page)).toBeLessThanOrEqual(0);
  });
});
