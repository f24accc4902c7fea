import { randomUUID } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { startScanFailedServer, type ScanFailedServer } from './scan-failed-support';

/**
 * A document whose virus scan could not be made (clamd down) on the Documents screen: its state, the dashboard's
 * count, and the Retry button, against a server of its own with a real clamd (tests/e2e/scan-failed-support.ts).
 */
let server: ScanFailedServer | undefined;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = await startScanFailedServer();
});
test.afterAll(async () => {
  await server?.stop();
});

function own(): ScanFailedServer {
  if (!server) throw new Error('the failed-scan server did not start');
  return server;
}

async function signIn(page: Page): Promise<void> {
  await page.goto(`${own().url}/`);
  await page.getByPlaceholder('Enter system password').fill(own().password);
  await page.getByRole('button', { name: 'Access System' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
}

const row = (page: Page, fileName: string) => page.getByTestId('document-row').filter({ hasText: fileName });

test('a document whose scan failed says so, the dashboard counts it, and Retry scans it once clamd is back', async ({ page }) => {
  test.setTimeout(90_000);
  const lastName = `Scanfail${randomUUID().replace(/[^a-f]/g, '').slice(0, 6)}`;
  const fileName = `medical-${lastName}.pdf`;
  await own().submit({ firstName: 'Ada', lastName }, [{ docType: 'medical', fileName }]);
  await own().waitForScanFailed(lastName, 1);

  await signIn(page);
  await expect(page.getByTestId('system-status')).toContainText('1 document waits for a virus scan that failed; it is retried automatically');

  await page.goto(`${own().url}/documents?q=${lastName}`);
  await expect(row(page, fileName)).toHaveCount(1);
  await expect(row(page, fileName).locator('[data-status="scan_failed"]')).toHaveText('Scan failed, will retry');
  // No review while the file is unscanned: Retry is the row's action.
  await expect(row(page, fileName).getByRole('button', { name: /^Approve/ })).toHaveCount(0);
  const retry = page.getByRole('button', { name: `Retry the virus scan of ${fileName}` });
  await expect(retry).toBeVisible();

  // The Scan Failed filter finds it.
  await page.goto(`${own().url}/documents?status=scan_failed`);
  await expect(page.getByRole('combobox', { name: 'Status' })).toHaveText('Scan Failed');
  await expect(row(page, fileName)).toHaveCount(1);
  await expect(page.getByTestId('document-row').locator('[data-status]').filter({ hasNotText: 'Scan failed, will retry' })).toHaveCount(0);

  // Retry while clamd is still down: queued at once (a toast says so), fails again, and the row still says so.
  await page.goto(`${own().url}/documents?q=${lastName}`);
  await retry.click();
  await expect(page.getByRole('status').filter({ hasText: 'Scan Queued' })).toContainText(`The virus scan of ${fileName} will run again now.`);
  await expect(retry).toBeEnabled();
  await expect(row(page, fileName).locator('[data-status]')).toHaveText('Scan failed, will retry');

  // clamd is back; Retry from the keyboard, and the document is scanned and stored: it waits for review.
  await own().restartClamd();
  await retry.focus();
  await page.keyboard.press('Enter');
  await expect(row(page, fileName).locator('[data-status]')).toHaveText('Under Review', { timeout: 20_000 });
  await expect(retry).toHaveCount(0);
});

test('at 390 px the failed scan and its Retry button fit the card, and Retry scans it once clamd is back', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await own().stopClamd();
  const lastName = `Scanphone${randomUUID().replace(/[^a-f]/g, '').slice(0, 6)}`;
  const fileName = `waiver-${lastName}.pdf`;
  await own().submit({ firstName: 'Ben', lastName }, [{ docType: 'waiver', fileName }]);
  await own().waitForScanFailed(lastName, 1);

  await signIn(page);
  await page.goto(`${own().url}/documents?q=${lastName}`);
  await expect(row(page, fileName).locator('[data-status="scan_failed"]')).toHaveText('Scan failed, will retry');
  const retry = page.getByRole('button', { name: `Retry the virus scan of ${fileName}` });
  // Below the filters on a phone: scrolled to, it is whole on screen.
  await retry.scrollIntoViewIfNeeded();
  await expect(retry).toBeInViewport({ ratio: 1 });
  const box = await retry.boundingBox();
  expect(box && box.x + box.width).toBeLessThanOrEqual(390);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);

  await own().restartClamd();
  await retry.click();
  await expect(row(page, fileName).locator('[data-status]')).toHaveText('Under Review', { timeout: 20_000 });
});
