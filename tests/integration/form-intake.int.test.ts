import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ZServerMessage, type TServerMessage } from '../../src/contract';
import { loadConfig } from '../../src/server/platform/config';
import { decryptToBuffer } from '../../src/server/platform/crypto/envelope';
import { listAuditEvents } from '../../src/server/audit/audit-events.repository';
import { countDocuments } from '../../src/server/documents/documents.repository';
import { insertSeasons } from '../../src/server/seasons/seasons.repository';
import { countSubmissions } from '../../src/server/pipeline/submissions.repository';
import { signBody } from '../../src/server/intake/form/form-webhook';
import { createLogger } from '../../src/server/platform/logger';
import { createClearbase, type Clearbase } from '../../src/server/main';
import { describeEachDatabase } from '../support/databases';
import { FALL_2025, SPRING_2025, waitForSettledDocument } from '../support/pipeline';
import { buildMultipart, makePdf, PNG_HEADER, type Part } from '../support/multipart';

const SECRET = 'form-webhook-secret-for-tests';
const PASSWORD = 'intake test password';
const MAX_FILE_BYTES = 256 * 1024;

const playerFields = (submissionId: string): Part[] => [
  { name: 'submissionId', value: submissionId },
  { name: 'season', value: '2025' },
  { name: 'division', value: 'AA' },
  { name: 'playerFirstName', value: 'Zoë' },
  { name: 'playerLastName', value: "O'Brien" },
  { name: 'playerBirthDate', value: '2014-05-03' },
  { name: 'guardianName', value: 'Maeve O’Brien' },
  { name: 'guardianEmail', value: 'maeve@example.org' },
  { name: 'guardianPhone', value: '555-0142' },
];

