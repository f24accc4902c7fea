import { expect, test } from '@playwright/test';
import { pageOverflow } from './settings-support';
import { signInByApi } from './support';

test.describe('App Workflow on a phone (390 px)', () => {
  test('the long paths wrap: the page never scrolls sideways', async ({ page }) => {
    await signInByApi(page);
    await page.goto('/backend-workflow');
    await expect(page.getByTestId('workflow-example-path')).toBeVisible();
    expect(await pageOverflow(page)).toBeLessThanOrEqual(0);
  });
});
