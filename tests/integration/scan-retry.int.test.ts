import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startClamd, type StartedClamd } from '../../scripts/services/start-clamd';
import { ZDocumentList, ZHealth, type TDocumentList } from '../../src/contract';
import { EICAR_TEST_STRING } from '../../src/server/adapters/antivirus/fake-antivirus';
import { loadConfig } from '../../src/server/platform/config';
import { listAuditEvents } from '../../src/server/audit/audit-events.repository';
import { findDocument } from '../../src/server/documents/documents.repository';
import { jobs, registrations } from '../../src/server/platform/db/schema';
import { insertSeasons } from '../../src/server/seasons/seasons.repository';
import { createLogger } from '../../src/server/platform/logger';
import { createClearbase, type Clearbase } from '../../src/server/main';
import { DEFAULT_SCAN_RETRY } from '../../src/server/pipeline/process-document';
import { PROCESS_DOCUMENT_QUEUE } from '../../src/server/pipeline/record-submission';
import { describeEachDatabase } from '../support/databases';
import { injectSignedForm, makePdf } from '../support/multipart';
import { FALL_2025 } from '../support/pipeline';
import { expectSummariesMatchDocuments } from '../support/report-consistency';

const SECRET = 'form-webhook-secret-for-tests';
const PASSWORD = 'scan retry test password';
const HOUR = 3_600_000;
/** The job runner's attempt limit before scan failures could outlast it: the outage below is longer than that. */
const OLD_ATTEMPT_LIMIT = 10;

/**
 * A clamd that stops answering for most of a day, then comes back: documents show the failed scan, are retried
 * on the default backoff (time driven through the job runner's clock, never waited for), and finish by themselves.
 */
