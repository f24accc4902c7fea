import { expect, test, type Page } from '@playwright/test';
import { signInByApi } from './support';

async function openGuide(page: Page): Promise<void> {
  await signInByApi(page);
  await page.goto('/user-guide');
  await expect(page.getByRole('heading', { level: 1, name: 'User Guide' })).toBeVisible();
}

const counter = (page: Page) => page.getByTestId('guide-counter');
const badge = (page: Page) => page.getByTestId('guide-audience');
const stepTitle = (page: Page) => page.getByTestId('guide-step').getByRole('heading', { level: 2 });

test.describe('User Guide', () => {
  test('walks forward and back without wrapping: Previous off on 1, Next off on 12, Admin Guide on 11 and 12', async ({ page }) => {
    await openGuide(page);
    const previous = page.getByRole('button', { name: 'Previous' });
    const next = page.getByRole('button', { name: 'Next' });
    await expect(counter(page)).toHaveText('1 of 12');
    await expect(stepTitle(page)).toHaveText('Signing in');
    await expect(badge(page)).toHaveText('User Guide');
    await expect(previous).toBeDisabled();

    for (let step = 2; step <= 12; step++) {
      await next.click();
      await expect(counter(page)).toHaveText(`${step} of 12`);
      await expect(badge(page)).toHaveText(step >= 11 ? 'Admin Guide' : 'User Guide');
    }
    await expect(stepTitle(page)).toHaveText('Admin: User Management');
    await expect(next).toBeDisabled();
    await expect(previous).toBeFocused();

    await previous.click();
    await expect(counter(page)).toHaveText('11 of 12');
    await expect(stepTitle(page)).toHaveText('Admin: System Settings');
  });

  test('jumps with the list and the dots, and keeps the step in the address', async ({ page }) => {
    await openGuide(page);
    await page.getByTestId('guide-jump').click();
    await page.getByRole('option', { name: '6. How growth projections are made' }).click();
    await expect(counter(page)).toHaveText('6 of 12');
    await expect(page.getByTestId('guide-step')).toContainText('three seasons on a perfect line give 60%');
    await expect(page).toHaveURL(/\/user-guide\?step=6$/);

    const dots = page.getByTestId('guide-dot');
    await expect(dots).toHaveCount(12);
    await expect(dots.nth(5)).toHaveAttribute('aria-current', 'step');
    await dots.nth(7).click();
    await expect(counter(page)).toHaveText('8 of 12');
    await expect(page.getByTestId('guide-email-format')).toContainText('Date of Birth: 12/10/2015');
    await page.reload();
    await expect(counter(page)).toHaveText('8 of 12');
  });

  test('moves with the left and right arrow keys, stopping at both ends', async ({ page }) => {
    await openGuide(page);
    await page.keyboard.press('ArrowLeft');
    await expect(counter(page)).toHaveText('1 of 12');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect(counter(page)).toHaveText('3 of 12');
    await page.keyboard.press('ArrowLeft');
    await expect(counter(page)).toHaveText('2 of 12');
    await page.goto('/user-guide?step=12');
    await page.keyboard.press('ArrowRight');
    await expect(counter(page)).toHaveText('12 of 12');
  });

  test('states this installation’s limits, and links to the dashboard', async ({ page }) => {
    await openGuide(page);
    await page.goto('/user-guide?step=9');
    await expect(page.getByTestId('guide-step')).toContainText('at most 20 MB each');
    await page.goto('/user-guide?step=10');
    await expect(page.getByTestId('guide-step')).toContainText('kept for 7 years');
    await page.getByRole('link', { name: 'Dashboard' }).first().click();
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  });

  test('Logout ends the session', async ({ page }) => {
    await openGuide(page);
    await page.getByTestId('guide-step').waitFor();
    await page.getByRole('main').getByRole('button', { name: 'Logout' }).click();
    await expect(page.getByRole('heading', { name: 'Access System' })).toBeVisible();
    expect((await page.request.get('/api/settings')).status()).toBe(401);
  });
});
