import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { DOC_TYPE_LABELS, DOC_TYPES, ZMissingReport, ZPlayerReport, type TDocument, type TPlayerReport } from '../../src/contract';
import { seriousViolations } from './axe-support';
import { answerApprovalStep } from './documents-helpers';
import { startPrivateServer, type PrivateServer } from './private-server';
import { playerRows } from './players-support';

/**
 * The player's story in the player dialog, shared by player-story.spec.ts (1280 px) and player-story.phone.spec.ts
 * (390 px), on a server of the spec's own (tests/e2e/private-server.ts) with the demo data, where a named
 * moderator is signed in (a `users` and a `sessions` row, as roles-support.ts writes them), so the timeline can
 * show the review under their name: the dialog names the missing documents, Reject opens the reject dialog and
 * Escape gives focus back to Reject, Approve moves the document to Verified and the timeline gains the approval
 * by that person; no storage path shows anywhere in the dialog, only where the file is kept, in words.
 */

type Size = { phone: boolean };

/** A demo player with a document waiting for review and a required type of which nothing was ever sent. */
type Candidate = { report: TPlayerReport; pending: TDocument; missing: string[] };

async function signInAsModerator(server: PrivateServer, page: Page, name: { first: string; last: string }): Promise<void> {
  const inserted = await server.db.query<{ id: string }>(
    `insert into users (email, first_name, last_name, role, status) values ($1, $2, $3, 'moderator', 'active') returning id`,
    [`story-${randomUUID()}@story.e2e.example`, name.first, name.last],
  );
  const userId = inserted.rows[0]?.id;
  if (!userId) throw new Error('the user row was not inserted');
  const token = randomBytes(32).toString('base64url');
  const sessionId = createHash('sha256').update(token).digest('hex');
  await server.db.query(`insert into sessions (id, expires_at, last_seen_at, user_id) values ($1, now() + interval '1 hour', now(), $2)`, [sessionId, userId]);
  await page.context().addCookies([{ name: 'cb_session', value: token, url: server.url, httpOnly: true, sameSite: 'Strict' }]);
}

/** Reads the demo data through the API, as the signed-in moderator: the first player that fits. */
async function findCandidate(page: Page, server: PrivateServer): Promise<Candidate> {
  const list = await page.request.get(`${server.url}/api/report/missing?status=pending&pageSize=200`);
  expect(list.status()).toBe(200);
  for (const row of ZMissingReport.parse(await list.json()).players) {
    if (!DOC_TYPES.some((type) => row.documentsStatus[type] === 'missing')) continue;
    const answer = await page.request.get(`${server.url}/api/report/player?player_id=${encodeURIComponent(row.playerId)}`);
    expect(answer.status()).toBe(200);
    const report = ZPlayerReport.parse(await answer.json());
    const pending = report.documents.find((document) => document.status === 'pending' && document.docType !== null);
    const missing = DOC_TYPES.filter((type) => row.documentsStatus[type] === 'missing' && !report.documents.some((document) => document.docType === type));
    if (pending && missing.length > 0) return { report, pending, missing: missing.map((type) => DOC_TYPE_LABELS[type]) };
  }
  throw new Error('no demo player has a document under review and a type never sent');
}

async function press(locator: Locator, { phone }: Size): Promise<void> {
  if (phone) await locator.tap();
  else await locator.click();
}

