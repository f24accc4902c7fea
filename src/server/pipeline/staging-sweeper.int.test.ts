import { mkdtemp, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../../tests/support/databases';
import { createLocalStorage } from '../adapters/storage/local-storage';
import type { Storage } from '../adapters/storage/port';
import { insertDocument } from '../documents/documents.repository';
import { upsertPlayer } from '../players/players.repository';
import { insertSeasons } from '../seasons/seasons.repository';
import { findStagedKeys } from './staging.repository';
import { createLogger } from '../platform/logger';
import { sweepOrphanedStaging } from './staging-sweeper';

const HOUR = 3_600_000;

describeEachDatabase('staging sweeper', ({ getDb }) => {
  let root = '';
  let storage: Storage;

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'cb-sweeper-'));
    storage = createLocalStorage(root);
    await insertSeasons(getDb(), [
      { id: 'fall-2025', name: 'Fall Ball 2025', kind: 'Fall Ball', year: 2025, startsOn: '2025-08-15', endsOn: '2025-11-30', isCurrent: true },
    ]);
    await upsertPlayer(getDb(), { id: 'CB-2025-0a1b2c3d', firstName: 'Ada', lastName: 'Stage', birthDate: '2014-05-03' });
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  /** Writes a staging object and sets its modification time, as if written `ageMs` ago. */
  const stage = async (key: string, ageMs: number) => {
    await storage.put(key, Buffer.from(`ciphertext of ${key}`));
    const when = new Date(Date.now() - ageMs);
    await utimes(path.join(root, ...key.split('/')), when, when);
  };
  const referenceFrom = (stagedKey: string, status: 'processing' | 'pending') =>
    insertDocument(getDb(), {
      playerId: 'CB-2025-0a1b2c3d',
      seasonId: 'fall-2025',
      originalFilename: 'birth certificate.pdf',
      status,
      stagedKey,
    });

  it('deletes an old orphan, keeps a young orphan, and keeps old objects that documents still reference', async () => {
    await stage('staging/aaaaaaaa-0000-4000-8000-000000000001/0', 2 * HOUR); // old orphan: its request died
    await stage('staging/aaaaaaaa-0000-4000-8000-000000000001/1', 2 * HOUR); // its sibling, orphaned too
    await stage('staging/bbbbbbbb-0000-4000-8000-000000000002/0', 60_000); // young orphan: may be committing now
    await stage('staging/cccccccc-0000-4000-8000-000000000003/0', 48 * HOUR); // queued for the pipeline
    await stage('staging/dddddddd-0000-4000-8000-000000000004/0', 48 * HOUR); // stored, cleanup not yet done
    await stage('seasons/2025/AA/ada_stage/ada_stage_birth_certificate.pdf', 48 * HOUR); // not staging at all
    await referenceFrom('staging/cccccccc-0000-4000-8000-000000000003/0', 'processing');
    await referenceFrom('staging/dddddddd-0000-4000-8000-000000000004/0', 'pending');

    const result = await sweepOrphanedStaging({ db: getDb(), storage, olderThan: new Date(Date.now() - HOUR), log: createLogger('silent') });

    expect(result).toEqual({ deleted: 2 });
    const left: string[] = [];
    for await (const object of storage.list('staging')) left.push(object.key);
    expect(left.sort()).toEqual([
      'staging/bbbbbbbb-0000-4000-8000-000000000002/0',
      'staging/cccccccc-0000-4000-8000-000000000003/0',
      'staging/dddddddd-0000-4000-8000-000000000004/0',
    ]);
    expect(await storage.exists('seasons/2025/AA/ada_stage/ada_stage_birth_certificate.pdf')).toBe(true);

    // A second sweep finds nothing more to do.
    expect(await sweepOrphanedStaging({ db: getDb(), storage, olderThan: new Date(Date.now() - HOUR), log: createLogger('silent') })).toEqual({ deleted: 0 });
  });

  it('finds which of many keys documents reference, across query batches, and none for an empty list', async () => {
    const keys = Array.from({ length: 2_345 }, (_, i) => `staging/eeeeeeee-0000-4000-8000-${String(i).padStart(12, '0')}/0`);
    await referenceFrom(keys[7] ?? '', 'processing');
    await referenceFrom(keys[2_001] ?? '', 'processing');
    expect(await findStagedKeys(getDb(), keys)).toEqual(new Set([keys[7], keys[2_001]]));
    expect(await findStagedKeys(getDb(), [])).toEqual(new Set());
  });
});
