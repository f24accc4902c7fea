import { createHash } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { ZDocumentHistory, type TDocumentListItem } from '../../src/contract';
import { answerApprovalStep, documentRow, listDocuments, makeOnePagePdf, makePng, newTestPlayer, openDocuments, submitForm, waitForProcessed, type TestPlayer } from './documents-helpers';

/**
 * Reviewing from the document viewer, shared by the desktop and phone specs: each test sends its own player's
 * documents through the form webhook (other specs share the server), except the first, which only reads demo
 * documents (opening one changes nothing another spec counts).
 */

export type ScreenSize = 'desktop' | 'phone';

const viewer = (page: Page) => page.getByTestId('document-viewer');
const toast = (page: Page, title: string) => page.getByRole('status').filter({ hasText: title });

/** A screenshot among the test's own output (the ones in docs/screenshots are chosen from these by hand). */
async function shoot(page: Page, name: string, size: ScreenSize): Promise<void> {
  await page.screenshot({ path: test.info().outputPath(`${name}-${size}.png`) });
}

/** Three documents of a fresh player, under review, listed on the Documents screen searched down to them (newest first). */
async function threeUnderReview(page: Page, baseURL: string): Promise<{ player: TestPlayer; documents: TDocumentListItem[] }> {
  const player = newTestPlayer('Viewer');
  await submitForm(baseURL, player, [
    // Images, which a headless browser draws (its PDF frame stays grey in a screenshot); sizes differ so files do.
    { docType: 'birth_certificate', fileName: `birth-${player.lastName}.png`, content: makePng(480, 320) },
    { docType: 'medical', fileName: `medical-${player.lastName}.png`, content: makePng(481, 320) },
    { docType: 'waiver', fileName: `waiver-${player.lastName}.pdf`, content: makeOnePagePdf(`Waiver of ${player.name}`) },
  ]);
  await openDocuments(page);
  await waitForProcessed(page.request, player, 3);
  await page.goto(`/documents?q=${player.lastName}`);
  await expect(page.getByTestId('document-row')).toHaveCount(3);
  // The screen's order (newest first, the id breaking a tie), as the API answers it.
  const { documents } = await listDocuments(page.request, { search: player.lastName });
  expect(documents.every((document) => document.status === 'pending')).toBe(true);
  return { player, documents };
}

/** Approve in the viewer, answering the approval step of a type that asks for facts. */
async function approveInViewer(page: Page, document: TDocumentListItem): Promise<void> {
  await viewer(page).getByRole('button', { name: 'Approve' }).click();
  await answerApprovalStep(page, document.docType);
}

async function statusOf(page: Page, player: TestPlayer, id: string) {
  const { documents } = await listDocuments(page.request, { search: player.lastName });
  return documents.find((document) => document.id === id);
}

