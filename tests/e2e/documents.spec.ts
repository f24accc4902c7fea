import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { makePdf } from '../support/multipart';
import {
  chooseFilter,
  documentRow,
  listSettled,
  makeOnePagePdf,
  makePng,
  newTestPlayer,
  openDocuments,
  pendingReview,
  answerApprovalStep,
  submitForm,
  waitForProcessed,
} from './documents-helpers';
import { signInByApi } from './support';
import { readCsvFile } from '../support/csv';

const CSV_HEADER = 'ID,Player Name,Document Type,File Name,Status,Size (bytes),Uploaded At';

const toast = (page: Page, title: string) => page.getByRole('status').filter({ hasText: title });
const selectAll = (page: Page) => page.getByRole('checkbox', { name: /^Select All/ });
const rows = (page: Page) => page.getByTestId('document-row');

/** Two pending documents of a fresh player, opened on the Documents screen searched down to them. */
async function twoPendingDocuments(page: Page, baseURL: string) {
  const player = newTestPlayer();
  await submitForm(baseURL, player, [
    { docType: 'medical', fileName: `medical-${player.lastName}.pdf`, content: makePdf(player.lastName) },
    { docType: 'waiver', fileName: `waiver-${player.lastName}.pdf`, content: makePdf(`${player.lastName} waiver`) },
  ]);
  await openDocuments(page);
  const documents = await waitForProcessed(page.request, player, 2);
  expect(documents.map((document) => document.status)).toEqual(['pending', 'pending']);
  await page.goto(`/documents?q=${player.lastName}`);
  await expect(rows(page)).toHaveCount(2);
  return { player, documents };
}

