import type { AddressInfo } from 'node:net';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ZApiError } from '../../src/contract';
import { loadConfig } from '../../src/server/platform/config';
import { auditEvents, documents, jobs, players, registrations, submissions } from '../../src/server/platform/db/schema';
import { signBody } from '../../src/server/intake/form/form-webhook';
import { createLogger } from '../../src/server/platform/logger';
import { createClearbase, type Clearbase } from '../../src/server/main';
import { PROCESS_DOCUMENT_QUEUE } from '../../src/server/pipeline/record-submission';
import { describeEachDatabase } from '../support/databases';
import { buildMultipart, makePdf, type Part } from '../support/multipart';
import { FALL_2025, SPRING_2025 } from '../support/pipeline';
import { openRawRequest, type RawRequest } from '../support/raw-http';
import { insertSeasons } from '../../src/server/seasons/seasons.repository';

const SECRET = 'form-webhook-secret-for-abuse-tests';
const MAX_FILE_BYTES = 1024 * 1024;
// Long enough for a loaded machine to stage the first files before it passes.
const BODY_TIMEOUT_MS = 5_000;
const RATE_LIMIT = 4;
const GUARDIAN_EMAIL = 'niamh.quigley@example.org';
const MARKER = 'birth certificate of Saoirse';

const fields = (submissionId: string): Part[] => [
  { name: 'submissionId', value: submissionId },
  { name: 'season', value: '2025' },
  { name: 'division', value: 'AA' },
  { name: 'playerFirstName', value: 'Saoirse' },
  { name: 'playerLastName', value: 'Quigley' },
  { name: 'playerBirthDate', value: '2014-05-03' },
  { name: 'guardianName', value: 'Niamh Quigley' },
  { name: 'guardianEmail', value: GUARDIAN_EMAIL },
];

/**
 * Four files of 700 KB: the body (2.8 MB) goes to its intake thread in 1 MiB batches, so the first files
 * are staged (encrypted) long before the body's end, and its signature's verdict, is known.
 */
