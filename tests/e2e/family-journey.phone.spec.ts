import { createHmac, randomUUID } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { buildMultipart } from '../support/multipart';
import { listDocuments, makePng, waitForProcessed, type TestPlayer } from './documents-helpers';
import { cameraPhoto } from './family-page-support';
import { waitForFamilyLink } from './outbox';
import { E2E_WEBHOOK_SECRET, signInAndWaitForShell } from './support';

/**
 * The whole round at 390 px, as a league lives it: staff reject a document with a reason and the guardian is
 * told by e-mail (caught by the e2e server's real SMTP receiver); the family opens the link from that e-mail on
 * a phone, reads the reason, photographs the document again and sends it; the staff dashboard, open all along,
 * hears of it live; the link then says the document is under review.
 */

const REASON = 'The photo is blurry or cut off. The birth date cannot be read';

test('a rejected document comes back through the link in the e-mail, and staff see it arrive live', async ({ page, browser, baseURL }) => {
  test.setTimeout(90_000);
  if (!baseURL) throw new Error('baseURL is not set');
  const token = randomUUID().replace(/[^a-f]/g, '').slice(0, 8) || 'abcdef';
  const player: TestPlayer = { firstName: 'Marisol', lastName: `Journey${token}`, name: `Marisol Journey${token}` };
  const guardianEmail = `journey-${token}@family.example`;

  // The family registered through the form, with a birth certificate staff cannot read.
  const { body, contentType } = buildMultipart([
    { name: 'submissionId', value: `e2e-journey-${randomUUID()}` },
    { name: 'season', value: '2025' },
    { name: 'division', value: 'AA' },
    { name: 'playerFirstName', value: player.firstName },
    { name: 'playerLastName', value: player.lastName },
    { name: 'playerBirthDate', value: '2015-03-09' },
    { name: 'guardianName', value: 'Rosa Journey' },
    { name: 'guardianEmail', value: guardianEmail },
    { name: 'birth_certificate', filename: `birth-${player.lastName}.png`, content: makePng(420, 300) },
  ]);
  const signature = `sha256=${createHmac('sha256', E2E_WEBHOOK_SECRET).update(body).digest('hex')}`;
  const sent = await fetch(`${baseURL}/api/intake/form`, {
    method: 'POST',
    body: new Uint8Array(body),
    headers: { 'content-type': contentType, 'x-clearbase-signature': signature },
  });
  expect(sent.status, await sent.text()).toBe(202);

  // Staff, on a phone: the document in the viewer, rejected with a reason, the guardian told.
  await signInAndWaitForShell(page);
  const [document] = await waitForProcessed(page.request, player, 1);
  if (!document) throw new Error('the submitted document is not listed');
  await page.goto(`/documents?q=${player.lastName}`);
  await page.locator(`[data-testid="document-row"][data-document-id="${document.id}"]`).getByRole('button', { name: /^View/ }).click();
  const viewer = page.getByTestId('document-viewer');
  await viewer.getByRole('button', { name: 'Reject' }).click();
  const reject = page.getByTestId('reject-dialog');
  await reject.getByLabel('Reason for rejection').selectOption('The photo is blurry or cut off');
  await reject.getByLabel('More detail (optional)').fill('The birth date cannot be read');
  await expect(reject.getByTestId('notify-guardian')).toBeChecked();
  await expect(reject).toContainText(guardianEmail);
  const rejectedAt = new Date();
  await reject.getByRole('button', { name: 'Reject Document' }).click();
  await expect(reject).toBeHidden();
  const rejected = (await listDocuments(page.request, { search: player.lastName })).documents.find((d) => d.id === document.id);
  expect(rejected).toMatchObject({ status: 'rejected', reviewNotes: REASON });

  // The staff member goes back to the dashboard, which stays open with its live connection.
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
  await expect(page.getByTestId('live-indicator')).toHaveAttribute('data-state', 'connected');

  // The e-mail the guardian got carries the reason and the family's own link.
  const link = await waitForFamilyLink(guardianEmail, { since: new Date(rejectedAt.getTime() - 1000) });

  // The family, on their own phone, with no session: the link from the e-mail.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  try {
    const family = await phone.newPage();
    await family.goto(link);
    await expect(family.getByRole('heading', { level: 1 })).toHaveText(`${player.firstName}’s documents for Fall Ball 2025`);
    const card = family.getByTestId('family-document-birth_certificate');
    await expect(card.getByTestId('document-state')).toHaveText('Not accepted');
    await expect(card.getByTestId('document-reason')).toContainText(REASON);
    // Only this player's name on the page: no other family's, no staff navigation.
    await expect(family.getByRole('navigation')).toHaveCount(0);
    await expect(family.getByText(player.lastName)).toHaveCount(0);
    await family.screenshot({ path: test.info().outputPath('journey-family-reason.png'), fullPage: true });

    const photo = await cameraPhoto(family, 'Birth Certificate');
    await card.getByTestId('take-photo-input-birth_certificate').setInputFiles({ name: 'IMG_2041.jpg', mimeType: 'image/jpeg', buffer: photo });
    await expect(card.getByTestId('draft-page')).toHaveCount(1);
    await card.getByRole('button', { name: /^Send/ }).click();
    await expect(card.getByTestId('upload-received')).toContainText('Received', { timeout: 30_000 });
    await expect(card.getByTestId('document-state')).toHaveText('Under review');

    // Staff's open dashboard hears of it without a reload.
    const toast = page.getByRole('status').filter({ hasText: 'New Document Uploaded' }).filter({ hasText: player.name });
    await expect(toast).toBeVisible({ timeout: 30_000 });
    await expect(toast).toContainText('Birth Certificate');
    await page.screenshot({ path: test.info().outputPath('journey-staff-live.png') });

    // The new file is the family's, through their link, waiting for review; the rejected one stays as it was.
    const documents = (await listDocuments(page.request, { search: player.lastName })).documents;
    expect(documents.map((d) => d.status).sort()).toEqual(['pending', 'rejected']);

    // Opened again later, the link says the document is under review.
    await family.reload();
    await expect(family.getByTestId('family-document-birth_certificate').getByTestId('document-state')).toHaveText('Under review');
    await expect(family.getByTestId('document-reason')).toHaveCount(0);
    await family.screenshot({ path: test.info().outputPath('journey-family-under-review.png'), fullPage: true });
  } finally {
    await phone.close();
  }
});