export function describePlayerStory(size: Size): void {
  let server: PrivateServer | undefined;
  const own = (): PrivateServer => {
    if (!server) throw new Error('the player story server did not start');
    return server;
  };

  test.beforeAll(async () => {
    test.setTimeout(300_000);
    server = await startPrivateServer({ name: 'story' });
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test('names the missing documents, reviews from the dialog, and the timeline gains the approval by name', async ({ page }) => {
    const reviewer = { first: 'Robin', last: `Story${randomBytes(3).toString('hex')}` };
    const reviewerName = `${reviewer.first} ${reviewer.last}`;
    await signInAsModerator(own(), page, reviewer);
    const { report, pending, missing } = await findCandidate(page, own());
    const label = pending.docType ? DOC_TYPE_LABELS[pending.docType] : '';

    await page.goto(`${own().url}/players?search=${encodeURIComponent(report.status.playerId)}`);
    const row = playerRows(page).filter({ hasText: report.status.playerId });
    await press(row.getByTestId('player-name'), size);
    const dialog = page.getByTestId('player-detail-dialog');
    await expect(dialog.getByTestId('player-detail-id')).toHaveText(report.status.playerId);

    // Each required document with its state; the ones never sent named in words.
    await expect(dialog.getByTestId('required-document')).toHaveCount(DOC_TYPES.length);
    await expect(dialog.getByTestId('missing-documents')).toContainText(`Missing: ${missing.join(', ')}`);
    for (const type of missing) {
      await expect(dialog.getByTestId('required-document').filter({ hasText: type }).locator('[data-status="missing"]')).toHaveText('Missing');
    }

    const timeline = dialog.getByTestId('player-timeline');
    await expect(timeline.getByTestId('timeline-entry').first()).toBeVisible();
    const mine = timeline.getByTestId('timeline-entry').filter({ has: page.getByTestId('timeline-who').getByText(reviewerName, { exact: true }) });
    await expect(mine).toHaveCount(0);

    const item = dialog.locator(`[data-document-id="${pending.id}"]`);
    await dialog.getByRole('heading', { name: 'Required documents' }).evaluate((element) => element.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: test.info().outputPath(`player-story-${size.phone ? 'phone' : 'desktop'}.png`) });

    // Reject opens the reject dialog above the player; Escape closes it and gives focus back to Reject.
    const rejectButton = item.getByRole('button', { name: /^Reject/ });
    await rejectButton.focus();
    await page.keyboard.press('Enter');
    const rejectDialog = page.getByTestId('reject-dialog');
    await expect(rejectDialog).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(rejectDialog).toBeHidden();
    await expect(dialog).toBeVisible();
    await expect(rejectButton).toBeFocused();

    // Approve: the document is Verified, and the newest entry of the timeline is that approval, by name.
    await press(item.getByRole('button', { name: /^Approve/ }), size);
    await answerApprovalStep(page, pending.docType);
    const approved = page.getByRole('status').filter({ hasText: 'Document Approved' });
    await expect(approved).toBeVisible();
    await expect(item).toHaveAttribute('data-status', 'verified');
    await expect(item.getByRole('button', { name: /^Approve/ })).toHaveCount(0);
    await expect(mine).toHaveCount(1);
    await expect(mine).toContainText(`${label} approved`);
    await expect(timeline.getByTestId('timeline-entry').first()).toContainText(reviewerName);

    // Screen readers: nothing serious or critical in the dialog with its timeline.
    expect(await seriousViolations(page)).toEqual([]);

    // No storage location anywhere: where a file is kept is said in words.
    await expect(dialog.getByTestId('storage-words').first()).toHaveText('Stored encrypted on this server');
    const text = (await dialog.textContent()) ?? '';
    for (const path of ['file://', 's3://', 'local:', 'seasons/']) expect(text).not.toContain(path);
    // Copy upload link gives the family a link, not a storage location.
    await expect(dialog.getByRole('button', { name: /^Copy(?! upload link)/ })).toHaveCount(0);

    if (size.phone) {
      // The dialog fits the phone and scrolls; the timeline is a list as wide as the dialog.
      expect(await dialog.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(0);
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
      const box = await timeline.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
    }
    // Escape closes the top layer first: the toast, then (below) the dialog.
    await page.keyboard.press('Escape');
    await expect(approved).toBeHidden();
    await expect(dialog).toBeVisible();
    await dialog.getByRole('heading', { name: 'Timeline' }).evaluate((element) => element.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: test.info().outputPath(`player-story-timeline-${size.phone ? 'phone' : 'desktop'}.png`) });

    // Closing the player dialog gives focus back to the name that opened it.
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(row.getByTestId('player-name')).toBeFocused();
  });
}