test.describe('the Documents screen', () => {
  test('shows its title, subtitle and actions, with nothing selected the bulk buttons are disabled', async ({ page }) => {
    await openDocuments(page);
    await expect(page.getByText('Manage document uploads and processing status')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Refresh' })).toBeEnabled();
    await expect(page.getByRole('button', { name: 'Upload Selected (0)' })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Export Selected (0)' })).toBeDisabled();
    await expect(page.getByText(/^Showing 1–50 of (about )?[\d,]+ documents$/)).toBeVisible();
    await expect(rows(page)).toHaveCount(50);
  });

  test('the Under Review filter leaves only Under Review badges and is kept in the URL', async ({ page }) => {
    await openDocuments(page);
    await chooseFilter(page, 'Status', 'Under Review');
    await expect(page).toHaveURL(/[?&]status=pending\b/);
    await expect(rows(page).first()).toBeVisible();
    await expect(rows(page).locator('[data-status]').filter({ hasNotText: 'Under Review' })).toHaveCount(0);
    const badges = await rows(page).locator('[data-status]').allTextContents();
    expect(badges.length).toBeGreaterThan(0);
    expect(new Set(badges)).toEqual(new Set(['Under Review']));

    // A reload keeps the filter: it lives in the URL.
    await page.reload();
    await expect(page.getByRole('combobox', { name: 'Status' })).toHaveText('Under Review');
    await expect(rows(page).locator('[data-status]').filter({ hasNotText: 'Under Review' })).toHaveCount(0);
  });

  test('the document type filter leaves only that type, and Undetected shows documents that need review', async ({ page, baseURL }) => {
    // A file sent without a type whose name says nothing about it: the pipeline cannot tell its type.
    const player = newTestPlayer('Unknown');
    await submitForm(baseURL ?? '', player, [{ docType: 'document', fileName: `scan-${player.lastName}.pdf`, content: makePdf(player.lastName) }]);
    await openDocuments(page);
    const [undetected] = await waitForProcessed(page.request, player, 1);
    expect(undetected?.docType).toBeNull();

    await chooseFilter(page, 'Document type', 'Medical Form');
    await expect(page).toHaveURL(/[?&]type=medical\b/);
    await expect(rows(page).first()).toBeVisible();
    const typeTexts = /^(Birth Certificate|Residency Proof|Medical Form|Liability Waiver|Undetected — needs review)$/;
    const types = await rows(page).getByText(typeTexts).allTextContents();
    expect(types.length).toBeGreaterThan(0);
    expect(new Set(types)).toEqual(new Set(['Medical Form']));

    await chooseFilter(page, 'Document type', 'Undetected');
    await expect(page).toHaveURL(/[?&]type=undetected\b/);
    await expect(rows(page).first()).toBeVisible();
    expect(new Set(await rows(page).getByText(typeTexts).allTextContents())).toEqual(new Set(['Undetected — needs review']));
    await page.getByRole('searchbox', { name: 'Search' }).fill(player.lastName);
    await expect(rows(page)).toHaveCount(1);
    await expect(documentRow(page, undetected?.id ?? '')).toContainText('Undetected — needs review');
  });

  test('searching for a file name from the list leaves rows with that name, and Clear Filters resets it', async ({ page }) => {
    await openDocuments(page);
    const fileName = (await rows(page).nth(7).getByTestId('document-file-name').textContent()) ?? '';
    expect(fileName).not.toBe('');
    await page.getByRole('searchbox', { name: 'Search' }).fill(fileName);
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe(fileName);
    await listSettled(page);
    await expect(page.getByText(/^Showing 1–\d+ of (about )?[\d,]+ documents?$/)).toBeVisible();
    const names = await rows(page).getByTestId('document-file-name').allTextContents();
    const players = await rows(page).getByTestId('document-player').allTextContents();
    expect(names.length).toBeGreaterThan(0);
    names.forEach((name, index) => {
      const haystack = `${name} ${players[index] ?? ''}`.toLowerCase();
      expect(haystack).toContain(fileName.toLowerCase());
    });

    await chooseFilter(page, 'Status', 'Verified');
    await page.getByRole('button', { name: 'Clear Filters' }).click();
    await expect(page).toHaveURL(/\/documents$/);
    await expect(page.getByRole('searchbox', { name: 'Search' })).toHaveValue('');
    await expect(page.getByRole('combobox', { name: 'Status' })).toHaveText('All');
    await expect(rows(page)).toHaveCount(50);
  });

  test('select all selects every row; unchecking one makes it mixed; Clear Filters empties the selection', async ({ page }) => {
    await openDocuments(page);
    await expect(selectAll(page)).toHaveAccessibleName('Select All (0 of 50)');
    await expect(selectAll(page)).toHaveAttribute('aria-checked', 'false');

    await selectAll(page).click();
    await expect(selectAll(page)).toHaveAttribute('aria-checked', 'true');
    await expect(selectAll(page)).toHaveAccessibleName('Select All (50 of 50)');
    await expect(page.getByRole('button', { name: 'Upload Selected (50)' })).toBeEnabled();
    await expect(page.getByRole('button', { name: 'Export Selected (50)' })).toBeEnabled();

    await rows(page).nth(2).getByRole('checkbox').click();
    await expect(selectAll(page)).toHaveAttribute('aria-checked', 'mixed');
    await expect(selectAll(page)).toHaveAccessibleName('Select All (49 of 50)');
    await expect(page.getByRole('button', { name: 'Export Selected (49)' })).toBeVisible();

    // The 30 s refresh (here: Refresh) brings new row objects; the selection is by id and stays.
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(page.getByRole('button', { name: 'Refresh' })).toBeEnabled();
    await expect(selectAll(page)).toHaveAccessibleName('Select All (49 of 50)');

    await page.getByRole('button', { name: 'Clear Filters' }).click();
    await expect(selectAll(page)).toHaveAttribute('aria-checked', 'false');
    await expect(page.getByRole('button', { name: 'Export Selected (0)' })).toBeDisabled();
  });

  test('rows that leave the list leave the selection; rows still listed stay selected', async ({ page }) => {
    await openDocuments(page);
    const firstPage = await rows(page).evaluateAll((elements) => elements.map((element) => element.getAttribute('data-document-id')));
    await selectAll(page).click();
    await expect(page.getByRole('button', { name: 'Export Selected (50)' })).toBeVisible();

    await chooseFilter(page, 'Status', 'Processing');
    await expect(page).toHaveURL(/status=processing/);
    await expect(rows(page).locator('[data-status]').filter({ hasNotText: 'Processing' })).toHaveCount(0);
    const listed = await rows(page).evaluateAll((elements) => elements.map((element) => element.getAttribute('data-document-id')));
    const kept = listed.filter((id) => firstPage.includes(id)).length;
    await expect(page.getByRole('button', { name: `Export Selected (${kept})` })).toBeVisible();
    await expect(selectAll(page)).toHaveAccessibleName(`Select All (${kept} of ${listed.length})`);
    await expect(rows(page).and(page.locator('[data-state="selected"]'))).toHaveCount(kept);
  });

  test('Export Selected downloads a CSV with the header row and one line per selected document', async ({ page }) => {
    await openDocuments(page);
    const picked = [0, 3, 5];
    const ids: string[] = [];
    for (const index of picked) {
      const row = rows(page).nth(index);
      ids.push((await row.getAttribute('data-document-id')) ?? '');
      await row.getByRole('checkbox').click();
    }
    const downloadPromise = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export Selected (3)' }).click();
    const download = await downloadPromise;
    expect(download.suggestedFilename()).toMatch(/^documents-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.csv$/);
    const csv = await readCsvFile(await download.path());
    const lines = csv.trimEnd().split('\r\n');
    expect(lines[0]).toBe(CSV_HEADER);
    expect(lines).toHaveLength(1 + ids.length);
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual(ids);
    await expect(toast(page, 'Export Successful')).toContainText('3 documents exported to CSV.');
  });

  test('approving a pending document makes it Verified and lowers Pending Review by one', async ({ page, baseURL }) => {
    const { documents } = await twoPendingDocuments(page, baseURL ?? '');
    // The medical form: its approval asks for the exam date first.
    const document = documents.find((candidate) => candidate.docType === 'medical');
    if (!document) throw new Error('no document');
    const before = await pendingReview(page.request);

    const row = documentRow(page, document.id);
    await expect(row.locator('[data-status]')).toHaveText('Under Review');
    await row.getByRole('button', { name: /^Approve/ }).click();
    await answerApprovalStep(page, document.docType);
    // Our toast, or the live 'Document Status Updated' that may follow and replace it (one toast at a time).
    await expect(toast(page, 'Document Approved').or(toast(page, 'Document Status Updated'))).toBeVisible();
    await expect(row.locator('[data-status]')).toHaveText('Verified');
    // Approve and Reject are offered only while pending.
    await expect(row.getByRole('button', { name: /^Approve/ })).toHaveCount(0);
    await expect(row.getByRole('button', { name: /^Reject/ })).toHaveCount(0);

    expect(await pendingReview(page.request)).toBe(before - 1);
    await page.goto('/');
    const card = page.getByTestId('stat-pending-review');
    if ((await card.count()) > 0) await expect(card).toContainText(String(before - 1));
  });

  test('rejecting asks for a reason, then shows it on the row and in History', async ({ page, baseURL }) => {
    const { documents } = await twoPendingDocuments(page, baseURL ?? '');
    const [document] = documents;
    if (!document) throw new Error('no document');
    const reason = 'The photo is blurry or cut off. The birth date cannot be read';
    const row = documentRow(page, document.id);

    await row.getByRole('button', { name: /^Reject/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Reject Document' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Reject Document' }).click();
    await expect(dialog.getByRole('alert')).toContainText('Please choose a reason');
    await expect(dialog.getByLabel('Reason for rejection')).toHaveAttribute('aria-invalid', 'true');

    // A reason from the league's list, and more detail in the family's words.
    await dialog.getByLabel('Reason for rejection').selectOption('The photo is blurry or cut off');
    await dialog.getByLabel('More detail (optional)').fill('The birth date cannot be read');
    await dialog.getByRole('button', { name: 'Reject Document' }).click();
    await expect(dialog).toBeHidden();
    await expect(toast(page, 'Document Rejected').or(toast(page, 'Document Status Updated'))).toBeVisible();
    await expect(row.locator('[data-status]')).toHaveText('Rejected');
    await expect(row.getByTestId('review-reason')).toHaveText(`Reason: ${reason}`);

    await row.getByRole('button', { name: /^More/ }).click();
    await page.getByRole('menuitem', { name: 'History' }).click();
    const history = page.getByRole('dialog', { name: 'Document History' });
    await expect(history.getByTestId('document-history')).toContainText('Received from the registration form');
    await expect(history.getByTestId('document-history')).toContainText(`Status changed from pending to rejected: ${reason}`);
    await expect(history.getByText('Shared password').last()).toBeVisible();
  });

  test('a review someone else made first answers with the server message and refreshes the row', async ({ page, baseURL }) => {
    // The live connection would refresh the row at once; here its message has not arrived yet (a silent socket).
    await page.routeWebSocket(/\/ws$/, () => {});
    const { documents } = await twoPendingDocuments(page, baseURL ?? '');
    // The waiver: approved at once, with no step asking for facts.
    const document = documents.find((candidate) => candidate.docType === 'waiver');
    if (!document) throw new Error('no document');
    const row = documentRow(page, document.id);
    await expect(row.getByRole('button', { name: /^Approve/ })).toBeVisible();

    // Another staff member approves it while this screen still shows it pending.
    const elsewhere = await page.request.patch(`/api/documents/${document.id}/status`, { data: { status: 'verified' } });
    expect(elsewhere.ok()).toBe(true);

    await row.getByRole('button', { name: /^Approve/ }).click();
    const failure = toast(page, 'Approve Failed');
    await expect(failure).toContainText(`Document ${document.id} cannot become verified: it is already verified.`);
    await expect(row.locator('[data-status]')).toHaveText('Verified');
  });

  test('Approve Selected approves the pending rows and says how many it skipped and why', async ({ page, baseURL }) => {
    const player = newTestPlayer('Bulk');
    await submitForm(baseURL ?? '', player, [
      { docType: 'birth_certificate', fileName: `birth-${player.lastName}.pdf`, content: makePdf(`${player.lastName} 1`) },
      { docType: 'residency', fileName: `residency-${player.lastName}.pdf`, content: makePdf(`${player.lastName} 2`) },
      { docType: 'medical', fileName: `medical-${player.lastName}.pdf`, content: makePdf(`${player.lastName} 3`) },
    ]);
    await openDocuments(page);
    const documents = await waitForProcessed(page.request, player, 3);
    const [first] = documents;
    if (!first) throw new Error('no document');
    const rejected = await page.request.patch(`/api/documents/${first.id}/status`, { data: { status: 'rejected', reviewNotes: 'wrong player' } });
    expect(rejected.ok()).toBe(true);

    await page.goto(`/documents?q=${player.lastName}`);
    await expect(rows(page)).toHaveCount(3);
    await selectAll(page).click();
    await page.getByRole('button', { name: 'Approve Selected (3)' }).click();
    // Nobody opened them: asked first (review-viewer.spec.ts covers the question and Cancel).
    const confirm = page.getByTestId('bulk-approve-confirm');
    await expect(confirm).toContainText('2 of the 2 selected documents under review have not been opened. Approve all 2?');
    await confirm.getByRole('button', { name: 'Approve all 2' }).click();
    // Said in a toast and kept on the list (the live 'status updated' toasts that follow may replace the toast).
    await expect(page.getByTestId('bulk-approve-summary')).toContainText(
      'Documents Approved: 2 documents approved. Skipped 1 document: 1 not under review (1 Rejected).',
    );
    await expect(rows(page).locator('[data-status="verified"]')).toHaveCount(2);
    await expect(documentRow(page, first.id).locator('[data-status]')).toHaveText('Rejected');
  });

  test('View shows a stored image in an <img> and a stored PDF in an <iframe>, both from blob: URLs', async ({ page, baseURL }) => {
    const player = newTestPlayer('Viewer');
    const imageName = `residency-${player.lastName}.png`;
    const pdfName = `waiver-${player.lastName}.pdf`;
    await submitForm(baseURL ?? '', player, [
      { docType: 'residency', fileName: imageName, content: makePng() },
      { docType: 'waiver', fileName: pdfName, content: makeOnePagePdf(`Liability waiver for ${player.name}`) },
    ]);
    await openDocuments(page);
    const documents = await waitForProcessed(page.request, player, 2);
    await page.goto(`/documents?q=${player.lastName}`);

    const image = documents.find((document) => document.fileName === imageName);
    const pdf = documents.find((document) => document.fileName === pdfName);
    if (!image || !pdf) throw new Error(`submitted files not listed: ${documents.map((d) => d.fileName).join(', ')}`);

    await documentRow(page, image.id).getByRole('button', { name: /^View/ }).click();
    const viewer = page.getByRole('dialog', { name: imageName });
    const img = viewer.getByRole('img', { name: `Preview of ${imageName}` });
    await expect(img).toHaveAttribute('src', /^blob:/);
    await expect.poll(() => img.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBe(240);
    await expect(viewer.getByRole('button', { name: 'Download' })).toBeEnabled();
    const downloadPromise = page.waitForEvent('download');
    await viewer.getByRole('button', { name: 'Download' }).click();
    expect((await downloadPromise).suggestedFilename()).toBe(imageName);
    const imageSrc = await img.getAttribute('src');
    await page.keyboard.press('Escape');
    await expect(viewer).toBeHidden();
    // The object URL was revoked on close: fetching it now fails.
    const stillReadable = await page.evaluate(async (src) => fetch(src ?? '').then(() => true, () => false), imageSrc);
    expect(stillReadable).toBe(false);

    await documentRow(page, pdf.id).getByRole('button', { name: /^View/ }).click();
    const pdfViewer = page.getByRole('dialog', { name: pdfName });
    await expect(pdfViewer.locator(`iframe[title="Preview of ${pdfName}"]`)).toHaveAttribute('src', /^blob:/);
    await page.keyboard.press('Escape');

    // More → Download saves the same file without opening the viewer.
    await documentRow(page, pdf.id).getByRole('button', { name: /^More/ }).click();
    const menuDownload = page.waitForEvent('download');
    await page.getByRole('menuitem', { name: 'Download' }).click();
    const saved = await menuDownload;
    expect(saved.suggestedFilename()).toBe(pdfName);
    expect((await readFile(await saved.path())).subarray(0, 5).toString()).toBe('%PDF-');
  });

  test('View of a document with no stored file shows the server message', async ({ page, baseURL }) => {
    // A file refused when it arrived (not a PDF or an image) is kept as a rejected document with no stored file.
    const player = newTestPlayer('Refused');
    await submitForm(baseURL ?? '', player, [{ docType: 'medical', fileName: `notes-${player.lastName}.txt`, content: Buffer.from('not a document') }]);
    await openDocuments(page);
    const [missing] = await waitForProcessed(page.request, player, 1);
    if (!missing) throw new Error('the refused file is not listed');
    expect(missing.status).toBe('rejected');
    expect((await page.request.get(`/api/documents/${missing.id}/file`)).status()).toBe(404);
    await page.goto(`/documents?q=${player.lastName}`);
    const row = documentRow(page, missing.id);
    await row.getByRole('button', { name: /^View/ }).click();
    const viewer = page.getByRole('dialog', { name: missing.fileName });
    await expect(viewer.getByRole('alert')).toContainText('The file is not available');
    await expect(viewer.getByRole('alert')).toContainText('No file is stored for this document');
    await expect(viewer.getByRole('button', { name: 'Download' })).toBeDisabled();
  });

  test('Upload Selected sends the selected documents to secure storage and answers with the success toast', async ({ page, baseURL }) => {
    await twoPendingDocuments(page, baseURL ?? '');
    await selectAll(page).click();
    await page.getByRole('button', { name: 'Upload Selected (2)' }).click();
    await expect(toast(page, 'Upload Successful')).toContainText('documents uploaded to secure storage successfully.');
  });

  test('Upload Selected that fails answers with the server message', async ({ page }) => {
    await openDocuments(page);
    await page.route('**/api/documents/upload-to-storage', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ code: 'SERVICE_UNAVAILABLE', message: 'S3 storage is not reachable.' }) }),
    );
    await rows(page).first().getByRole('checkbox').click();
    await page.getByRole('button', { name: 'Upload Selected (1)' }).click();
    await expect(toast(page, 'Upload Failed')).toContainText('S3 storage is not reachable.');
  });

  test('paging moves through the server pages and keeps the page in the URL', async ({ page }) => {
    await openDocuments(page);
    const firstId = await rows(page).first().getAttribute('data-document-id');
    await page.getByRole('navigation', { name: 'Documents pages' }).getByRole('button', { name: 'Page 2' }).click();
    await expect(page).toHaveURL(/[?&]page=2\b/);
    await expect(page.getByText(/^Showing 51–100 of (about )?[\d,]+ documents$/)).toBeVisible();
    await expect(rows(page).first()).not.toHaveAttribute('data-document-id', firstId ?? '');
    await chooseFilter(page, 'Status', 'Verified');
    await expect(page).not.toHaveURL(/page=2/);
  });

  test('a search that matches nothing shows the empty state', async ({ page }) => {
    await openDocuments(page);
    await page.getByRole('searchbox', { name: 'Search' }).fill('no-such-document-anywhere-4711');
    await expect(page.getByText('No documents found')).toBeVisible();
    await expect(page.getByText('No documents match your current filters.')).toBeVisible();
    await expect(page.getByRole('checkbox', { name: /^Select All/ })).toHaveCount(0);
  });

  test('a page past the end of the list moves to the last page', async ({ page }) => {
    await openDocuments(page, '?status=rejected&page=999');
    await expect(page).toHaveURL(/page=(?!999)\d+/);
    await expect(rows(page).first()).toBeVisible();
  });

  test('past a thousand documents the total is an estimate; a page past the real end says so and goes back to page 1', async ({ page }) => {
    // The demo league holds more than a thousand documents: the whole list's total is the database's estimate.
    await openDocuments(page);
    await expect(page.getByText(/^Showing 1–50 of about [\d,]+ documents$/)).toBeVisible();
    const pages = page.getByRole('navigation', { name: 'Documents pages' });
    await expect(pages.getByRole('button', { name: 'Next page' })).toBeEnabled();
    await page.goto('/documents?page=999');
    const pastEnd = page.getByTestId('documents-past-end');
    await expect(pastEnd).toContainText('No more documents');
    await expect(pastEnd).toContainText('The list ends before page 999');
    await expect(rows(page)).toHaveCount(0);
    await pastEnd.getByRole('button', { name: 'Back to page 1' }).click();
    await expect(page).not.toHaveURL(/page=/);
    await expect(page.getByText(/^Showing 1–50 of about [\d,]+ documents$/)).toBeVisible();
    await expect(rows(page)).toHaveCount(50);
  });

  test('a list that fails to load says why and loads again with Try again', async ({ page }) => {
    await signInByApi(page);
    let failing = true;
    await page.route(/\/api\/documents\?/, (route) =>
      failing
        ? route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ code: 'SERVICE_UNAVAILABLE', message: 'The database is restarting.' }) })
        : route.continue(),
    );
    await page.goto('/documents');
    const alert = page.getByRole('alert').filter({ hasText: 'Documents could not be loaded' });
    await expect(alert).toContainText('The database is restarting.');
    failing = false;
    await alert.getByRole('button', { name: 'Try again' }).click();
    await expect(rows(page)).toHaveCount(50);
  });

  test('the screen logs no console errors while loading, searching, selecting and exporting', async ({ page }) => {
    await openDocuments(page);
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto('/documents');
    await expect(rows(page)).toHaveCount(50);
    await page.getByRole('searchbox', { name: 'Search' }).fill('pdf');
    await expect(page).toHaveURL(/q=pdf/);
    await selectAll(page).click();
    const downloadPromise = page.waitForEvent('download');
    await page.getByRole('button', { name: /^Export Selected/ }).click();
    await downloadPromise;
    await page.getByRole('button', { name: 'Clear Filters' }).click();
    await expect(page).toHaveURL(/\/documents$/);
    expect(errors).toEqual([]);
  });
});
