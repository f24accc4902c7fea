import { test } from '@playwright/test';
import { clearQueueWithKeyboard, showsBirthDateMismatch } from './review-queue-support';

test.describe('the Review screen', () => {
  test('a reviewer clears ten pending documents with the keyboard alone, the approval step filled in from each document', async ({ page, baseURL }) => {
    test.setTimeout(300_000);
    await clearQueueWithKeyboard(page, baseURL ?? '', 'desktop', 2041, 5);
  });

  test('a date of birth that differs from the registration is marked Differs, in words', async ({ page, baseURL }) => {
    test.setTimeout(120_000);
    await showsBirthDateMismatch(page, baseURL ?? '', 'desktop', 2042);
  });
});
