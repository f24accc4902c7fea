import { createHmac } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { buildMultipart, makePdf } from '../support/multipart';
import { E2E_WEBHOOK_SECRET, signInAndWaitForShell } from './support';

test('a form submission shows a New Document Uploaded toast on the open dashboard', async ({ page, baseURL }) => {
  await signInAndWaitForShell(page);
  await expect(page.getByTestId('live-indicator')).toHaveAttribute('data-state', 'connected');

  const { body, contentType } = buildMultipart([
    { name: 'submissionId', value: `e2e-${Date.now()}` },
    { name: 'season', value: '2025' },
    { name: 'division', value: 'AAA' },
    { name: 'playerFirstName', value: 'Katherine' },
    { name: 'playerLastName', value: 'Johnson' },
    { name: 'playerBirthDate', value: '2014-08-26' },
    { name: 'birth_certificate', filename: 'birth certificate.pdf', content: makePdf(`e2e ${Date.now()}`) },
  ]);
  const signature = `sha256=${createHmac('sha256', E2E_WEBHOOK_SECRET).update(body).digest('hex')}`;
  const response = await fetch(`${baseURL}/api/intake/form`, {
    method: 'POST',
    body: new Uint8Array(body),
    headers: { 'content-type': contentType, 'x-clearbase-signature': signature },
  });
  expect(response.status).toBe(202);

  const toast = page.getByRole('status').filter({ hasText: 'New Document Uploaded' });
  await expect(toast).toBeVisible();
  await expect(toast).toContainText('Katherine Johnson');
  await expect(toast).toContainText('Birth Certificate');
  await page.screenshot({ path: test.info().outputPath('toast.png') });
});