describeEachDatabase('virus scans retried while clamd is down', ({ getDatabase, getDb }) => {
  let clamd: StartedClamd | undefined;
  /** clamd's socket, in this test's own folder: stopped and started again, clamd is found where it was. */
  let clamdSocket = '';
  let clearbase: Clearbase | undefined;
  let dataDir = '';
  let cookie = '';
  /** The pipeline's clock: it moves only when the test moves it. */
  let clock = Date.now();

  const app = () => {
    if (!clearbase) throw new Error('not started');
    return clearbase.app;
  };

  const restartClamd = async () => {
    clamd = await startClamd({ socketPath: clamdSocket });
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'cb-scan-retry-'));
    clamdSocket = path.join(dataDir, 'clamd.sock');
    clamd = await startClamd({ socketPath: clamdSocket });
    await insertSeasons(getDb(), [FALL_2025]);
    const config = loadConfig({
      CLEARBASE_DATA_DIR: dataDir,
      CLEARBASE_PASSWORD: PASSWORD,
      CLEARBASE_DEMO: 'false',
      FORM_WEBHOOK_SECRET: SECRET,
      CLAMD_URL: clamd.url,
      // The clock jumps by hours between attempts, never while one runs: nothing is stale.
      PIPELINE_STALE_AFTER_MS: String(24 * HOUR),
    });
    clearbase = await createClearbase(config, createLogger('silent'), {
      readDocuments: false,
      database: getDatabase(),
      webDir: path.join(dataDir, 'none'),
      jobs: { now: () => new Date(clock), pollMs: 10, scanRetry: DEFAULT_SCAN_RETRY },
    });
    const login = await app().inject({ method: 'POST', url: '/api/auth/login', payload: { password: PASSWORD } });
    cookie = [login.headers['set-cookie']].flat().join(';').split(';')[0] ?? '';
  });
  afterAll(async () => {
    await clearbase?.close().catch(() => undefined);
    await clamd?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  const processJobs = () =>
    getDb()
      .select()
      .from(jobs)
      .where(eq(jobs.queue, PROCESS_DOCUMENT_QUEUE));

  /** Waits (in real time) until no process-document job is due at the pipeline's clock or running. */
  async function waitForIdlePipeline(): Promise<void> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const busy = (await processJobs()).some((job) => job.status === 'running' || (job.status === 'queued' && job.runAt.getTime() <= clock));
      if (!busy) return;
      if (Date.now() > deadline) throw new Error('the pipeline did not go idle');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /** Moves the clock to when every waiting job is due, lets them run once, and answers the jobs afterwards. */
  async function runNextAttempts() {
    const waiting = (await processJobs()).filter((job) => job.status === 'queued');
    // Nothing waiting would leave the clock where it is, and a loop driving it would never end.
    if (waiting.length === 0) throw new Error('no job is waiting for another attempt');
    clock = Math.max(clock, ...waiting.map((job) => job.runAt.getTime()));
    clearbase?.jobRunner.poke();
    await waitForIdlePipeline();
    return processJobs();
  }

  const submit = async (externalId: string, lastName: string, files: Array<{ field: string; content: Buffer }>) => {
    const response = await injectSignedForm(
      app(),
      [
        { name: 'submissionId', value: externalId },
        { name: 'season', value: 'fall-2025' },
        { name: 'division', value: 'AA' },
        { name: 'playerFirstName', value: 'Ada' },
        { name: 'playerLastName', value: lastName },
        { name: 'playerBirthDate', value: '2015-12-10' },
        ...files.map((file) => ({ name: file.field, filename: `${file.field}.pdf`, content: file.content })),
      ],
      SECRET,
    );
    expect(response.statusCode, response.body).toBe(202);
    return response.json<{ documents: Array<{ id: string }> }>().documents.map((document) => document.id);
  };

  const antivirusHealth = async () => {
    const response = await app().inject({ method: 'GET', url: '/api/health', headers: { cookie } });
    return ZHealth.parse(response.json()).services.antivirus;
  };
  const listDocuments = async (query: string): Promise<TDocumentList> => {
    const response = await app().inject({ method: 'GET', url: `/api/documents?${query}`, headers: { cookie } });
    expect(response.statusCode, response.body).toBe(200);
    return ZDocumentList.parse(response.json());
  };
  const registrationOf = async (lastName: string) => {
    const [row] = await getDb()
      .select()
      .from(registrations)
      .where(and(eq(registrations.seasonId, 'fall-2025'), eq(registrations.lastName, lastName)));
    return row;
  };

  it('shows the failed scan after the first attempts, keeps retrying for most of a day, and finishes by itself once clamd is back', async () => {
    await clamd?.stop();
    const ids = await submit('outage-1', 'Outage', [
      { field: 'birth_certificate', content: makePdf('birth certificate') },
      { field: 'medical', content: makePdf('medical form') },
      { field: 'waiver', content: makePdf('waiver') },
      // Infected: once clamd answers, a virus is a rejection, not another failure.
      { field: 'residency', content: Buffer.concat([makePdf('residency'), Buffer.from(EICAR_TEST_STRING)]) },
    ]);
    expect(ids).toHaveLength(4);
    await waitForIdlePipeline();

    // The first attempts fail quietly; after the third the documents are shown as waiting for a failed scan.
    for (let attempt = 1; attempt < DEFAULT_SCAN_RETRY.showAfterFailures; attempt++) {
      await runNextAttempts();
      for (const id of ids) expect(await findDocument(getDb(), id)).toMatchObject({ status: 'processing', scanFailedAt: null });
    }
    await runNextAttempts();
    for (const id of ids) expect((await findDocument(getDb(), id))?.scanFailedAt).not.toBeNull();

    // Far past the old limit of attempts and 20 hours on, every job is still queued and every document waiting.
    const outageStart = clock;
    let waiting = await processJobs();
    while (clock < outageStart + 20 * HOUR) waiting = await runNextAttempts();
    expect(waiting.map((job) => job.status)).toEqual(['queued', 'queued', 'queued', 'queued']);
    expect(Math.min(...waiting.map((job) => job.attempts))).toBeGreaterThan(OLD_ATTEMPT_LIMIT);
    // The waits grew to the 30-minute cap and no further.
    expect(Math.max(...waiting.map((job) => job.runAt.getTime() - clock))).toBeLessThanOrEqual(DEFAULT_SCAN_RETRY.backoff.maxMs);

    const listed = await listDocuments('search=Outage');
    expect(listed.documents.map((document) => [document.status, document.scanFailed])).toEqual(Array(4).fill(['processing', true]));
    expect((await listDocuments('status=scan_failed')).total).toBe(4);
    // clamd's own error names its address: that stays in the log.
    expect(await antivirusHealth()).toEqual({
      status: 'error',
      message: '4 documents wait for a virus scan that failed; they are retried automatically. The virus scanner did not answer. The details are in the server log.',
    });
    // For the player's registration they are processing: neither complete nor missing.
    expect(await registrationOf('Outage')).toMatchObject({
      birthCertificateStatus: 'processing',
      residencyStatus: 'processing',
      medicalStatus: 'processing',
      waiverStatus: 'processing',
      completeTypes: 0,
      pendingTypes: 0,
    });
    await expectSummariesMatchDocuments(getDb());
    const trail = (await listAuditEvents(getDb(), 'document', ids[0] ?? '')).map((event) => event.action);
    expect(trail.filter((action) => action === 'document.scan_failed')).toHaveLength(1);

    // clamd returns; the next scheduled attempt finishes every document, nobody presses anything.
    await restartClamd();
    const health = await antivirusHealth();
    expect(health.status).toBe('warning');
    expect(health.message).toMatch(/^4 documents wait for a virus scan that failed; they are retried automatically\. ClamAV /);
    await runNextAttempts();
    const [birth, medical, waiver, residency] = await Promise.all(ids.map((id) => findDocument(getDb(), id)));
    for (const document of [birth, medical, waiver]) {
      expect(document).toMatchObject({ status: 'pending', scanFailedAt: null, scanFirstFailedAt: null, stagedKey: null });
      expect(document?.storageKey).toMatch(/^seasons\/2025\/AA\//);
    }
    expect(residency).toMatchObject({ status: 'rejected', scanFailedAt: null, scanFirstFailedAt: null });
    expect(residency?.reviewNotes).toMatch(/^Virus found: Eicar-Test-Signature/);
    expect((await processJobs()).map((job) => job.status)).toEqual(['done', 'done', 'done', 'done']);
    expect((await listDocuments('status=scan_failed')).total).toBe(0);
    expect((await antivirusHealth()).status).toBe('ok');
    expect(await registrationOf('Outage')).toMatchObject({ birthCertificateStatus: 'pending', residencyStatus: 'missing', pendingTypes: 3 });
    await expectSummariesMatchDocuments(getDb());
  });

  it('after a day of failures stops retrying but keeps showing the failed scan; Retry runs it again at once', async () => {
    await getDb().delete(jobs);
    await clamd?.stop();
    const [id = ''] = await submit('outage-2', 'Longoutage', [{ field: 'medical', content: makePdf('medical, long outage') }]);
    await waitForIdlePipeline();
    let [job] = await processJobs();
    while (job?.status === 'queued') [job] = await runNextAttempts();

    // The last attempt ran a day after the first failure, to the millisecond, and the job gave up.
    expect(job?.status).toBe('failed');
    expect(clock - ((await findDocument(getDb(), id))?.scanFirstFailedAt?.getTime() ?? 0)).toBe(DEFAULT_SCAN_RETRY.budgetMs);
    expect(await findDocument(getDb(), id)).toMatchObject({ status: 'processing', scanFailedAt: expect.any(Date) as Date });
    expect((await listDocuments('search=Longoutage')).documents[0]).toMatchObject({ status: 'processing', scanFailed: true });
    expect((await antivirusHealth()).message).toMatch(/^1 document waits for a virus scan that has failed for a day; press Retry on the Documents screen\. /);
    expect((await listAuditEvents(getDb(), 'document', id)).map((event) => event.action)).toContain('document.scan_retries_stopped');

    // Retry while clamd is still down: queued again at once, fails again, still shown, and retried for another day.
    const retry = () => app().inject({ method: 'POST', url: `/api/documents/${id}/retry-scan`, headers: { cookie } });
    const first = await retry();
    expect(first.statusCode, first.body).toBe(202);
    expect(first.json()).toEqual({ id, message: 'The virus scan of medical.pdf will run again now.' });
    // The workers were woken: the attempt has run by now (the first of a fresh count), not at a scheduled time.
    await waitForIdlePipeline();
    [job] = await processJobs();
    expect(job).toMatchObject({ status: 'queued', attempts: 1 });
    expect(await findDocument(getDb(), id)).toMatchObject({ status: 'processing', scanFailedAt: expect.any(Date) as Date, scanFirstFailedAt: new Date(clock) });

    // clamd back, Retry again: the scan runs now, not at the next scheduled attempt.
    await restartClamd();
    const second = await retry();
    expect(second.statusCode, second.body).toBe(202);
    [job] = await processJobs();
    expect(job?.runAt.getTime()).toBeLessThanOrEqual(Date.now());
    await waitForIdlePipeline();
    expect(await findDocument(getDb(), id)).toMatchObject({ status: 'pending', scanFailedAt: null });
    const trail = await listAuditEvents(getDb(), 'document', id);
    expect(trail.filter((event) => event.action === 'document.scan_retry_requested')).toHaveLength(2);

    // Nothing to retry any more; an unknown document is not found; the route is private like every /api route.
    const again = await retry();
    expect(again.statusCode).toBe(409);
    expect(again.json<{ message: string }>().message).toBe(`Document ${id} is not waiting for a virus scan that failed: there is nothing to retry.`);
    const unknown = await app().inject({ method: 'POST', url: '/api/documents/00000000-0000-4000-8000-000000000000/retry-scan', headers: { cookie } });
    expect(unknown.statusCode).toBe(404);
    const anonymous = await app().inject({ method: 'POST', url: `/api/documents/${id}/retry-scan` });
    expect(anonymous.statusCode).toBe(401);
    await expectSummariesMatchDocuments(getDb());
  });
});
