import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../../tests/support/databases';
import { makePdf } from '../../../tests/support/multipart';
import { FALL_2025 } from '../../../tests/support/pipeline';
import { createLocalStorage } from '../adapters/storage/local-storage';
import type { Storage } from '../adapters/storage/port';
import type { Db } from '../db/client';
import { listDocumentsOfSubmission } from '../db/documents.repository';
import { insertSeasons } from '../db/seasons.repository';
import { findSubmission } from '../db/submissions.repository';
import { stageUpload } from '../intake/stage-file';
import { recordStagedSubmission } from './record-submission';
import { stagedKey } from './staging-sweeper';
import type { IntakeSubmission } from './types';

/** What node-postgres throws when the server ends the session under a query. */
const connectionLost = () => new Error('Connection terminated unexpectedly');

/**
 * The real database with one fault put in the way: `transaction` (and, with `unreachableAfter`, every
 * read after it) fails as a dropped connection does. `commitFirst` says whether the transaction's work
 * commits before the failure is reported (the answer to COMMIT lost) or is rolled back.
 */
function withDroppedConnection(db: Db, fault: { commitFirst: boolean; unreachableAfter?: boolean }): Db {
  let dropped = false;
  const transaction = async (work: (tx: Db) => Promise<unknown>): Promise<never> => {
    try {
      if (fault.commitFirst) await db.transaction(work);
      else {
        await db.transaction(async (tx) => {
          await work(tx);
          throw connectionLost();
        });
      }
      throw connectionLost();
    } finally {
      dropped = true;
    }
  };
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property === 'transaction') return transaction;
      if (property === 'select' && dropped && fault.unreachableAfter) {
        return () => {
          throw connectionLost();
        };
      }
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
}

describeEachDatabase('recording a staged submission when the database connection drops', ({ getDb }) => {
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
});
