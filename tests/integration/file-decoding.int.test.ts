import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countDocuments, findDocument } from '../../src/server/documents/documents.repository';
import { signBody } from '../../src/server/intake/form/form-webhook';
import { createClearbase, type Clearbase } from '../../src/server/main';
import { loadConfig } from '../../src/server/platform/config';
import { createLogger } from '../../src/server/platform/logger';
import { insertSeasons } from '../../src/server/seasons/seasons.repository';
import { openTestDatabase, testDatabaseKinds, type TestDatabase } from '../support/databases';
import { refusedCorpus, seeded, VALID_TYPES, validCorpus, type RefusedFile, type ValidFile } from '../support/file-corpus';
import { buildMultipart, type Part } from '../support/multipart';
import { FALL_2025, SPRING_2025 } from '../support/pipeline';

/**
 * Every accepted type, fifty of each, and over two hundred files that must be refused, sent through the
 * real form webhook (signed multipart, twelve files a submission): each valid file is stored, each other
 * one refused with a sentence a parent understands, never a 5xx, and nothing of a refused file is kept.
 */

const SECRET = 'form-webhook-secret-for-decoding-tests';
const MAX_FILE_BYTES = 4 * 1024 * 1024;
const FILES_PER_SUBMISSION = 12;

/** The sentences a refused file may be recorded with, by how the corpus says it must be refused. */
const MESSAGES: Record<string, RegExp> = {
  CORRUPT_FILE: /^This (image is damaged or incomplete \(it could not be opened\); please take the photo again|PDF is damaged and cannot be opened; please export it again|PDF has no pages; please export it again)\.$/,
  PASSWORD_PROTECTED: /^This PDF is password-protected; please send it without a password\.$/,
  IMAGE_TOO_LARGE: /^This image is too large to open \([\d,]+ × [\d,]+ pixels\); please send a smaller photo or scan\.$/,
  TOO_MANY_PAGES: /^This PDF has [\d,]+ pages; at most 1,000 are accepted\. Please send only the pages that are needed\.$/,
  EXTENSION_MISMATCH: /^The file is an? [A-Za-z ]+ but is named \.\w+$/,
  UNSUPPORTED_TYPE: /^Attachment is not a PDF or image$/,
  EMPTY_FILE: /^The file is empty$/,
};

type Sent = { file: ValidFile; refused?: undefined } | { file: RefusedFile; refused: true };
type Answer = { documents: Array<{ id: string; status: string; message?: string }> };

/** One database is enough here: what is judged is the files, and both kinds are covered by the other intake tests. */
const KIND = testDatabaseKinds().includes('postgres') ? 'postgres' : 'pglite';