describeEachDatabase('form webhook to encrypted storage', ({ getDatabase }) => {
  let clearbase: Clearbase | undefined;
  let dataDir = '';
  let masterKey = Buffer.alloc(0);
  const app = () => {
    if (!clearbase) throw new Error('not started');
    return clearbase.app;
  };
  const submit = (parts: Part[], options: { sign?: string | null; truncate?: number } = {}) => {
    const { body, contentType } = buildMultipart(parts);
    const sent = options.truncate ? body.subarray(0, options.truncate) : body;
    const signature = options.sign === null ? undefined : (options.sign ?? signBody(SECRET, sent));
    return app().inject({
      method: 'POST',
      url: '/api/intake/form',
      payload: sent,
      headers: { 'content-type': contentType, ...(signature ? { 'x-clearbase-signature': signature } : {}) },
    });
  };
  const waitForStatus = async (id: string, wanted: string[]) => {
    const document = await waitForSettledDocument(getDatabase().db, id);
    expect(wanted).toContain(document.status);
    return document;
  };
  const stagingLeft = async () => {
    const dir = path.join(dataDir, 'storage', 'staging');
    const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
    return entries.filter((e) => e.isFile()).length;
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'cb-intake-'));
    const config = loadConfig({
      CLEARBASE_DATA_DIR: dataDir,
      CLEARBASE_PASSWORD: PASSWORD,
      CLEARBASE_DEMO: 'false',
      FORM_WEBHOOK_SECRET: SECRET,
      MAX_FILE_BYTES: String(MAX_FILE_BYTES),
      CLEARBASE_LOGIN_RATE_LIMIT: '1000',
    });
    await insertSeasons(getDatabase().db, [SPRING_2025, FALL_2025]);
    clearbase = await createClearbase(config, createLogger('silent'), { readDocuments: false, database: getDatabase(), webDir: path.join(dataDir, 'none') });
    masterKey = Buffer.from((await readFile(path.join(dataDir, 'master.key'), 'utf8')).trim(), 'base64');
  });
  afterAll(async () => {
    await clearbase?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('stores a signed submission encrypted under its stored path, records it with its audit, and tells every open screen', async () => {
    const address = await app().listen({ host: '127.0.0.1', port: 0 });
    const login = await app().inject({ method: 'POST', url: '/api/auth/login', payload: { password: PASSWORD } });
    const cookie = [login.headers['set-cookie']].flat().join(';').split(';')[0] ?? '';
    const received: TServerMessage[] = [];
    const socket = new WebSocket(`${address.replace('http', 'ws')}/ws`, { headers: { cookie, origin: address } });
    await new Promise((resolve) => socket.once('message', resolve));
    socket.on('message', (data: Buffer) => received.push(ZServerMessage.parse(JSON.parse(data.toString('utf8')))));

    const pdf = makePdf('birth certificate of Zoe', 50_000);
    const response = await submit([...playerFields('form-1001'), { name: 'birth_certificate', filename: 'Zoe birth cert.pdf', content: pdf, contentType: 'application/pdf' }]);
    expect(response.statusCode).toBe(202);
    const body = response.json<{ submissionId: string; duplicate: boolean; documents: Array<{ id: string; status: string }> }>();
    expect(body.duplicate).toBe(false);
    expect(body.documents).toEqual([{ id: expect.any(String) as string, status: 'processing' }]);
    const documentId = body.documents[0]?.id ?? '';

    const stored = await waitForStatus(documentId, ['pending']);
    expect(stored.docType).toBe('birth_certificate');
    expect(stored.storedPath).toMatch(
      new RegExp(`^seasons/2025/AA/zoe_obrien_2014-05-03_CB-2025-[0-9a-f]{8}/zoe_obrien_2014-05-03_birth_certificate_${body.submissionId}_${stored.fileSha256?.slice(0, 8)}\\.pdf$`),
    );
    expect(stored.fileSha256).toBe(createHash('sha256').update(pdf).digest('hex'));
    expect(stored.stagedKey).toBeNull();
    expect(stored.retainUntil?.getUTCFullYear()).toBe(stored.uploadedAt.getUTCFullYear() + 7);

    // Encryption at rest: the object differs from the file, decrypts back to it, and a flipped bit fails.
    const ciphertext = await readFile(path.join(dataDir, 'storage', stored.storageKey ?? ''));
    expect(ciphertext.length).toBe(pdf.length);
    expect(ciphertext.includes(Buffer.from('%PDF'))).toBe(false);
    const envelope = { wrappedKey: stored.wrappedKey ?? Buffer.alloc(0), iv: stored.iv ?? Buffer.alloc(0), authTag: stored.authTag ?? Buffer.alloc(0) };
    const plaintext = await decryptToBuffer(masterKey, envelope, ciphertext);
    expect(createHash('sha256').update(plaintext).digest('hex')).toBe(stored.fileSha256);
    const tampered = Buffer.from(ciphertext);
    tampered[100] = (tampered[100] ?? 0) ^ 0x01;
    await expect(decryptToBuffer(masterKey, envelope, tampered)).rejects.toThrow(/failed authentication/);

    const audit = await listAuditEvents(getDatabase().db, 'document', documentId);
    expect(audit.map((a) => a.action)).toContain('document.stored');
    expect(await stagingLeftAfterJobs()).toBe(0);

    const deadline = Date.now() + 5_000;
    while (!received.some((m) => m.type === 'document_uploaded') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    socket.close(1000);
    expect(received).toContainEqual({ type: 'document_uploaded', data: { documentId, playerName: "Zoë O'Brien", docType: 'birth_certificate', division: 'AA' } });
  });

  it('answers a replayed submission with its first result and creates nothing', async () => {
    const before = { documents: await countDocuments(getDatabase().db), submissions: await countSubmissions(getDatabase().db) };
    const first = await submit([...playerFields('form-2002'), { name: 'medical', filename: 'physical.pdf', content: makePdf('medical') }]);
    const replay = await submit([...playerFields('form-2002'), { name: 'medical', filename: 'physical.pdf', content: makePdf('medical') }]);
    expect(replay.statusCode).toBe(202);
    expect(replay.json()).toMatchObject({ submissionId: first.json<{ submissionId: string }>().submissionId, duplicate: true });
    expect(await countDocuments(getDatabase().db)).toBe(before.documents + 1);
    expect(await countSubmissions(getDatabase().db)).toBe(before.submissions + 1);
    expect(await stagingLeftAfterJobs()).toBe(0);
  });

  it('answers twins sent at once (same submission id) with one result, whichever commits first', async () => {
    const before = { documents: await countDocuments(getDatabase().db), submissions: await countSubmissions(getDatabase().db) };
    const twin = () => submit([...playerFields('form-2102'), { name: 'medical', filename: 'physical.pdf', content: makePdf('twin medical') }]);
    const answers = await Promise.all([twin(), twin(), twin(), twin()]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([202, 202, 202, 202]);
    const bodies = answers.map((answer) => answer.json<{ submissionId: string; duplicate: boolean; documents: Array<{ id: string }> }>());
    expect(new Set(bodies.map((body) => body.submissionId)).size).toBe(1);
    expect(new Set(bodies.map((body) => body.documents[0]?.id)).size).toBe(1);
    expect(bodies.filter((body) => !body.duplicate)).toHaveLength(1);
    expect(await countDocuments(getDatabase().db)).toBe(before.documents + 1);
    expect(await countSubmissions(getDatabase().db)).toBe(before.submissions + 1);
    expect(await stagingLeftAfterJobs()).toBe(0);
  });

  it('records the same file for the same player once, and says so', async () => {
    const file = makePdf('waiver signed');
    const first = await submit([...playerFields('form-3003'), { name: 'waiver', filename: 'waiver.pdf', content: file }]);
    const firstId = first.json<{ documents: Array<{ id: string }> }>().documents[0]?.id;
    const second = await submit([...playerFields('form-3004'), { name: 'waiver', filename: 'waiver-again.pdf', content: file }]);
    expect(second.statusCode).toBe(202);
    expect(second.json<{ documents: unknown[] }>().documents).toEqual([
      { id: firstId, status: expect.any(String) as string, duplicateOf: firstId, message: 'This exact file was already received for this player and season.' },
    ]);
  });

  describe('bad input: a clear error, nothing stored, never a 5xx', () => {
    it.each([
      ['no signature', null, 401],
      ['a wrong signature', `sha256=${'0'.repeat(64)}`, 401],
      ['a malformed signature', 'md5=abc', 401],
    ])('refuses %s', async (_name, sign, status) => {
      const before = await countSubmissions(getDatabase().db);
      const response = await submit([...playerFields('form-sig'), { name: 'medical', filename: 'm.pdf', content: makePdf('x') }], { sign });
      expect(response.statusCode).toBe(status);
      expect(response.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
      expect(await countSubmissions(getDatabase().db)).toBe(before);
      expect(await stagingLeftAfterJobs()).toBe(0);
    });

    it('names every bad field', async () => {
      const response = await submit([
        { name: 'submissionId', value: 'form-bad' },
        { name: 'season', value: 'someday' },
        { name: 'division', value: 'Z' },
        { name: 'playerFirstName', value: '' },
        { name: 'playerBirthDate', value: '2014-02-30' },
        { name: 'guardianEmail', value: 'not-an-email' },
        { name: 'medical', filename: 'm.pdf', content: makePdf('x') },
      ]);
      expect(response.statusCode).toBe(400);
      const paths = response.json<{ details: Array<{ path: string }> }>().details.map((d) => d.path).sort();
      expect(paths).toEqual(['division', 'guardianEmail', 'playerBirthDate', 'playerFirstName', 'playerLastName', 'season'].sort());
      expect(await stagingLeftAfterJobs()).toBe(0);
    });

    it('refuses an unknown document type field', async () => {
      const response = await submit([...playerFields('form-unknown'), { name: 'passport', filename: 'p.pdf', content: makePdf('x') }]);
      expect(response.statusCode).toBe(400);
      expect(response.json<{ message: string }>().message).toContain('Unknown document type field "passport"');
      expect(await stagingLeftAfterJobs()).toBe(0);
    });

    it('refuses a truncated multipart body', async () => {
      const response = await submit([...playerFields('form-cut'), { name: 'medical', filename: 'm.pdf', content: makePdf('x', 20_000) }], { truncate: 3_000 });
      expect(response.statusCode).toBe(400);
      expect(await stagingLeftAfterJobs()).toBe(0);
    });

    it('answers a truncated body with a wrong signature 401, not 400, and keeps nothing', async () => {
      const before = await countSubmissions(getDatabase().db);
      const response = await submit([...playerFields('form-cut-unsigned'), { name: 'medical', filename: 'm.pdf', content: makePdf('x', 20_000) }], {
        truncate: 3_000,
        sign: `sha256=${'0'.repeat(64)}`,
      });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ code: 'UNAUTHENTICATED', message: 'Missing or invalid X-Clearbase-Signature.' });
      expect(await countSubmissions(getDatabase().db)).toBe(before);
      expect(await stagingLeftAfterJobs()).toBe(0);
    });

    it('rejects files that are empty, too large, mislabelled or executable, keeping the reason', async () => {
      const executable = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200, 1)]);
      const response = await submit([
        ...playerFields('form-files'),
        { name: 'birth_certificate', filename: 'empty.pdf', content: Buffer.alloc(0) },
        { name: 'residency', filename: 'big.pdf', content: makePdf('big', MAX_FILE_BYTES) },
        { name: 'medical', filename: 'photo.pdf', content: Buffer.concat([PNG_HEADER, Buffer.alloc(100)]) },
        { name: 'waiver', filename: 'setup.pdf', content: executable },
      ]);
      expect(response.statusCode).toBe(202);
      const documents = response.json<{ documents: Array<{ status: string; message: string }> }>().documents;
      expect(documents.map((d) => d.status)).toEqual(['rejected', 'rejected', 'rejected', 'rejected']);
      expect(documents[0]?.message).toMatch(/empty/i);
      expect(documents[1]?.message).toMatch(/limit/i);
      expect(documents[2]?.message).toMatch(/PNG/);
      expect(documents[3]?.message).toMatch(/not a PDF or image/i);
      expect(await stagingLeftAfterJobs()).toBe(0);
    });

    it('never uses the file name as a path', async () => {
      // A NUL byte in a file name is refused by name instead (tests/integration/unstorable-text.int.test.ts).
      const response = await submit([...playerFields('form-names'), { name: 'document', filename: '../../etc/\u202Efdp.exe\u0001.pdf', content: makePdf('residency proof') }]);
      expect(response.statusCode).toBe(202);
      const id = response.json<{ documents: Array<{ id: string }> }>().documents[0]?.id ?? '';
      const document = await waitForStatus(id, ['pending']);
      expect(['/', '\\', '\u0001', '\u202E'].filter((c) => document.originalFilename.includes(c))).toEqual([]);
      expect(document.storedPath).toMatch(/^seasons\/2025\/AA\/zoe_obrien_2014-05-03_CB-2025-[0-9a-f]{8}\/zoe_obrien_2014-05-03_unclassified_[0-9a-f-]{36}_[0-9a-f]{8}\.pdf$/);
      // Nothing in the name says what it is: it waits for a person to review it.
      expect(document.docType).toBeNull();
    });
  });

  async function stagingLeftAfterJobs(): Promise<number> {
    const deadline = Date.now() + 10_000;
    while ((await stagingLeft()) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    return stagingLeft();
  }
});
