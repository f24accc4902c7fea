import { createHmac, randomUUID } from 'node:crypto';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { ZDocument, ZSeasonResponse, type TDocType, type TDocument } from '../../src/contract';
import { buildMultipart, type Part } from '../support/multipart';
import { seriousViolations } from './axe-support';
import { onePagePdf } from '../../src/server/files/one-page-pdf';
import { newTestPlayer, type TestPlayer } from './documents-helpers';
import { E2E_WEBHOOK_SECRET, signInByApi } from './support';

/**
 * The Review screen, shared by the desktop and phone specs. Each test makes a season of its own and sends its
 * documents into it through the signed form webhook, as real PDFs whose text says the child's name, date of
 * birth and the exam date, so the queue it reviews holds exactly its documents, and reading finds their facts.
 */

export type ScreenSize = 'desktop' | 'phone';

/** The registered date of birth of every test player. */
export const REGISTERED_BIRTH_DATE = '2014-05-17';
/** The exam date printed on the medical forms (within the last twelve months of the test machine's clock). */
export const EXAM_DATE = '2026-09-01';

/** A season nobody else uses (the year is the test's own), open to division AA. */
export async function makeSeason(request: APIRequestContext, year: number): Promise<string> {
  const response = await request.post('/api/seasons', {
    data: {
      name: `Review Queue ${year}`,
      kind: 'Spring Ball',
      year,
      startsOn: `${year}-03-01`,
      endsOn: `${year}-06-30`,
      registrationDeadline: `${year}-04-30`,
      divisions: ['AA'],
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ZSeasonResponse.parse(await response.json()).season.id;
}

const birthCertificate = (player: TestPlayer, birthDate: string) =>
  onePagePdf(
    ['CERTIFICATE OF LIVE BIRTH', 'State Registrar of Vital Statistics', `Name of child: ${player.name}`, `Date of birth: ${birthDate}`, 'Place of birth: Springfield General Hospital'],
    20,
  );

const medicalForm = (player: TestPlayer) =>
  onePagePdf(
    ['PRE-PARTICIPATION PHYSICAL EXAMINATION', `Patient name: ${player.name}`, `Date of birth: ${REGISTERED_BIRTH_DATE}`, `Date of exam: ${EXAM_DATE}`, 'Physician: Dr. Rivera, MD', 'Cleared for all sports without restriction'],
    18,
  );

/** Posts one registration with its files into `season` through the signed webhook; the player is registered with REGISTERED_BIRTH_DATE. */
async function submit(baseURL: string, season: string, player: TestPlayer, files: Array<{ docType: TDocType; fileName: string; content: Buffer }>) {
  const parts: Part[] = [
    { name: 'submissionId', value: `e2e-review-queue-${randomUUID()}` },
    { name: 'season', value: season },
    { name: 'division', value: 'AA' },
    { name: 'playerFirstName', value: player.firstName },
    { name: 'playerLastName', value: player.lastName },
    { name: 'playerBirthDate', value: REGISTERED_BIRTH_DATE },
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

async function documentById(request: APIRequestContext, id: string): Promise<TDocument> {
  const response = await request.get(`/api/documents/${id}`);
  expect(response.ok(), await response.text()).toBe(true);
  return ZDocument.parse(await response.json());
}

/** First names reading takes for names (letters only). */
const FIRST_NAMES = ['Ana', 'Ben', 'Cora', 'Dev', 'Elena', 'Farid'];

/** The season's pending documents, oldest first, once `count` of them are stored and read. */
async function waitForReadQueue(request: APIRequestContext, season: string, count: number): Promise<TDocument[]> {
  let ids: string[] = [];
  await expect
    .poll(
      async () => {
        const response = await request.get(`/api/documents?status=pending&sort=oldest&pageSize=100&season=${season}`);
        ids = ((await response.json()) as { documents: Array<{ id: string }> }).documents.map((document) => document.id);
        return ids.length;
      },
      { timeout: 60_000, intervals: [1_000, 2_000], message: `${count} documents of ${season} are stored` },
    )
    .toBe(count);
  // Reading takes a few seconds a document on a busy machine: only those not read yet are asked again.
  const read = new Map<string, TDocument>();
  await expect
    .poll(
      async () => {
        for (const id of ids.filter((candidate) => !read.has(candidate))) {
          const document = await documentById(request, id);
          if (document.reading.state !== 'waiting') read.set(id, document);
        }
        return [...read.values()].map((document) => document.reading.state).join(',');
      },
      { timeout: 180_000, intervals: [2_000, 3_000], message: `the ${count} documents of ${season} are read` },
    )
    .toBe(Array.from({ length: count }, () => 'done').join(','));
  return ids.map((id) => read.get(id)).filter((document): document is TDocument => document !== undefined);
}

const counter = (page: Page) => page.getByTestId('review-counter');
const announcement = (page: Page) => page.getByTestId('review-announcement');

/** Waits until the document on screen is `id` and what reading found in it is shown (the approval step is filled from it). */
async function showing(page: Page, id: string): Promise<void> {
  await expect(page.getByTestId('review-current')).toHaveAttribute('data-document-id', id);
  await expect(page.getByTestId('review-reading')).toHaveAttribute('data-state', 'done');
}

/** Tabs (keyboard only) until `name` has focus, then presses Enter. */
async function tabToAndPress(page: Page, name: string): Promise<void> {
  for (let tabs = 0; tabs < 8; tabs++) {
    const focused = await page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
    if (focused === name) {
      await page.keyboard.press('Enter');
      return;
    }
    await page.keyboard.press('Tab');
  }
  throw new Error(`${name} was not reached with Tab`);
}

/**
 * Ten pending documents (five players' birth certificates and medical forms) cleared with the keyboard alone:
 * J/K step, Z zooms, T turns, ? lists the keys, A approves (the approval step filled in from the document,
 * confirmed with Enter), R rejects the last with a reason from the list. `count` documents: 10 on a desktop,
 * fewer on a phone.
 */
export async function clearQueueWithKeyboard(page: Page, baseURL: string, size: ScreenSize, year: number, players: number): Promise<void> {
  await signInByApi(page);
  const season = await makeSeason(page.request, year);
  const sent: TestPlayer[] = [];
  for (let n = 0; n < players; n++) {
    const player = newTestPlayer(FIRST_NAMES[n % FIRST_NAMES.length]);
    sent.push(player);
    await submit(baseURL, season, player, [
      { docType: 'birth_certificate', fileName: `birth-${player.lastName}.pdf`, content: birthCertificate(player, REGISTERED_BIRTH_DATE) },
      { docType: 'medical', fileName: `medical-${player.lastName}.pdf`, content: medicalForm(player) },
    ]);
  }
  const total = players * 2;
  const queue = await waitForReadQueue(page.request, season, total);

  await page.goto(`/review?season=${season}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Review' })).toBeVisible();
  await expect(counter(page)).toHaveText(`1 of ${total} pending`);
  const first = queue[0];
  if (!first) throw new Error('the queue is empty');
  await showing(page, first.id);

  // J and K step through the queue, oldest first; Z zooms and T turns the document, for reading only.
  await page.keyboard.press('j');
  await expect(counter(page)).toHaveText(`2 of ${total} pending`);
  await page.keyboard.press('k');
  await expect(counter(page)).toHaveText(`1 of ${total} pending`);
  await page.keyboard.press('z');
  await expect(page.getByTestId('review-file')).toHaveAttribute('data-zoom', '1');
  await page.keyboard.press('t');
  await expect(page.getByTestId('review-file')).toHaveAttribute('data-rotation', '90');
  await expect(page.getByTestId('review-rotation')).toHaveText('Turned 90°');
  // ? lists the keys; Escape closes the list and the keys work again.
  await page.keyboard.press('Shift+?');
  await expect(page.getByTestId('review-keys')).toContainText('Approve');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('review-keys')).toBeHidden();
  await expect(page.getByTestId('review-region')).toBeFocused();
  await page.screenshot({ path: `tmp/review-queue-${size}.png` });
  expect(await seriousViolations(page)).toEqual([]);

  // How long the screen takes per clean document, from A to the next document on screen (the keys pressed at
  // once): reported beside the run, never asserted, since it depends on the machine.
  const approvalMs: number[] = [];
  for (const [index, document] of queue.entries()) {
    const left = total - index;
    await expect(counter(page)).toHaveText(`1 of ${left} pending`);
    await showing(page, document.id);
    const player = sent.find((candidate) => document.originalFilename.includes(candidate.lastName));
    if (!player) throw new Error(`no player sent ${document.originalFilename}`);
    const what = document.docType === 'birth_certificate' ? 'birth certificate' : 'medical form';
    const last = index === queue.length - 1;
    if (last) {
      // R opens the reasons; one is picked and sent with the keyboard.
      await page.keyboard.press('r');
      const reject = page.getByTestId('reject-dialog');
      await expect(reject).toBeVisible();
      await expect(reject.getByLabel('Reason for rejection')).toBeFocused();
      await page.keyboard.press('ArrowDown');
      await expect(reject.getByLabel('Reason for rejection')).not.toHaveValue('');
      await tabToAndPress(page, 'Reject Document');
      await expect(reject).toBeHidden();
      await expect(announcement(page)).toHaveText(`Rejected ${player.name}’s ${what}. Nothing left to review.`);
    } else {
      // A opens the approval step with the date already filled in from the document; Enter approves.
      const pressed = Date.now();
      await page.keyboard.press('a');
      const step = page.getByTestId('approve-dialog');
      await expect(step).toBeVisible();
      const date = document.docType === 'birth_certificate' ? step.getByLabel('Date of birth on the certificate') : step.getByLabel('Exam date');
      await expect(date).toHaveValue(document.docType === 'birth_certificate' ? REGISTERED_BIRTH_DATE : EXAM_DATE);
      await expect(date).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(step).toBeHidden();
      await expect(announcement(page)).toHaveText(`Approved ${player.name}’s ${what}. ${left - 1} left.`);
      approvalMs.push(Date.now() - pressed);
    }
    // Focus never falls to the page: it is back on the review region (or the button that opened the step).
    await expect(page.getByTestId('review-region')).toBeFocused();
  }

  await expect(page.getByText('Nothing waiting for review.')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  const sorted = [...approvalMs].sort((a, b) => a - b);
  test.info().annotations.push({
    type: 'approval time',
    description: `A + Enter to the next document, ${size}: median ${sorted[Math.floor(sorted.length / 2)] ?? 0} ms, slowest ${sorted.at(-1) ?? 0} ms over ${sorted.length} clean documents (assertions between the keys included)`,
  });

  // Every approval recorded the date the document showed; the last one is rejected with a reason.
  const after = await Promise.all(queue.map((document) => documentById(page.request, document.id)));
  for (const [index, document] of after.entries()) {
    if (index === after.length - 1) {
      expect(document.status).toBe('rejected');
      expect(document.reviewNotes ?? '').not.toBe('');
    } else if (document.docType === 'birth_certificate') {
      expect(document).toMatchObject({ status: 'verified', facts: { birthDate: REGISTERED_BIRTH_DATE } });
    } else {
      expect(document).toMatchObject({ status: 'verified', facts: { documentDate: EXAM_DATE } });
    }
  }
}

/** A birth certificate that prints another date of birth than the registration's: the row says Differs, and the check says why. */
export async function showsBirthDateMismatch(page: Page, baseURL: string, size: ScreenSize, year: number): Promise<void> {
  await signInByApi(page);
  const season = await makeSeason(page.request, year);
  const player = newTestPlayer('Mismatch');
  await submit(baseURL, season, player, [
    { docType: 'birth_certificate', fileName: `birth-${player.lastName}.pdf`, content: birthCertificate(player, '2013-02-28') },
  ]);
  const [document] = await waitForReadQueue(page.request, season, 1);
  if (!document) throw new Error('the certificate was not stored');
  expect(document.checks.map((check) => check.kind)).toContain('dob_mismatch');

  await page.goto(`/review?season=${season}`);
  await showing(page, document.id);
  const row = page.locator('[data-testid="review-fact"][data-field="Date of birth"]');
  await expect(row).toContainText('Differs');
  await expect(row.locator('[data-comparison="differs"]')).toBeVisible();
  await expect(page.getByTestId('review-checks')).toContainText('but the registration says');
  await page.screenshot({ path: `tmp/review-queue-mismatch-${size}.png` });

  // A opens the step with the certificate's date, which changes the player's: it asks for the tick first.
  await page.keyboard.press('a');
  const step = page.getByTestId('approve-dialog');
  await expect(step.getByLabel('Date of birth on the certificate')).toHaveValue('2013-02-28');
  await expect(step.getByTestId('birth-date-change')).toContainText(`Approving changes ${player.firstName}'s date of birth to`);
  await page.keyboard.press('Escape');
  await expect(step).toBeHidden();
  await expect(page.getByTestId('review-region')).toBeFocused();
  expect((await documentById(page.request, document.id)).status).toBe('pending');
}
