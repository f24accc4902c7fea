import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../../tests/support/databases';
import { withDroppedConnection } from '../../../tests/support/dropped-connection';
import { makePdf } from '../../../tests/support/multipart';
import { FALL_2025 } from '../../../tests/support/pipeline';
import { createLocalStorage } from '../adapters/storage/local-storage';
import type { Storage } from '../adapters/storage/port';
import type { TServerMessage } from '../../contract';
import type { Db } from '../platform/db/client';
import { findDocument, listDocumentsOfSubmission } from '../documents/documents.repository';
import { insertSeasons } from '../seasons/seasons.repository';
import { findSubmission } from './submissions.repository';
import { stageUpload } from '../intake/stage-file';
import { createLogger } from '../platform/logger';
import { createProcessDocumentHandler } from './process-document';
import { recordStagedSubmission } from './record-submission';
import { stagedKey } from './staging-sweeper';
import type { IntakeSubmission } from './types';

describeEachDatabase('the pipeline when the database connection drops', ({ getDb }) => {
  let root = '';
  let storage: Storage;
  const masterKey = randomBytes(32);

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'cb-record-'));
    storage = createLocalStorage(root);
    await insertSeasons(getDb(), [FALL_2025]);
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  /** A one-file form submission whose file is really staged, encrypted, in storage. */
  async function stagedSubmission(externalId: string): Promise<IntakeSubmission & { stagedKeys: string[] }> {
    const id = randomUUID();
    const key = stagedKey(id, 0);
    const file = await stageUpload(
      Readable.from([makePdf(`${externalId} ${randomUUID()}`, 2_000)]),
      { originalFilename: 'birth certificate.pdf', declaredType: 'birth_certificate', key },
      { storage, masterKey, maxFileBytes: 1_000_000 },
    );
    expect(file.kind).toBe('staged');
    return {
      id,
      source: 'form',
      externalId,
      receivedAt: new Date(),
      fromEmail: null,
      subject: null,
      player: {
        season: '2025',
        division: 'AA',
        firstName: 'Dora',
        lastName: externalId,
        birthDate: '2014-05-03',
        guardianName: null,
        guardianEmail: null,
        guardianPhone: null,
      },
      files: [file],
      stagedKeys: [key],
    };
  }

  const record = (db: Db, submission: IntakeSubmission) => recordStagedSubmission({ db, storage, idPrefix: 'CB', onRecorded: () => undefined }, submission);

  it('deletes the staged file when the transaction was cut before its commit, and records nothing', async () => {
    const submission = await stagedSubmission('cut-before-commit');
    await expect(record(withDroppedConnection(getDb(), { commitFirst: false }), submission)).rejects.toThrow('Connection terminated unexpectedly');
    expect(await findSubmission(getDb(), submission.id)).toBeUndefined();
    expect(await storage.exists(submission.stagedKeys[0] ?? '')).toBe(false);
  });

  it('keeps the staged file of a submission whose commit went through with its answer lost, for its pipeline job', async () => {
    const submission = await stagedSubmission('answer-lost');
    await expect(record(withDroppedConnection(getDb(), { commitFirst: true }), submission)).rejects.toThrow('Connection terminated unexpectedly');
    expect(await findSubmission(getDb(), submission.id)).toBeDefined();
    const [document] = await listDocumentsOfSubmission(getDb(), submission.id);
    expect(document).toMatchObject({ status: 'processing', stagedKey: submission.stagedKeys[0] });
    expect(await storage.exists(submission.stagedKeys[0] ?? '')).toBe(true);
  });

  it('leaves the staged file to the orphan sweep when the database cannot be asked whether it committed', async () => {
    const submission = await stagedSubmission('cannot-ask');
    const db = withDroppedConnection(getDb(), { commitFirst: false, unreachableAfter: true });
    await expect(record(db, submission)).rejects.toThrow('Connection terminated unexpectedly');
    expect(await findSubmission(getDb(), submission.id)).toBeUndefined();
    expect(await storage.exists(submission.stagedKeys[0] ?? '')).toBe(true);
  });

  it('still deletes the staged file at once when recording fails for any other reason', async () => {
    const submission = await stagedSubmission('unknown-season');
    await expect(record(getDb(), { ...submission, player: { ...submission.player, season: '1999' } })).rejects.toThrow('Unknown season');
    expect(await storage.exists(submission.stagedKeys[0] ?? '')).toBe(false);
  });
  /** A document recorded as intake records it: processing, its file in staging, waiting for its job. */
  async function processingDocument(externalId: string) {
    const submission = await stagedSubmission(externalId);
    await record(getDb(), submission);
    const [document] = await listDocumentsOfSubmission(getDb(), submission.id);
    if (!document) throw new Error('no document recorded');
    return { id: document.id, stagedKey: submission.stagedKeys[0] ?? '' };
  }

  const processWith = (db: Db, published: TServerMessage[]) =>
    createProcessDocumentHandler({
      db,
      storage,
      scanner: () => Promise.resolve(undefined),
      reading: { on: () => Promise.resolve(false), queued: () => undefined },
      masterKey,
      live: { publish: (message) => void published.push(message) },
      log: createLogger('silent'),
      retentionYears: 7,
    });

  it('finishes a document whose record committed with its answer lost: staging object deleted, job done', async () => {
    const document = await processingDocument('stored-answer-lost');
    const published: TServerMessage[] = [];
    const outcome = await processWith(withDroppedConnection(getDb(), { commitFirst: true }), published)({ documentId: document.id, extension: 'pdf' }, { id: 1, attempt: 1 });
    expect(outcome).toEqual({ kind: 'done' });
    const stored = await findDocument(getDb(), document.id);
    expect(stored).toMatchObject({ status: 'pending', stagedKey: null });
    expect(await storage.exists(stored?.storageKey ?? '')).toBe(true);
    // Had the job been retried instead, it would find staged_key cleared and never delete this object.
    expect(await storage.exists(document.stagedKey)).toBe(false);
    expect(published.map((message) => message.type)).toEqual(['document_uploaded']);
  });

  it('keeps the staging object of a document whose record was cut before its commit, and a retry finishes it', async () => {
    const document = await processingDocument('stored-cut');
    const published: TServerMessage[] = [];
    await expect(
      processWith(withDroppedConnection(getDb(), { commitFirst: false }), published)({ documentId: document.id, extension: 'pdf' }, { id: 1, attempt: 1 }),
    ).rejects.toThrow('Connection terminated unexpectedly');
    expect(await findDocument(getDb(), document.id)).toMatchObject({ status: 'processing', stagedKey: document.stagedKey });
    expect(await storage.exists(document.stagedKey)).toBe(true);

    expect(await processWith(getDb(), published)({ documentId: document.id, extension: 'pdf' }, { id: 1, attempt: 2 })).toEqual({ kind: 'done' });
    expect(await findDocument(getDb(), document.id)).toMatchObject({ status: 'pending', stagedKey: null });
    expect(await storage.exists(document.stagedKey)).toBe(false);
  });
});
