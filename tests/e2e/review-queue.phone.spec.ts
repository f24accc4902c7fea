import { test } from '@playwright/test';
import { clearQueueWithKeyboard, showsBirthDateMismatch } from './review-queue-support';

test.describe('the Review screen on a phone', () => {
  test('a reviewer clears four pending documents with the keyboard', async ({ page, baseURL }) => {
    test.setTimeout(180_000);
    await clearQueueWithKeyboard(page, baseURL ?? '', 'phone', 2043, 2);
  });

  test('a date of birth that differs from the registration is marked Differs', async ({ page, baseURL }) => {
    test.setTimeout(120_000);
    await showsBirthDateMismatch(page, baseURL ?? '', 'phone', 2044);
  });
});
