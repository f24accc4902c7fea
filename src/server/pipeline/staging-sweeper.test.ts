import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Storage, StoredObject } from '../adapters/storage/port';
import type { Db } from '../platform/db/client';
import { findStagedKeys } from './staging.repository';
import { createLogger } from '../platform/logger';
import { createStagingSweeperTimer, sweepOrphanedStaging } from './staging-sweeper';

// The database side is one query, proven against both databases in staging-sweeper.int.test.ts.
vi.mock('./staging.repository', () => ({ findStagedKeys: vi.fn() }));
const findStagedKeysMock = vi.mocked(findStagedKeys);

/** Never touched: every query goes through the mocked repository. */
const db = {} as Db;
const HOUR = 3_600_000;

/** Objects in memory with the time each was written; `list` behaves as the port says. */
function createMemoryStorage(objects: Record<string, Date>) {
  const stored = new Map(Object.entries(objects));
  const listed: string[] = [];
  const storage: Storage = {
    driver: 'local',
    location: 'memory',
    put: () => Promise.reject(new Error('not used')),
    copy: () => Promise.reject(new Error('not used')),
    get: () => Promise.resolve(Readable.from([])),
    exists: (key) => Promise.resolve(stored.has(key)),
    delete: (key) => {
      stored.delete(key);
      return Promise.resolve();
    },
    async *list(prefix): AsyncGenerator<StoredObject> {
      listed.push(prefix);
      for (const [key, lastModified] of [...stored]) {
        await Promise.resolve(); // a real listing waits on I/O between objects
        if (key.startsWith(`${prefix}/`)) yield { key, lastModified };
      }
    },
    urlFor: (key) => `memory:${key}`,
    removeAbandonedWrites: () => Promise.resolve(0),
  };
  return { storage, keys: () => [...stored.keys()].sort(), listed };
}

function captureLog() {
  const lines: Array<{ level: number; msg: string; deleted?: number }> = [];
  const log = createLogger('info', { write: (line: string) => lines.push(JSON.parse(line) as (typeof lines)[number]) });
  return { log, lines };
}

beforeEach(() => {
  findStagedKeysMock.mockReset();
  findStagedKeysMock.mockImplementation((_db, keys) => Promise.resolve(new Set(keys.filter((key) => key.includes('referenced')))));
});

describe('sweepOrphanedStaging', () => {
  const now = new Date('2025-09-01T12:00:00Z');
  const ago = (ms: number) => new Date(now.getTime() - ms);

  it('deletes old unreferenced staging objects and keeps young ones, referenced ones and everything outside staging', async () => {
    const { storage, keys } = createMemoryStorage({
      'staging/s1/0': ago(2 * HOUR),
      'staging/s1/1': ago(2 * HOUR),
      'staging/s2/0': ago(1_000),
      'staging/referenced/0': ago(48 * HOUR),
      'seasons/2025/AA/p/file.pdf': ago(48 * HOUR),
    });
    const { log, lines } = captureLog();
    expect(await sweepOrphanedStaging({ db, storage, log, olderThan: ago(HOUR) })).toEqual({ deleted: 2 });
    expect(keys()).toEqual(['seasons/2025/AA/p/file.pdf', 'staging/referenced/0', 'staging/s2/0']);
    // Only the old ones are worth a query: young objects are never looked up.
    expect(findStagedKeysMock.mock.calls.map(([, asked]) => [...asked].sort())).toEqual([['staging/referenced/0', 'staging/s1/0', 'staging/s1/1']]);
    expect(lines).toMatchObject([{ level: 40, deleted: 2 }]);
  });

  it('keeps an object written exactly at the cutoff', async () => {
    const { storage, keys } = createMemoryStorage({ 'staging/s1/0': ago(HOUR) });
    expect(await sweepOrphanedStaging({ db, storage, log: captureLog().log, olderThan: ago(HOUR) })).toEqual({ deleted: 0 });
    expect(keys()).toEqual(['staging/s1/0']);
    expect(findStagedKeysMock).not.toHaveBeenCalled();
  });

  it('asks the database in batches, so a large backlog never becomes one huge query', async () => {
    const objects = Object.fromEntries(Array.from({ length: 1_234 }, (_, i) => [`staging/s${i}/0`, ago(2 * HOUR)]));
    const { storage, keys } = createMemoryStorage(objects);
    const { log, lines } = captureLog();
    expect(await sweepOrphanedStaging({ db, storage, log, olderThan: ago(HOUR) })).toEqual({ deleted: 1_234 });
    expect(findStagedKeysMock.mock.calls.map(([, asked]) => asked.length)).toEqual([500, 500, 234]);
    expect(keys()).toEqual([]);
    expect(lines).toHaveLength(1);
  });

  it('logs nothing when there is nothing to delete', async () => {
    const { storage } = createMemoryStorage({});
    const { log, lines } = captureLog();
    expect(await sweepOrphanedStaging({ db, storage, log, olderThan: now })).toEqual({ deleted: 0 });
    expect(lines).toEqual([]);
  });

  it('rejects when the database cannot say which keys are referenced, deleting nothing', async () => {
    findStagedKeysMock.mockRejectedValue(new Error('connection refused'));
    const { storage, keys } = createMemoryStorage({ 'staging/s1/0': ago(2 * HOUR) });
    await expect(sweepOrphanedStaging({ db, storage, log: captureLog().log, olderThan: ago(HOUR) })).rejects.toThrow('connection refused');
    expect(keys()).toEqual(['staging/s1/0']);
  });
});