const fourFiles = (submissionId: string): Part[] => [
  ...fields(submissionId),
  { name: 'birth_certificate', filename: 'birth.pdf', content: makePdf(MARKER, 700_000), contentType: 'application/pdf' },
  { name: 'residency', filename: 'residency.pdf', content: makePdf('residency', 700_000), contentType: 'application/pdf' },
  { name: 'medical', filename: 'medical.pdf', content: makePdf('medical', 700_000), contentType: 'application/pdf' },
  { name: 'waiver', filename: 'waiver.pdf', content: makePdf('waiver', 700_000), contentType: 'application/pdf' },
];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeEachDatabase('form webhook abuse', ({ getDatabase }) => {
  let clearbase: Clearbase | undefined;
  let dataDir = '';
  let port = 0;
  const lines: string[] = [];
  const app = () => {
    if (!clearbase) throw new Error('not started');
    return clearbase.app;
  };
  // Every test sends from an address of its own (TRUST_PROXY), so the rate limit of one is not spent by another.
  let nextAddress = 1;
  const freshAddress = () => `198.51.100.${nextAddress++}`;

  const stagingFiles = async () => {
    const entries = await readdir(path.join(dataDir, 'storage', 'staging'), { recursive: true, withFileTypes: true }).catch(() => []);
    return entries.filter((entry) => entry.isFile()).map((entry) => entry.name);
  };
  const waitFor = async (what: string, done: () => Promise<boolean>) => {
    const deadline = Date.now() + 15_000;
    while (!(await done())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
      await sleep(10);
    }
  };
  /** Rows an intake could have written: none of these may exist after a refused or abandoned request. */
  const rowsLeft = async () => {
    const { db } = getDatabase();
    return {
      submissions: await db.$count(submissions),
      documents: await db.$count(documents),
      players: await db.$count(players),
      registrations: await db.$count(registrations),
      auditEvents: await db.$count(auditEvents),
      pipelineJobs: await db.$count(jobs, eq(jobs.queue, PROCESS_DOCUMENT_QUEUE)),
    };
  };
  const NOTHING = { submissions: 0, documents: 0, players: 0, registrations: 0, auditEvents: 0, pipelineJobs: 0 };

  const openForm = (body: Buffer, headers: Record<string, string>): Promise<RawRequest> =>
    openRawRequest({ port, path: '/api/intake/form', contentLength: body.length, headers: { 'x-forwarded-for': freshAddress(), ...headers } });

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'cb-intake-abuse-'));
    const config = loadConfig({
      CLEARBASE_DATA_DIR: dataDir,
      CLEARBASE_PASSWORD: 'abuse test password',
      CLEARBASE_DEMO: 'false',
      FORM_WEBHOOK_SECRET: SECRET,
      MAX_FILE_BYTES: String(MAX_FILE_BYTES),
      FORM_WEBHOOK_BODY_TIMEOUT_MS: String(BODY_TIMEOUT_MS),
      FORM_WEBHOOK_RATE_LIMIT: String(RATE_LIMIT),
      TRUST_PROXY: 'true',
      // One thread, started before the tests: its first start (seconds) must not eat a test's body time limit.
      INTAKE_THREADS: '1',
    });
    await insertSeasons(getDatabase().db, [SPRING_2025, FALL_2025]);
    const log = createLogger('info', { write: (line: string) => void lines.push(line) });
    clearbase = await createClearbase(config, log, { readDocuments: false, database: getDatabase(), webDir: path.join(dataDir, 'none') });
    await app().listen({ host: '127.0.0.1', port: 0 });
    port = (app().server.address() as AddressInfo).port;
    const warmUp = buildMultipart(fourFiles('form-warm-up'));
    const refused = await app().inject({
      method: 'POST',
      url: '/api/intake/form',
      payload: warmUp.body,
      headers: { 'content-type': warmUp.contentType, 'x-clearbase-signature': `sha256=${'00'.repeat(32)}`, 'x-forwarded-for': '192.0.2.1' },
    });
    expect(refused.statusCode).toBe(401);
  });
  afterAll(async () => {
    await clearbase?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('answers a multipart body that trickles in too slowly 408, closes the connection and keeps none of its staged files', async () => {
    const { body, contentType } = buildMultipart(fourFiles('form-slow'));
    const request = await openForm(body, { 'content-type': contentType, 'x-clearbase-signature': signBody(SECRET, body) });
    // Most of the body at once: its first files are staged while the rest trickles in, a byte at a time.
    let sent = Math.floor(body.length * 0.6);
    await request.write(body.subarray(0, sent));
    await waitFor('a file is staged', async () => (await stagingFiles()).length > 0);
    let answered = false;
    void request.response.finally(() => {
      answered = true;
    });
    while (!answered && sent < body.length - 1) {
      await request.write(body.subarray(sent, sent + 1));
      sent += 1;
      await sleep(50);
    }

    const response = await request.response;
    expect(response.status).toBe(408);
    expect(ZApiError.parse(JSON.parse(response.body))).toMatchObject({ code: 'REQUEST_TIMEOUT', message: expect.stringMatching(/within 5 seconds/) as string });
    expect(response.headers.connection).toBe('close');
    await request.closed; // by the server: the sender cannot keep it
    expect(sent).toBeLessThan(body.length - 1);
    expect(await stagingFiles()).toEqual([]);
    expect(await rowsLeft()).toEqual(NOTHING);
  });

  it('answers a JSON body that stalls 408 and closes the connection', async () => {
    const body = Buffer.from(JSON.stringify({ submissionId: 'form-slow-json', season: '2025', files: [{ url: 'https://files.example.org/a.pdf', filename: 'a.pdf' }] }));
    const request = await openForm(body, { 'content-type': 'application/json', 'x-clearbase-signature': signBody(SECRET, body) });
    await request.write(body.subarray(0, 20));

    const response = await request.response;
    expect(response.status).toBe(408);
    expect(JSON.parse(response.body)).toMatchObject({ code: 'REQUEST_TIMEOUT' });
    await request.closed;
    expect(await rowsLeft()).toEqual(NOTHING);
  });

  it('refuses a wrong signature over several staged files with 401 after deleting every one, and logs one line without the body', async () => {
    const { body, contentType } = buildMultipart(fourFiles('form-forged'));
    const request = await openForm(body, { 'content-type': contentType, 'x-clearbase-signature': `sha256=${'ab'.repeat(32)}` });
    const linesBefore = lines.length;
    const half = Math.floor(body.length / 2);
    await request.write(body.subarray(0, half));
    await waitFor('a file is staged', async () => (await stagingFiles()).length > 0);
    await request.write(body.subarray(half));

    const response = await request.response;
    expect(response.status).toBe(401);
    expect(JSON.parse(response.body)).toMatchObject({ code: 'UNAUTHENTICATED', message: 'Missing or invalid X-Clearbase-Signature.' });
    // Checked at the answer, not after a wait: the files are gone before the 401 is sent.
    expect(await stagingFiles()).toEqual([]);
    expect(await rowsLeft()).toEqual(NOTHING);

    const logged = lines.slice(linesBefore);
    const refusals = logged.filter((line) => line.includes('signature'));
    expect(refusals).toHaveLength(1);
    expect(JSON.parse(refusals[0] ?? '{}')).toMatchObject({ level: 40, msg: 'form webhook refused: missing or wrong signature' });
    const all = logged.join('');
    for (const secret of [GUARDIAN_EMAIL, MARKER, 'Saoirse', 'form-forged']) expect(all).not.toContain(secret);
    request.socket.destroy();
  });

  it.each([
    ['a good signature', (body: Buffer) => signBody(SECRET, body)],
    ['a wrong signature', () => `sha256=${'cd'.repeat(32)}`],
  ])('deletes what a body with %s staged when its connection is cut mid-body', async (_name, sign) => {
    const { body, contentType } = buildMultipart(fourFiles('form-cut'));
    const request = await openForm(body, { 'content-type': contentType, 'x-clearbase-signature': sign(body) });
    await request.write(body.subarray(0, Math.floor(body.length * 0.7)));
    await waitFor('two files are staged', async () => (await stagingFiles()).length >= 2);
    request.socket.destroy();

    await waitFor('staging is empty', async () => (await stagingFiles()).length === 0);
    expect(await rowsLeft()).toEqual(NOTHING);
  });

  it(`limits each address to ${RATE_LIMIT} requests a minute with 429 RATE_LIMITED and Retry-After, before reading the body`, async () => {
    const { body, contentType } = buildMultipart(fields('form-flood'));
    const send = (address: string, signature = signBody(SECRET, body)) =>
      app().inject({
        method: 'POST',
        url: '/api/intake/form',
        payload: body,
        headers: { 'content-type': contentType, 'x-clearbase-signature': signature, 'x-forwarded-for': address },
      });
    const flooder = freshAddress();
    // Refused for their signature, but counted all the same: the limit is on requests, not on successes.
    for (let i = 0; i < RATE_LIMIT; i++) expect((await send(flooder, 'sha256=00')).statusCode).toBe(401);
    const limited = await send(flooder);
    expect(limited.statusCode).toBe(429);
    expect(ZApiError.parse(limited.json())).toMatchObject({ code: 'RATE_LIMITED', message: expect.stringMatching(/^Too many form submissions from this address\. Try again in \d+ seconds\.$/) as string });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    // Another address is not affected (its form has no files, so it is refused for that, not limited).
    const other = await send(freshAddress());
    expect(other.statusCode).toBe(400);
    expect(await rowsLeft()).toEqual(NOTHING);
  });
});
