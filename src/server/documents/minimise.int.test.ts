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
import { findRegistration, insertRegistrations } from '../players';
import { upsertPlayer } from '../players/players.repository';
import { decryptToBuffer, startEncryption } from '../platform/crypto/envelope';
import { auditEvents, documentReadings, documents, jobs } from '../platform/db/schema';
import { sealSecret } from '../platform/crypto/secret-box';
import { eq } from 'drizzle-orm';
import { insertSeasons } from '../seasons/seasons.repository';
import { createLogger } from '../platform/logger';
import { listQueuedJobs } from './retention.repository';
import { createMinimiseHandler, MINIMISE_QUEUE, scheduleMinimise, type MinimiseDeps } from './minimise';

const DAY = 24 * 3_600_000;
const NOW = new Date('2025-10-15T03:00:00.000Z');
const FALL = 'fall-2025';
const SPRING = 'spring-2025';
const PLAYER = 'CB-2025-0a1b2c3d';
const GUARDIAN = { guardianName: 'Gina Guardian', guardianEmail: 'gina.guardian@example.org', guardianPhone: '555-0100' };
const MASTER_KEY = randomBytes(32);
const job = { id: 0, attempt: 1 };

describeEachDatabase('verify, then minimise', ({ getDb }) => {
  let root = '';
  let storage: Storage;
  const logLines: string[] = [];
  const log = createLogger('info', { write: (line: string) => void logLines.push(line) });

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'cb-minimise-'));
    storage = createLocalStorage(root);
    await insertSeasons(getDb(), [
      { id: SPRING, name: 'Spring Ball 2025', kind: 'Spring Ball', year: 2025, startsOn: '2025-03-01', endsOn: '2025-06-30' },
      {
        id: FALL,
        name: 'Fall Ball 2025',
        kind: 'Fall Ball',
        year: 2025,
        startsOn: '2025-08-15',
        endsOn: '2025-11-30',
        isCurrent: true,
        removeVerifiedBirthCertificateFilesAfterDays: 30,
      },
    ]);
    await upsertPlayer(getDb(), { id: PLAYER, firstName: 'Ada', lastName: 'Minimal', birthDate: '2016-05-03', ...GUARDIAN });
    await insertRegistrations(getDb(), [{ playerId: PLAYER, seasonId: FALL, division: 'AA' }]);
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

  const handlerWith = (overrides: Partial<MinimiseDeps> = {}) =>
    createMinimiseHandler({ db: getDb(), storageFor: () => storage, log, now: () => NOW, ...overrides });

  /** A document whose file is really encrypted with the master key and stored. */
  const storeDocument = async (name: string, row: Partial<NewDocument>) => {
    const key = `seasons/2025/AA/ada_minimal_2016-05-03_${PLAYER}/ada_minimal_2016-05-03_${name}.pdf`;
    const encryption = startEncryption(MASTER_KEY);
    const ciphertext = encryption.update(Buffer.from(`%PDF-1.4 the ${name} of Ada Minimal`));
    const sealed = encryption.finish();
    await storage.put(key, ciphertext);
    const document = await insertDocument(getDb(), {
      playerId: PLAYER,
      seasonId: FALL,
      docType: 'birth_certificate',
      originalFilename: `${name}.pdf`,
      status: 'verified',
      storedPath: key,
      storageKey: key,
      storageDriver: 'local',
      fileSha256: sealed.sha256,
      wrappedKey: sealed.wrappedKey,
      iv: sealed.iv,
      authTag: sealed.authTag,
      uploadedAt: new Date('2025-08-20T12:00:00.000Z'),
      ...row,
    });
    return { id: document.id, key, sha256: sealed.sha256 };
  };
  const verifiedDaysAgo = (days: number) => ({ reviewedAt: new Date(NOW.getTime() - days * DAY), reviewedBy: 'Rita Reviewer', factBirthDate: '2016-05-03' });
  const removedAudits = async (documentId: string) =>
    (await listAuditEvents(getDb(), 'document', documentId)).filter((event) => event.action === 'document.file_removed');

  it('removes the file of a birth certificate verified 31 days ago; the verification stays and still counts', async () => {
    const due = await storeDocument('birth_certificate', verifiedDaysAgo(31));
    const stored = await findDocument(getDb(), due.id);
    if (!stored?.wrappedKey || !stored.iv || !stored.authTag) throw new Error('no envelope');
    const plain = await decryptToBuffer(MASTER_KEY, { wrappedKey: stored.wrappedKey, iv: stored.iv, authTag: stored.authTag }, await storage.get(due.key));
    expect(plain.toString()).toContain('birth_certificate of Ada Minimal');
    expect((await findRegistration(getDb(), PLAYER, FALL))?.birthCertificateStatus).toBe('complete');
    // What reading found in the file: its sealed text and word index go with it.
    await getDb()
      .insert(documentReadings)
      .values({ documentId: due.id, state: 'done', text: sealSecret(MASTER_KEY, 'Name of child: Ada Minimal'), wordHashes: ['0123456789abcdef'], readable: true });

    expect(await handlerWith()({}, job)).toEqual({ kind: 'done' });
    expect(await getDb().select().from(documentReadings).where(eq(documentReadings.documentId, due.id))).toMatchObject([
      { state: 'removed', text: null, wordHashes: [], extracted: null },
    ]);

    expect(await storage.exists(due.key)).toBe(false);
    expect(await findDocument(getDb(), due.id)).toMatchObject({
      status: 'verified',
      fileRemovedAt: NOW,
      purgedAt: null,
      storageKey: null,
      fileSha256: due.sha256,
      reviewedBy: 'Rita Reviewer',
      reviewedAt: new Date(NOW.getTime() - 31 * DAY),
      factBirthDate: '2016-05-03',
      originalFilename: 'birth_certificate.pdf',
    });
    expect((await findRegistration(getDb(), PLAYER, FALL))?.birthCertificateStatus).toBe('complete');
    const audits = await removedAudits(due.id);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      actor: 'system',
      subjectType: 'document',
      detail: { fileName: 'birth_certificate.pdf', fileSha256: due.sha256, verifiedBy: 'Rita Reviewer', verifiedAt: new Date(NOW.getTime() - 31 * DAY).toISOString() },
    });

    // A second run finds nothing left, and tomorrow's run is queued once.
    const after = await findDocument(getDb(), due.id);
    expect(await handlerWith()({}, job)).toEqual({ kind: 'done' });
    expect(await findDocument(getDb(), due.id)).toEqual(after);
    expect(await removedAudits(due.id)).toHaveLength(1);
    expect((await listQueuedJobs(getDb(), MINIMISE_QUEUE)).map((row) => row.runAt)).toEqual([new Date(NOW.getTime() + DAY)]);
  });

  it('leaves one verified 29 days ago, a pending one, other types and seasons without the setting alone', async () => {
    const recent = await storeDocument('birth_certificate', verifiedDaysAgo(29));
    const pending = await storeDocument('birth_certificate_2', { status: 'pending', uploadedAt: new Date(NOW.getTime() - 60 * DAY) });
    const medical = await storeDocument('medical', { docType: 'medical', ...verifiedDaysAgo(90) });
    const spring = await storeDocument('birth_certificate_spring', { seasonId: SPRING, ...verifiedDaysAgo(200) });
    const untouched = [recent, pending, medical, spring];
    const before = await Promise.all(untouched.map((doc) => findDocument(getDb(), doc.id)));

    expect(await handlerWith()({}, job)).toEqual({ kind: 'done' });

    for (const [i, doc] of untouched.entries()) {
      expect(await storage.exists(doc.key)).toBe(true);
      expect(await findDocument(getDb(), doc.id)).toEqual(before[i]);
      expect(await removedAudits(doc.id)).toEqual([]);
    }
  });

  it('leaves a file whose deletion fails for the next run, logging no guardian details', async () => {
    const stuck = await storeDocument('birth_certificate', { id: '00000000-0000-4000-8000-000000000001', ...verifiedDaysAgo(40) });
    const fine = await storeDocument('birth_certificate_2', { id: '00000000-0000-4000-8000-000000000002', ...verifiedDaysAgo(40) });
    const stuckBefore = await findDocument(getDb(), stuck.id);
    const flaky: Storage = { ...storage, delete: (key) => (key === stuck.key ? Promise.reject(new Error('storage said 503')) : storage.delete(key)) };

    expect(await handlerWith({ storageFor: () => flaky, batchSize: 1 })({}, job)).toEqual({ kind: 'done' });

    expect(await findDocument(getDb(), stuck.id)).toEqual(stuckBefore);
    expect(await storage.exists(stuck.key)).toBe(true);
    expect(await removedAudits(stuck.id)).toEqual([]);
    expect(logLines.some((line) => line.includes(stuck.id) && line.includes('storage said 503'))).toBe(true);
    for (const secret of ['Gina', 'gina.guardian', '555-0100', 'ada_minimal', 'Minimal']) expect(logLines.join('\n')).not.toContain(secret);
    expect(await storage.exists(fine.key)).toBe(false);

    // Every deletion failing asks for a retry; with the storage back, the next run removes it.
    const down: Storage = { ...storage, delete: () => Promise.reject(new Error('storage unreachable')) };
    expect(await handlerWith({ storageFor: () => down })({}, job)).toMatchObject({ kind: 'retry' });
    expect(await handlerWith()({}, job)).toEqual({ kind: 'done' });
    expect(await storage.exists(stuck.key)).toBe(false);
    expect(await findDocument(getDb(), stuck.id)).toMatchObject({ fileRemovedAt: NOW, storageKey: null, status: 'verified' });
    expect(await removedAudits(stuck.id)).toHaveLength(1);
  });

  it('queues one run after start, however many times start asks', async () => {
    expect(await scheduleMinimise(getDb(), NOW)).toBe(true);
    expect(await scheduleMinimise(getDb(), new Date(NOW.getTime() + 5_000))).toBe(false);
    expect((await listQueuedJobs(getDb(), MINIMISE_QUEUE)).map((row) => row.runAt)).toEqual([new Date(NOW.getTime() + 2 * 60_000)]);
  });
});
