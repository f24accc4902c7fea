import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DOC_TYPE_LABELS } from '../../contract';
import { createLocalStorage } from '../adapters/storage/local-storage';
import type { Storage } from '../adapters/storage/port';
import { inspectFile } from '../files/inspect';
import { SNIFF_HEAD_BYTES, validateFile } from '../files/validate';
import { decryptToBuffer } from '../platform/crypto/envelope';
import { documents, players as playersTable } from '../platform/db/schema';
import { describeEachDatabase } from '../../../tests/support/databases';
import { listAuditEventsByAction } from '../audit/audit-events.repository';
import { countDemoRows } from './demo.repository';
import { countDocuments } from '../documents/documents.repository';
import { countSubmissions } from '../pipeline/submissions.repository';
import { countDemoData, generateDemoData, type DemoDataOptions } from './generate-demo-data';
import { replaceWithDemoData, seedDemoDataIfEmpty, type SeedIfEmptyResult, type SeedProgress } from './seed-demo-data';

const OPTIONS: DemoDataOptions = { seed: 7, players: 150, idPrefix: 'CB', now: new Date('2025-10-15T12:00:00Z') };
/** Small chunks, so the test also covers writing a seed in several steps inside one transaction. */
const SEED_OPTIONS = { ...OPTIONS, playersPerChunk: 40 };

describeEachDatabase('seedDemoDataIfEmpty', ({ getDb }) => {
  let firstCalls: SeedIfEmptyResult[] = [];

  beforeAll(async () => {
    // Two callers at once, as two instances starting on one empty database would.
    firstCalls = await Promise.all([seedDemoDataIfEmpty(getDb(), SEED_OPTIONS), seedDemoDataIfEmpty(getDb(), SEED_OPTIONS)]);
  });

  it('seeds an empty database exactly once when two callers race', () => {
    expect(firstCalls.filter((call) => call.seeded)).toHaveLength(1);
  });

  it('writes exactly the generated rows to every table and reports those counts', async () => {
    const expected = countDemoData(generateDemoData(OPTIONS));
    expect(await countDemoRows(getDb())).toEqual(expected);
    const seeded = firstCalls.find((call) => call.seeded);
    expect(seeded?.seeded && seeded.counts).toEqual(expected);
  });

  it('keeps every document status and both submission sources through the round trip', async () => {
    for (const status of ['verified', 'pending', 'processing', 'rejected'] as const) {
      expect(await countDocuments(getDb(), status)).toBeGreaterThan(0);
    }
    expect(await countSubmissions(getDb(), 'form')).toBeGreaterThan(0);
    expect(await countSubmissions(getDb(), 'mailbox')).toBeGreaterThan(0);
  });

  it('records one demo.seeded audit event by the system, with the counts', async () => {
    const events = await listAuditEventsByAction(getDb(), 'demo.seeded');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actor: 'system', subjectType: 'database' });
    expect(events[0]?.detail).toMatchObject({ counts: countDemoData(generateDemoData(OPTIONS)) });
  });

  it('leaves a seeded database untouched and says it did not seed', async () => {
    const before = await countDemoRows(getDb());
    await expect(seedDemoDataIfEmpty(getDb(), { ...SEED_OPTIONS, seed: 8 })).resolves.toEqual({ seeded: false });
    expect(await countDemoRows(getDb())).toEqual(before);
    expect(await listAuditEventsByAction(getDb(), 'demo.seeded')).toHaveLength(1);
  });

  it('replaces everything with a fresh demo on reset, reporting progress after each chunk', async () => {
    const options = { ...OPTIONS, seed: 9, players: 120 };
    const progress: SeedProgress[] = [];
    const counts = await replaceWithDemoData(getDb(), { ...options, playersPerChunk: 50, onProgress: (p) => progress.push(p) });
    expect(counts).toEqual(countDemoData(generateDemoData(options)));
    expect(progress.map((p) => p.players)).toEqual([50, 100, 120]);
    expect(progress.at(-1)?.written).toEqual(counts);
    expect(await countDemoRows(getDb())).toEqual(counts);
    expect(await listAuditEventsByAction(getDb(), 'demo.seeded')).toHaveLength(1);
  });
});

describeEachDatabase('seeding demo data with files', ({ getDb }) => {
  const masterKey = randomBytes(32);
  let root = '';
  let storage: Storage | undefined;

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'cb-demo-files-'));
    storage = createLocalStorage(root);
    await seedDemoDataIfEmpty(getDb(), { ...OPTIONS, players: 25, files: { storage, masterKey } });
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('stores a real file for every document, encrypted, with its true SHA-256, size and type', async () => {
    if (!storage) throw new Error('not seeded');
    const rows = await getDb().select().from(documents);
    const players = new Map((await getDb().select().from(playersTable)).map((p) => [p.id, `${p.firstName} ${p.lastName}`]));
    expect(rows.length).toBeGreaterThan(20);
    const kinds = new Set<string>();
    for (const row of rows) {
      if (!row.storageKey || !row.wrappedKey || !row.iv || !row.authTag) throw new Error(`document ${row.id} has no stored file`);
      const ciphertext = await storage.get(row.storageKey);
      const plain = await decryptToBuffer(masterKey, { wrappedKey: row.wrappedKey, iv: row.iv, authTag: row.authTag }, ciphertext);
      expect(createHash('sha256').update(plain).digest('hex')).toBe(row.fileSha256);
      expect(plain.length).toBe(row.bytes);
      expect(row.storageKey).toContain(`_${row.fileSha256?.slice(0, 8)}.`);
      // What intake would check: the type by its bytes matches the name, and its decoder opens it.
      const validation = validateFile({ head: plain.subarray(0, SNIFF_HEAD_BYTES), filename: row.originalFilename, bytes: plain.length, maxBytes: 1 << 20 });
      if (!validation.ok) throw new Error(`${row.originalFilename}: ${validation.message}`);
      expect(validation.mime, row.originalFilename).toBe(row.mime);
      expect((await inspectFile(validation.kind, plain)).ok, row.originalFilename).toBe(true);
      kinds.add(validation.mime);
      if (validation.kind === 'pdf') {
        const label = row.docType ? DOC_TYPE_LABELS[row.docType] : 'Document';
        expect(plain.toString('latin1')).toContain(`DEMO \x97 ${label} \x97 ${Buffer.from(players.get(row.playerId) ?? '?', 'latin1').toString('latin1')}`);
      }
    }
    expect(kinds).toEqual(new Set(['application/pdf', 'image/jpeg', 'image/png']));
    // Every file is its own: no two documents share bytes.
    expect(new Set(rows.map((row) => row.fileSha256)).size).toBe(rows.length);
  });
});
