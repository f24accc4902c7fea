import { createHmac, randomUUID } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { ZDocumentList, ZStats, type TDocType, type TDocumentListItem } from '../../src/contract';
import { buildMultipart, type Part } from '../support/multipart';
import { E2E_WEBHOOK_SECRET, openSignedIn } from './support';
import { onePagePdf } from '../../src/server/files/one-page-pdf';

/**
 * Helpers for the Documents specs. Every test makes its own player and documents through the real form
 * webhook (the other specs share this server and database), so it never depends on counts others change.
 */

/** A one-page PDF that a browser's PDF viewer can render, saying `text`. */
export const makeOnePagePdf = (text: string): Buffer => onePagePdf(text);

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

/** A real RGB PNG (a blue card with a white band) that an <img> can draw. */
export function makePng(width = 240, height = 160): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3);
    const band = y > height / 3 && y < (height * 2) / 3;
    for (let x = 0; x < width; x++) row.set(band ? [255, 255, 255] : [37, 99, 235], 1 + x * 3);
    rows.push(row);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.concat(rows))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

export interface SubmittedFile {
  /** The form's file field: a document type, or 'document' to leave the type to detection. */
  docType: TDocType | 'document';
  fileName: string;
  content: Buffer;
}

export interface TestPlayer {
  firstName: string;
  lastName: string;
  /** 'First Last' as the Documents screen shows it. */
  name: string;
}

/** A player no other test has: the last name carries a fresh token, so a search finds only this test's rows. */
export function newTestPlayer(firstName = 'Docs'): TestPlayer {
  const token = randomUUID().replace(/[^a-f]/g, '').slice(0, 8) || 'abcdef';
  const lastName = `Review${token}`;
  return { firstName, lastName, name: `${firstName} ${lastName}` };
}

/** Posts a registration form with the files through the signed webhook, as the form provider does. */
export async function submitForm(baseURL: string, player: TestPlayer, files: SubmittedFile[]): Promise<void> {
  const parts: Part[] = [
    { name: 'submissionId', value: `e2e-documents-${randomUUID()}` },
    { name: 'season', value: '2025' },
    { name: 'division', value: 'AA' },
    { name: 'playerFirstName', value: player.firstName },
    { name: 'playerLastName', value: player.lastName },
    { name: 'playerBirthDate', value: '2014-05-17' },
    ...files.map((file) => ({ name: file.docType, filename: file.fileName, content: file.content })),
  ];
  const { body, contentType } = buildMultipart(parts);
  const signature = `sha256=${createHmac('sha256', E2E_WEBHOOK_SECRET).update(body).digest('hex')}`;
  const response = await fetch(`${baseURL}/api/intake/form`, {
    method: 'POST',
    body: new Uint8Array(body),
    headers: { 'content-type': contentType, 'x-clearbase-signature': signature },
  });
  expect(response.status, await response.text()).toBe(202);
}

/** GET /api/documents with the page's session. */
export async function listDocuments(request: APIRequestContext, query: Record<string, string | number>) {
  const params = new URLSearchParams(Object.entries(query).map(([key, value]) => [key, String(value)]));
  const response = await request.get(`/api/documents?${params}`);
  expect(response.ok(), await response.text()).toBe(true);
  return ZDocumentList.parse(await response.json());
}

/** Waits until the pipeline has finished the player's documents (none processing) and returns them. */
export async function waitForProcessed(request: APIRequestContext, player: TestPlayer, count: number): Promise<TDocumentListItem[]> {
  let documents: TDocumentListItem[] = [];
  await expect
    .poll(
      async () => {
        documents = (await listDocuments(request, { search: player.lastName, pageSize: 100 })).documents;
        return documents.length === count && documents.every((document) => document.status !== 'processing');
      },
      { timeout: 20_000, message: `the pipeline finishes ${count} documents of ${player.name}` },
    )
    .toBe(true);
  return documents;
}

/** The current season's Pending Review figure (GET /api/stats). */
export async function pendingReview(request: APIRequestContext): Promise<number> {
  const response = await request.get('/api/stats');
  expect(response.ok(), await response.text()).toBe(true);
  return ZStats.parse(await response.json()).pendingReview;
}

/** Signs in, then opens /documents (with an optional query string) and waits for the list or its empty state. */
export async function openDocuments(page: Page, query = ''): Promise<void> {
  await openSignedIn(page, `/documents${query}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Documents' })).toBeVisible();
  await expect(page.getByTestId('document-row').first().or(page.getByText('No documents found'))).toBeVisible();
}

/** Waits until the rows on screen are those of the current filters (not the previous ones kept while loading). */
export async function listSettled(page: Page): Promise<void> {
  await expect(page.getByTestId('documents-list').or(page.getByText('No documents found'))).not.toHaveAttribute('aria-busy', 'true');
}

/** The list row (table row or card) of one document. */
export const documentRow = (page: Page, documentId: string) => page.locator(`[data-testid="document-row"][data-document-id="${documentId}"]`);

/** Picks an option of one of the filter selects (Radix Select: a combobox, then an option). */
export async function chooseFilter(page: Page, label: 'Status' | 'Document type', option: string): Promise<void> {
  await page.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await listSettled(page);
}

/**
 * Approving a birth certificate, a medical form or a residency proof asks for its facts first: answers that step
 * with plain values (the registered date of birth as filled in, an exam or document date, the first group when
 * the season names groups). A waiver or an undetected document is approved at once, with no step.
 */
export async function answerApprovalStep(page: Page, docType: TDocType | null): Promise<void> {
  if (docType !== 'birth_certificate' && docType !== 'medical' && docType !== 'residency') return;
  const step = page.getByTestId('approve-dialog');
  await expect(step).toBeVisible();
  if (docType === 'medical') await step.getByLabel('Exam date').fill('2025-09-01');
  if (docType === 'residency') {
    await step.getByLabel('Date on the document').fill('2025-09-01');
    const group = step.getByLabel('Group');
    if ((await group.count()) > 0) await group.selectOption({ index: 1 });
  }
  await step.getByRole('button', { name: 'Approve' }).click();
  await expect(step).toBeHidden();
}
