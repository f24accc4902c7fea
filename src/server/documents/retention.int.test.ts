import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../../tests/support/databases';
import { createLocalStorage } from '../adapters/storage/local-storage';
import type { Storage } from '../adapters/storage/port';
import { listAuditEvents } from '../audit/audit-events.repository';
import { findDocument, insertDocument, type NewDocument } from './documents.repository';
import { upsertPlayer } from '../players/players.repository';
import { ensureJobScheduled } from '../platform/jobs/jobs.repository';
import { listQueuedJobs } from './retention.repository';
import { auditEvents, documents, jobs } from '../platform/db/schema';
import { insertSeasons } from '../seasons/seasons.repository';
import { createLogger } from '../platform/logger';
import { createRetentionHandler, RETENTION_QUEUE, scheduleRetention, type RetentionDeps } from './retention';

const DAY = 24 * 3_600_000;
const NOW = new Date('2032-06-01T03:00:00.000Z');
const PLAYER = 'CB-2014-0a1b2c3d';
const SEASON = 'fall-2025';
const job = { id: 0, attempt: 1 };

describeEachDatabase('retention', ({ getDb }) => {
  let root = '';
  let storage: Storage;
  const logLines: string[] = [];
  const log = createLogger('error', { write: (line: string) => void logLines.push(line) });

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'cb-retention-'));
    storage = createLocalStorage(root);
    await insertSeasons(getDb(), [
      { id: SEASON, name: 'Fall Ball 2025', kind: 'Fall Ball', year: 2025, startsOn: '2025-08-15', endsOn: '2025-11-30', isCurrent: true },
    ]);
    await upsertPlayer(getDb(), { id: PLAYER, firstName: 'Ada', lastName: 'Retain', birthDate: '2014-05-03' });
  });
  afterEach(async () => {
    await getDb().delete(jobs);
    await getDb().delete(documents);
    await getDb().delete(auditEvents);
    logLines.length = 0;
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  const handlerWith = (overrides: Partial<RetentionDeps> = {}) =>
    createRetentionHandler({ db: getDb(), storageFor: () => storage, log, now: () => NOW, ...overrides });

  /** A stored document with its (pretend) ciphertext really written to storage. */
  const storeDocument = async (name: string, row: Partial<NewDocument>) => {
    const key = `seasons/2025/AA/ada_retain_2014-05-03_${PLAYER}/ada_retain_2014-05-03_${name}.pdf`;
    await storage.put(key, Buffer.from(`ciphertext of ${name}`));
    const document = await insertDocument(getDb(), {
      playerId: PLAYER,
      seasonId: SEASON,
      originalFilename: `${name}.pdf`,
      status: 'verified',
      storedPath: key,
      storageKey: key,
      storageDriver: 'local',
      fileSha256: randomBytes(32).toString('hex'),
      wrappedKey: randomBytes(60),
      iv: randomBytes(12),
      authTag: randomBytes(16),
      uploadedAt: new Date('2025-05-31T12:00:00.000Z'),
      ...row,
    });
    return { id: document.id, key };
  };
  const purgedAudits = async (documentId: string) =>
    (await listAuditEvents(getDb(), 'document', documentId)).filter((event) => event.action === 'document.purged');

  it('deletes the expired object, leaves a keyless tombstone and an audit, and leaves the rest alone', async () => {
    const expired = await storeDocument('birth_certificate', { retainUntil: new Date(NOW.getTime() - DAY) });
    const current = await storeDocument('medical_release', { retainUntil: new Date(NOW.getTime() + DAY) });
    const alreadyPurged = await storeDocument('old_waiver', {
      retainUntil: new Date(NOW.getTime() - 400 * DAY),
      purgedAt: new Date(NOW.getTime() - 30 * DAY),
    });
    const currentBefore = await findDocument(getDb(), current.id);
    const purgedBefore = await findDocument(getDb(), alreadyPurged.id);

    expect(await handlerWith()({}, job)).toEqual({ kind: 'done' });

    expect(await storage.exists(expired.key)).toBe(false);
    expect(await findDocument(getDb(), expired.id)).toMatchObject({
      purgedAt: NOW,
      storageKey: null,
      wrappedKey: null,
      iv: null,
      authTag: null,
      storedPath: expired.key, // kept: the record of what existed
      storageDriver: 'local',
    });
    const audits = await purgedAudits(expired.id);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      actor: 'system',
      subjectType: 'document',
      detail: { storageKey: expired.key, retainUntil: new Date(NOW.getTime() - DAY).toISOString() },
    });

    expect(await storage.exists(current.key)).toBe(true);
    expect(await storage.exists(alreadyPurged.key)).toBe(true);
    expect(await findDocument(getDb(), current.id)).toEqual(currentBefore);
    expect(await findDocument(getDb(), alreadyPurged.id)).toEqual(purgedBefore);
    expect(await purgedAudits(current.id)).toEqual([]);
    expect(await purgedAudits(alreadyPurged.id)).toEqual([]);

    // A second run finds nothing left to do.
    const tombstone = await findDocument(getDb(), expired.id);
    expect(await handlerWith()({}, job)).toEqual({ kind: 'done' });
    expect(await findDocument(getDb(), expired.id)).toEqual(tombstone);
    expect(await purgedAudits(expired.id)).toHaveLength(1);
    expect(await findDocument(getDb(), current.id)).toEqual(currentBefore);

    // Both runs asked for tomorrow's run; only one is queued.
    const queued = await listQueuedJobs(getDb(), RETENTION_QUEUE);
    expect(queued.map((row) => row.runAt)).toEqual([new Date(NOW.getTime() + DAY)]);
  });

  it('purges every expired document across several batches', async () => {
    const expired = await Promise.all(
      ['a', 'b', 'c', 'd', 'e'].map((name) => storeDocument(`waiver_${name}`, { retainUntil: new Date(NOW.getTime() - DAY) })),
    );
    expect(await handlerWith({ batchSize: 2 })({}, job)).toEqual({ kind: 'done' });
    for (const { id, key } of expired) {
      expect(await storage.exists(key)).toBe(false);
      expect((await findDocument(getDb(), id))?.purgedAt).toEqual(NOW);
    }
  });

  it('keeps a document whose delete fails for the next run, while purging the others', async () => {
    // Fixed ids put the failing document first in paging order: with one per batch, a run that
    // re-read "whatever is left" would fetch it forever.
    const stuck = await storeDocument('birth_certificate', {
      id: '00000000-0000-4000-8000-000000000001',
      retainUntil: new Date(NOW.getTime() - DAY),
    });
    const fine = await storeDocument('medical_release', {
      id: '00000000-0000-4000-8000-000000000002',
      retainUntil: new Date(NOW.getTime() - DAY),
    });
    const stuckBefore = await findDocument(getDb(), stuck.id);
    const flaky: Storage = {
      ...storage,
      delete: (key) => (key === stuck.key ? Promise.reject(new Error('storage said 503')) : storage.delete(key)),
    };

    expect(await handlerWith({ storageFor: () => flaky, batchSize: 1 })({}, job)).toEqual({ kind: 'done' });

    expect(await findDocument(getDb(), stuck.id)).toEqual(stuckBefore);
    expect(await storage.exists(stuck.key)).toBe(true);
    expect(await purgedAudits(stuck.id)).toEqual([]);
    expect(logLines.some((line) => line.includes(stuck.id) && line.includes('storage said 503'))).toBe(true);
    expect(await storage.exists(fine.key)).toBe(false);
    expect((await findDocument(getDb(), fine.id))?.purgedAt).toEqual(NOW);

    // The next run, with the storage back, purges it.
    expect(await handlerWith({ batchSize: 1 })({}, job)).toEqual({ kind: 'done' });
    expect(await storage.exists(stuck.key)).toBe(false);
    expect(await findDocument(getDb(), stuck.id)).toMatchObject({ purgedAt: NOW, storageKey: null, wrappedKey: null });
    expect(await purgedAudits(stuck.id)).toHaveLength(1);
  });

  it('asks for a retry when every delete fails, with tomorrow already queued', async () => {
    const expired = await storeDocument('birth_certificate', { retainUntil: new Date(NOW.getTime() - DAY) });
    const before = await findDocument(getDb(), expired.id);
    const down: Storage = { ...storage, delete: () => Promise.reject(new Error('storage unreachable')) };

    const outcome = await handlerWith({ storageFor: () => down })({}, job);

    expect(outcome).toMatchObject({ kind: 'retry', reason: 'could not delete any of 1 expired documents' });
    expect(await findDocument(getDb(), expired.id)).toEqual(before);
    expect(await storage.exists(expired.key)).toBe(true);
    expect((await listQueuedJobs(getDb(), RETENTION_QUEUE)).map((row) => row.runAt)).toEqual([new Date(NOW.getTime() + DAY)]);
  });

  it('counts a document with a key but no storage driver as failed, never as purged', async () => {
    const orphan = await storeDocument('birth_certificate', { retainUntil: new Date(NOW.getTime() - DAY), storageDriver: null });
    expect(await handlerWith()({}, job)).toMatchObject({ kind: 'retry' });
    expect(await storage.exists(orphan.key)).toBe(true);
    expect((await findDocument(getDb(), orphan.id))?.purgedAt).toBeNull();
  });

  it('queues one retention run a minute after start, however many times start asks', async () => {
    expect(await scheduleRetention(getDb(), NOW)).toBe(true);
    expect(await scheduleRetention(getDb(), new Date(NOW.getTime() + 5_000))).toBe(false);
    const queued = await listQueuedJobs(getDb(), RETENTION_QUEUE);
    expect(queued.map((row) => row.runAt)).toEqual([new Date(NOW.getTime() + 60_000)]);
  });

  it('queues exactly one job when several instances schedule at the same moment', async () => {
    // Without the lock, PostgreSQL lets most of eight concurrent check-then-inserts through.
    for (let round = 0; round < 5; round++) {
      await getDb().delete(jobs);
      const enqueued = await Promise.all(Array.from({ length: 8 }, () => ensureJobScheduled(getDb(), RETENTION_QUEUE, NOW)));
      expect(enqueued.filter(Boolean)).toHaveLength(1);
      expect(await listQueuedJobs(getDb(), RETENTION_QUEUE)).toHaveLength(1);
    }
  });
});
