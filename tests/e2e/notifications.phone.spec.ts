import { expect, test, type Page } from '@playwright/test';
import { choose, openNotifications, toast, waitForTab } from './notifications-support';

/** The Notifications screen on a 390 px phone: every tab fits the width, the form and History stack. */

const pageOverflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

test.describe('Notifications on a phone (390 px)', () => {
  test('every tab fits the screen without sideways scrolling', async ({ page }) => {
    await openNotifications(page);
    expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
    for (const [tab, key] of [['Templates', 'templates'], ['History', 'history'], ['Settings', 'settings']] as const) {
      await page.getByRole('tab', { name: tab }).click();
      await waitForTab(page, key);
      expect(await pageOverflow(page), tab).toBeLessThanOrEqual(0);
    }
  });

  test('sends a custom message and shows it as a History card', async ({ page }) => {
    await openNotifications(page);
    const subject = `Phone notice ${Date.now()}`;
    await choose(page, 'Template', 'Custom Message');
    await page.getByLabel('Subject').fill(subject);
    await page.getByLabel('Message').fill('Hello from a phone.');
    await choose(page, 'Recipients', 'Custom List');
    await page.getByLabel('E-mail addresses').fill('phone@example.org');
    await expect(page.getByTestId('recipient-count')).toHaveText('1');
    await page.getByTestId('send-button').click();
    await expect(toast(page, 'Notifications Sent')).toContainText('1 message sent successfully.');
    await page.getByRole('tab', { name: 'History' }).click();
    const card = page.getByTestId('history-row').filter({ hasText: subject });
    await expect(card).toBeVisible();
    await expect(card).toContainText('Sent');
    expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
  });
});