describe('createStagingSweeperTimer', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date('2025-09-01T12:00:00Z') });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sweeps at start and then every interval, each time with the cutoff the grace before that moment', async () => {
    const start = Date.now();
    // Written 90 s after start: young for a sweep before start + 90 s + grace, old from then on.
    const { storage, keys, listed } = createMemoryStorage({ 'staging/s1/0': new Date(start + 90_000) });
    const timer = createStagingSweeperTimer({ db, storage, log: captureLog().log, intervalMs: 60_000, graceMs: 60_000 });
    timer.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(listed).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(120_000); // runs at +60 s (cutoff 0 s) and +120 s (cutoff +60 s): too young
    expect(listed).toHaveLength(3);
    expect(keys()).toEqual(['staging/s1/0']);
    await vi.advanceTimersByTimeAsync(60_000); // run at +180 s: cutoff +120 s, the object is older
    expect(listed).toHaveLength(4);
    expect(keys()).toEqual([]);
    await timer.stop();
    await vi.advanceTimersByTimeAsync(600_000);
    expect(listed).toHaveLength(4);
  });

  it('does not start a sweep while the previous one is still running, and stop waits for it', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { storage, listed } = createMemoryStorage({});
    const slow: Storage = {
      ...storage,
      async *list(prefix) {
        listed.push(prefix);
        await gate;
        // Written while this sweep ran, so younger than its cutoff: no database needed.
        yield { key: 'staging/s1/0', lastModified: new Date() };
      },
    };
    const timer = createStagingSweeperTimer({ db, storage: slow, log: captureLog().log, intervalMs: 1_000, graceMs: 0 });
    timer.start();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(listed).toHaveLength(1);
    let stopped = false;
    const stopping = timer.stop().then(() => {
      stopped = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(listed).toHaveLength(1);
  });

  it('logs a failed sweep and tries again at the next interval', async () => {
    findStagedKeysMock.mockRejectedValueOnce(new Error('connection refused'));
    const { storage, keys } = createMemoryStorage({ 'staging/s1/0': new Date(Date.now() - HOUR) });
    const { log, lines } = captureLog();
    const timer = createStagingSweeperTimer({ db, storage, log, intervalMs: 1_000, graceMs: 0 });
    timer.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(lines).toMatchObject([{ level: 50, msg: 'could not sweep orphaned staging objects' }]);
    expect(keys()).toEqual(['staging/s1/0']);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(keys()).toEqual([]);
    await timer.stop();
  });

  it('never keeps the process alive', () => {
    const timer = createStagingSweeperTimer({ db, storage: createMemoryStorage({}).storage, log: captureLog().log, intervalMs: 1_000, graceMs: 0 });
    const setIntervalSpy = vi.spyOn(globalThis, 'setInterval');
    timer.start();
    const handle = setIntervalSpy.mock.results[0]?.value as NodeJS.Timeout | undefined;
    expect(handle?.hasRef()).toBe(false);
    void timer.stop();
  });
});
