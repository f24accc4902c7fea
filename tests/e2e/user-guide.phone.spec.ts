import { expect, test } from '@playwright/test';
import { pageOverflow } from './settings-support';
import { signInByApi } from './support';

test.describe('User Guide on a phone (390 px)', () => {
  test('every step fits the width, and the controls are on screen', async ({ page }) => {
    await signInByApi(page);
    for (let step = 1; step <= 12; step++) {
      await page.goto(`/user-guide?step=${step}`);
      await expect(page.getByTestId('guide-counter')).toHaveText(`${step} of 12`);
      expect(await pageOverflow(page), `step ${step}`).toBeLessThanOrEqual(0);
    }
    for (const name of ['Previous', 'Next']) {
      const box = await page.getByRole('button', { name }).boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
    }
  });
});
