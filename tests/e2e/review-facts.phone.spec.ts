import { test } from '@playwright/test';
import { reviewRecordsFacts } from './review-facts-support';

test.describe('a review records the facts the requirement rules need, on a phone (390 px)', () => {
  test('a birth certificate with another date (confirmed), a medical form with its exam date, a rejection with a reason from the list', async ({ page, baseURL }) => {
    await reviewRecordsFacts(page, baseURL ?? '', 'phone');
  });
});
