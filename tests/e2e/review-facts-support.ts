import { expect, type Page } from '@playwright/test';
import { ZDocument } from '../../src/contract';
import { documentRow, makeOnePagePdf, makePng, newTestPlayer, openDocuments, submitForm, waitForProcessed } from './documents-helpers';

/**
 * A review records what the requirement rules need, shared by the desktop and phone specs: a birth certificate
 * with another date of birth than the registration (the change must be ticked), a medical form with its exam
 * date, and a waiver rejected with a reason picked from the list. Each run sends its own player's documents.
 */

export type ScreenSize = 'desktop' | 'phone';

const toast = (page: Page, title: string) => page.getByRole('status').filter({ hasText: title });

async function documentFacts(page: Page, id: string) {
  const response = await page.request.get(`/api/documents/${id}`);
  expect(response.ok(), await response.text()).toBe(true);
  return ZDocument.parse(await response.json());
}

export async function reviewRecordsFacts(page: Page, baseURL: string, size: ScreenSize): Promise<void> {
  const player = newTestPlayer('Facts');
  await submitForm(baseURL, player, [
    { docType: 'birth_certificate', fileName: `birth-${player.lastName}.png`, content: makePng(400, 300) },
    { docType: 'medical', fileName: `medical-${player.lastName}.png`, content: makePng(401, 300) },
    { docType: 'waiver', fileName: `waiver-${player.lastName}.pdf`, content: makeOnePagePdf(`Waiver of ${player.name}`) },
  ]);
  await openDocuments(page);
  const documents = await waitForProcessed(page.request, player, 3);
  const byType = (type: string) => {
    const found = documents.find((document) => document.docType === type);
    if (!found) throw new Error(`no ${type} was sent`);
    return found;
  };
  const birth = byType('birth_certificate');
  const medical = byType('medical');
  const waiver = byType('waiver');
  await page.goto(`/documents?q=${player.lastName}`);
  await expect(page.getByTestId('document-row')).toHaveCount(3);

  // The birth certificate shows another date: the step says what approving changes, and asks for the tick.
  await documentRow(page, birth.id).getByRole('button', { name: /^Approve/ }).click();
  const approve = page.getByTestId('approve-dialog');
  const birthDate = approve.getByLabel('Date of birth on the certificate');
  await expect(birthDate).toHaveValue('2014-05-17');
  await birthDate.fill('2014-05-30');
  await expect(approve.getByTestId('birth-date-change')).toContainText(`Approving changes ${player.firstName}'s date of birth to`);
  await approve.getByRole('button', { name: 'Approve' }).click();
  await expect(approve.getByText('Tick “Change the date of birth” to approve with this date.')).toBeVisible();
  await approve.getByLabel('Change the date of birth').check();
  await page.screenshot({ path: `tmp/review-facts-birth-${size}.png` });
  await approve.getByRole('button', { name: 'Approve' }).click();
  await expect(approve).toBeHidden();
  await expect(toast(page, 'Document Approved')).toBeVisible();
  expect(await documentFacts(page, birth.id)).toMatchObject({ status: 'verified', reviewedBy: 'Shared password', facts: { birthDate: '2014-05-30' } });

  // The medical form needs its exam date.
  await documentRow(page, medical.id).getByRole('button', { name: /^Approve/ }).click();
  await approve.getByRole('button', { name: 'Approve' }).click();
  await expect(approve.getByText('Enter the exam date.')).toBeVisible();
  await approve.getByLabel('Exam date').fill('2025-09-01');
  await approve.getByRole('button', { name: 'Approve' }).click();
  await expect(approve).toBeHidden();
  expect((await documentFacts(page, medical.id)).facts.documentDate).toBe('2025-09-01');

  // The waiver is rejected with a reason from the list, and more detail.
  await documentRow(page, waiver.id).getByRole('button', { name: /^Reject/ }).click();
  const reject = page.getByTestId('reject-dialog');
  await reject.getByLabel('Reason for rejection').selectOption('Missing signature');
  await reject.getByLabel('More detail (optional)').fill('Page 2 is not signed');
  await page.screenshot({ path: `tmp/review-facts-reject-${size}.png` });
  await reject.getByRole('button', { name: 'Reject Document' }).click();
  await expect(reject).toBeHidden();
  expect(await documentFacts(page, waiver.id)).toMatchObject({ status: 'rejected', reviewNotes: 'Missing signature. Page 2 is not signed' });

  // The viewer shows who verified the certificate and the date of birth it showed.
  await documentRow(page, birth.id).getByRole('button', { name: /^View/ }).click();
  const record = page.getByTestId('document-verification');
  await expect(record).toContainText('Verified by Shared password');
  await expect(record).toContainText('Date of birth shown');
  await page.screenshot({ path: `tmp/review-facts-viewer-${size}.png` });
}