describe(`files decoded before they are stored, through the form webhook [${KIND}]`, () => {
  let database: TestDatabase | undefined;
  let clearbase: Clearbase | undefined;
  let dataDir = '';
  let valid: ValidFile[] = [];
  let refused: RefusedFile[] = [];

  const db = () => {
    if (!database) throw new Error('not started');
    return database.database.db;
  };
  const filesUnder = async (dir: string) => {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
    return entries.filter((entry) => entry.isFile()).map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
  };

  beforeAll(async () => {
    [valid, database] = await Promise.all([validCorpus(50), openTestDatabase(KIND)]);
    refused = await refusedCorpus(valid);
    dataDir = await mkdtemp(path.join(tmpdir(), 'cb-decoding-'));
    const config = loadConfig({
      CLEARBASE_DATA_DIR: dataDir,
      CLEARBASE_PASSWORD: 'decoding test password',
      CLEARBASE_DEMO: 'false',
      FORM_WEBHOOK_SECRET: SECRET,
      FORM_WEBHOOK_RATE_LIMIT: '100000',
      MAX_FILE_BYTES: String(MAX_FILE_BYTES),
    });
    await insertSeasons(database.database.db, [SPRING_2025, FALL_2025]);
    clearbase = await createClearbase(config, createLogger('silent'), { readDocuments: false, database: database.database, webDir: path.join(dataDir, 'none') });
  }, 240_000);
  afterAll(async () => {
    await clearbase?.close();
    await database?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('stores every valid file of every type and refuses every broken one with its reason, keeping nothing of it', async () => {
    const app = clearbase?.app;
    if (!app) throw new Error('not started');
    expect(refused.length).toBeGreaterThanOrEqual(200);
    for (const type of VALID_TYPES) expect(valid.filter((file) => file.type === type).length).toBeGreaterThanOrEqual(50);

    // Valid and refused files mixed in every submission, in an order the seed fixes.
    const random = seeded(7);
    const sent: Sent[] = [...valid.map((file): Sent => ({ file })), ...refused.map((file): Sent => ({ file, refused: true }))]
      .map((item) => ({ item, order: random() }))
      .sort((a, b) => a.order - b.order)
      .map(({ item }) => item);
    const batches: Sent[][] = [];
    for (let at = 0; at < sent.length; at += FILES_PER_SUBMISSION) batches.push(sent.slice(at, at + FILES_PER_SUBMISSION));

    const submit = async (batch: Sent[], index: number) => {
      const parts: Part[] = [
        { name: 'submissionId', value: `decoding-${index}` },
        { name: 'season', value: '2025' },
        { name: 'division', value: 'AA' },
        { name: 'playerFirstName', value: 'Niamh' },
        { name: 'playerLastName', value: `Decoder${String.fromCharCode(65 + (index % 26))}` },
        { name: 'playerBirthDate', value: '2014-05-03' },
        ...batch.map(({ file }): Part => ({ name: 'document', filename: file.filename, content: file.bytes })),
      ];
      const { body, contentType } = buildMultipart(parts);
      const response = await app.inject({
        method: 'POST',
        url: '/api/intake/form',
        payload: body,
        headers: { 'content-type': contentType, 'x-clearbase-signature': signBody(SECRET, body) },
      });
      return { status: response.statusCode, body: response.statusCode === 202 ? response.json<Answer>() : undefined, text: response.body };
    };

    // Two submissions at a time: the machine has two cores, and two intake threads.
    const answers: Array<Awaited<ReturnType<typeof submit>>> = [];
    for (let at = 0; at < batches.length; at += 2) {
      answers.push(...(await Promise.all(batches.slice(at, at + 2).map((batch, offset) => submit(batch, at + offset)))));
    }

    const wrong: string[] = [];
    const rejectedIds: string[] = [];
    let processing = 0;
    answers.forEach((answer, index) => {
      const batch = batches[index] ?? [];
      if (answer.status !== 202 || !answer.body) {
        wrong.push(`submission ${index}: ${answer.status} ${answer.text.slice(0, 200)}`);
        return;
      }
      batch.forEach((item, position) => {
        const document = answer.body?.documents[position];
        if (!item.refused) {
          if (document?.status === 'processing') processing++;
          else wrong.push(`${item.file.label}: ${document?.status ?? 'missing'} ${document?.message ?? ''}`);
          return;
        }
        if (document?.status !== 'rejected') {
          wrong.push(`${item.file.label}: ${document?.status ?? 'missing'}, not rejected`);
          return;
        }
        rejectedIds.push(document.id);
        if (!item.file.codes.some((code) => MESSAGES[code]?.test(document.message ?? ''))) wrong.push(`${item.file.label}: "${document.message ?? ''}"`);
      });
    });
    expect(wrong).toEqual([]);
    expect(processing).toBe(valid.length);

    // Every valid file goes through the pipeline to storage.
    const deadline = Date.now() + 120_000;
    while ((await countDocuments(db(), 'pending')) < valid.length && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await countDocuments(db(), 'pending')).toBe(valid.length);
    expect(await countDocuments(db(), 'processing')).toBe(0);

    // Nothing of a refused file: no stored or staged object, only its rejection and the reason.
    expect(await countDocuments(db(), 'rejected')).toBe(refused.length);
    for (const id of rejectedIds) {
      const document = await findDocument(db(), id);
      expect({ storageKey: document?.storageKey, stagedKey: document?.stagedKey, sha: document?.fileSha256 }).toEqual({ storageKey: null, stagedKey: null, sha: null });
    }
    const storage = path.join(dataDir, 'storage');
    expect(await filesUnder(path.join(storage, 'staging'))).toEqual([]);
    expect((await filesUnder(storage)).length).toBe(valid.length);
  }, 300_000);
});