/** A demo document's file is really there: the viewer shows it, and its bytes have the listed SHA-256 and size. */
export async function demoDocumentOpens(page: Page, size: ScreenSize): Promise<void> {
  await openDocuments(page);
  const photos = await listDocuments(page.request, { search: 'IMG_', status: 'verified', pageSize: 5 });
  const photo = photos.documents.find((document) => /^IMG_\d+\.jpg$/.test(document.fileName));
  if (!photo) throw new Error('the demo has no verified photo');
  const file = await page.request.get(`/api/documents/${photo.id}/file`);
  expect(file.status()).toBe(200);
  const bytes = await file.body();
  expect({ sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length, type: file.headers()['content-type'] }).toEqual({
    sha256: photo.fileSha256,
    bytes: photo.bytes,
    type: 'image/jpeg',
  });

  await page.goto(`/documents?q=${encodeURIComponent(photo.fileName)}&status=verified`);
  await documentRow(page, photo.id).getByRole('button', { name: /^View/ }).click();
  await expect(viewer(page).getByRole('heading', { name: photo.fileName })).toBeVisible();
  const image = viewer(page).getByRole('img', { name: `Preview of ${photo.fileName}` });
  await expect(image).toBeVisible();
  expect(await image.evaluate((element) => (element instanceof HTMLImageElement ? element.naturalWidth : 0))).toBeGreaterThan(100);
  // A verified document offers Reopen, not Approve or Reject.
  await expect(viewer(page).getByRole('button', { name: 'Reopen' })).toBeVisible();
  await shoot(page, 'review-viewer-demo', size);
  await expect(viewer(page).getByRole('button', { name: 'Approve' })).toHaveCount(0);

  // Oldest first: the demo's documents came in before any a test sent.
  const pdfs = await listDocuments(page.request, { search: 'Medical Form - ', status: 'verified', sort: 'oldest', pageSize: 5 });
  const pdf = pdfs.documents[0];
  if (!pdf) throw new Error('the demo has no verified medical form PDF');
  const pdfBody = await (await page.request.get(`/api/documents/${pdf.id}/file`)).body();
  expect(pdfBody.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(pdfBody.toString('latin1')).toContain(`DEMO \x97 Medical Form \x97 `);
  expect(createHash('sha256').update(pdfBody).digest('hex')).toBe(pdf.fileSha256);
}

/** Previous / Next and the arrow keys move through the list; Approve and Reject move on to the next document. */
export async function approveAndRejectFromTheViewer(page: Page, baseURL: string, size: ScreenSize): Promise<void> {
  const { player, documents } = await threeUnderReview(page, baseURL);
  const [first, second, third] = documents;
  if (!first || !second || !third) throw new Error('three documents expected');
  const title = (document: TDocumentListItem) => viewer(page).getByRole('heading', { name: document.fileName });
  const position = viewer(page).getByTestId('document-viewer-position');

  await documentRow(page, first.id).getByRole('button', { name: /^View/ }).click();
  await expect(title(first)).toBeVisible();
  await expect(position).toHaveText('1 of 3');
  await expect(viewer(page).getByRole('button', { name: 'Previous' })).toBeDisabled();
  await page.keyboard.press('ArrowRight');
  await expect(title(second)).toBeVisible();
  await expect(position).toHaveText('2 of 3');
  await page.keyboard.press('ArrowLeft');
  await expect(title(first)).toBeVisible();
  await viewer(page).getByRole('button', { name: 'Next' }).click();
  await viewer(page).getByRole('button', { name: 'Previous' }).click();
  await expect(title(first)).toBeVisible();
  await expect(viewer(page).getByTestId('document-viewer-body')).toHaveAttribute('data-state', 'ready');
  // The screenshot shows an image: of the first two documents, at least one is.
  const imageFirst = first.fileName.endsWith('.png');
  if (!imageFirst) await page.keyboard.press('ArrowRight');
  await expect(viewer(page).getByTestId('document-viewer-body')).toHaveAttribute('data-state', 'ready');
  await expect(viewer(page).getByRole('img')).toBeVisible();
  await shoot(page, 'review-viewer', size);
  if (!imageFirst) await page.keyboard.press('ArrowLeft');
  await expect(title(first)).toBeVisible();

  await approveInViewer(page, first);
  await expect(toast(page, 'Document Approved')).toBeVisible();
  await expect(title(second)).toBeVisible();
  await expect(position).toHaveText('2 of 3');
  expect((await statusOf(page, player, first.id))?.status).toBe('verified');

  await viewer(page).getByRole('button', { name: 'Reject' }).click();
  const reject = page.getByTestId('reject-dialog');
  await reject.getByLabel('Reason for rejection').selectOption('The photo is blurry or cut off');
  await reject.getByRole('button', { name: 'Reject Document' }).click();
  await expect(reject).toBeHidden();
  await expect(title(third)).toBeVisible();
  await expect(position).toHaveText('3 of 3');
  await expect(viewer(page).getByRole('button', { name: 'Next' })).toBeDisabled();
  expect(await statusOf(page, player, second.id)).toMatchObject({ status: 'rejected', reviewNotes: 'The photo is blurry or cut off' });
  expect((await statusOf(page, player, third.id))?.status).toBe('pending');
}

/** Reopen asks why (required), puts the document back under review, and its history says so. */
export async function reopenWithAReason(page: Page, baseURL: string, size: ScreenSize): Promise<void> {
  const { player, documents } = await threeUnderReview(page, baseURL);
  const [first, second] = documents;
  if (!first || !second) throw new Error('two documents expected');
  for (const [document, decision] of [
    [first, { status: 'verified' }],
    [second, { status: 'rejected', reviewNotes: 'Wrong child' }],
  ] as const) {
    expect((await page.request.patch(`/api/documents/${document.id}/status`, { data: decision })).ok()).toBe(true);
  }
  await page.reload();
  await expect(documentRow(page, first.id).getByText('Verified')).toBeVisible();

  // From a row: Escape closes the dialog and gives focus back to the row's Reopen.
  const rowReopen = documentRow(page, second.id).getByRole('button', { name: /^Reopen/ });
  await rowReopen.click();
  await expect(page.getByTestId('reopen-dialog')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('reopen-dialog')).toBeHidden();
  await expect(rowReopen).toBeFocused();

  // From the viewer, with a reason.
  await documentRow(page, first.id).getByRole('button', { name: /^View/ }).click();
  await viewer(page).getByRole('button', { name: 'Reopen' }).click();
  const dialog = page.getByTestId('reopen-dialog');
  await dialog.getByRole('button', { name: 'Reopen Document' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Please give a reason: it is kept in the document’s history.');
  await dialog.getByLabel('Why reopen it?').fill('Approved by mistake: the birth date does not match');
  await shoot(page, 'review-reopen-dialog', size);
  await dialog.getByRole('button', { name: 'Reopen Document' }).click();
  await expect(dialog).toBeHidden();
  await expect(toast(page, 'Document Reopened')).toBeVisible();
  // Under review again: the viewer offers the decision anew, and focus is back on the viewer.
  await expect(viewer(page).getByRole('button', { name: 'Approve' })).toBeVisible();
  await expect(viewer(page).getByText('Under Review')).toBeVisible();
  expect(await statusOf(page, player, first.id)).toMatchObject({ status: 'pending', reviewNotes: null });

  // (Escape would first close the toast, the top layer.)
  await viewer(page).getByRole('button', { name: 'Close' }).click();
  await expect(viewer(page)).toBeHidden();
  await documentRow(page, first.id).getByRole('button', { name: /^More/ }).click();
  await page.getByRole('menuitem', { name: 'History' }).click();
  const history = page.getByTestId('history-dialog');
  await expect(history.locator('[data-action="document.reopened"]')).toContainText(
    'Reopened for review (it was verified): Approved by mistake: the birth date does not match',
  );
  const events = ZDocumentHistory.parse(await (await page.request.get(`/api/documents/${first.id}/history`)).json()).events;
  expect(events.at(-1)).toMatchObject({ action: 'document.reopened', actorName: 'Shared password' });
}

/** Approving documents nobody opened asks first, naming the count; Cancel approves nothing. */
export async function bulkApproveAsksAboutUnopened(page: Page, baseURL: string, size: ScreenSize): Promise<void> {
  const { player, documents } = await threeUnderReview(page, baseURL);
  const [first] = documents;
  if (!first) throw new Error('a document expected');
  const approveSelected = page.getByRole('button', { name: /^Approve Selected/ });
  const confirm = page.getByTestId('bulk-approve-confirm');

  await page.getByRole('checkbox', { name: /^Select All/ }).click();
  await approveSelected.click();
  await expect(confirm).toContainText('3 of the 3 selected documents have not been opened. Approve all 3?');
  await shoot(page, 'review-bulk-confirm', size);
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await expect(approveSelected).toBeFocused();
  const after = await listDocuments(page.request, { search: player.lastName });
  expect(after.documents.map((document) => document.status)).toEqual(['pending', 'pending', 'pending']);

  // Opened in the viewer, one of them no longer counts.
  await documentRow(page, first.id).getByRole('button', { name: /^View/ }).click();
  await expect(viewer(page).getByTestId('document-viewer-body')).toHaveAttribute('data-state', 'ready');
  await viewer(page).getByRole('button', { name: 'Close' }).click();
  await expect.poll(async () => (await statusOf(page, player, first.id))?.opened).toBe(true);
  await approveSelected.click();
  await expect(confirm).toContainText('2 of the 3 selected documents have not been opened. Approve all 3?');
  await confirm.getByRole('button', { name: 'Approve all 3' }).click();
  await expect(page.getByTestId('bulk-approve-summary')).toContainText('Documents Approved: 3 documents approved.');
  const approved = await listDocuments(page.request, { search: player.lastName });
  expect(approved.documents.map((document) => document.status)).toEqual(['verified', 'verified', 'verified']);
}
