import { expect, test } from '@playwright/test';
import { openSettings, pageOverflow } from './settings-support';

test.describe('System Settings on a phone (390 px)', () => {
  test('every tab fits the width: the page never scrolls sideways', async ({ page }) => {
    await openSettings(page);
    await expect(page.getByTestId('settings-health').getByTestId('health-database')).toBeVisible();
    expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
    for (const [tab, ready] of [
      ['Integrations', 'storage-location'],
      ['Notifications', 'setting-realtimeUpdates'],
      ['Security', 'session-timeout-form'],
    ] as const) {
      await page.getByRole('tab', { name: tab }).click();
      await expect(page.getByTestId(ready)).toBeVisible();
      expect(await pageOverflow(page), tab).toBeLessThanOrEqual(0);
    }
  });
});
