import type { Storage } from '../adapters/storage/port';
import type { Db } from '../platform/db/client';
import { findStagedKeys } from './staging.repository';
import type { Logger } from '../platform/logger';

/** The folder intake stages uploads in (intake/form), one level deep: see stagedKey. */
export const STAGING_FOLDER = 'staging';

/**
 * Where file `position` of a submission waits for the pipeline: `staging/<submission uuid>-<position>`.
 * Flat, so staging a file never creates a folder (nor leaves an empty one behind when it moves on).
 */
export const stagedKey = (submissionId: string, position: number): string => `${STAGING_FOLDER}/${submissionId}-${position}`;

/** Deletes staged objects no submission will use, best effort: one that stays is removed by the sweep below. */
export async function discardStaged(storage: Storage, keys: readonly string[]): Promise<void> {
  await Promise.all(keys.map((key) => storage.delete(key).catch(() => undefined)));
}

/** Keys checked against the database at once while sweeping. */
const SWEEP_BATCH = 500;

export type StagingSweepDeps = {
  db: Db;
  storage: Storage;
  /** Only objects written before this are candidates: younger ones may belong to a request still running. */
  olderThan: Date;
  log: Logger;
};

/**
 * Deletes the staging objects no document points at that were written before `olderThan`. They are
 * what an intake leaves when its process dies between staging a file and committing the submission
 * (a SIGKILL, a power cut): the client never got its 202, no row refers to them, and nothing else would
 * ever delete them. An object is also unreferenced, legitimately, from its write until its submission
 * commits, so `olderThan` must lie further back than any request can take. An object a document still
 * references belongs to the pipeline (which moves or deletes it, then clears `staged_key`) and is left
 * alone however old it is.
 */
export async function sweepOrphanedStaging(deps: StagingSweepDeps): Promise<{ deleted: number }> {
  const cutoff = deps.olderThan.getTime();
  let deleted = 0;
  let candidates: string[] = [];
  const sweepCandidates = async () => {
    const referenced = await findStagedKeys(deps.db, candidates);
    for (const key of candidates) {
      if (referenced.has(key)) continue;
      await deps.storage.delete(key);
      deleted++;
    }
    candidates = [];
  };

  for await (const object of deps.storage.list(STAGING_FOLDER)) {
    if (object.lastModified.getTime() >= cutoff) continue;
    candidates.push(object.key);
    if (candidates.length >= SWEEP_BATCH) await sweepCandidates();
  }
  if (candidates.length > 0) await sweepCandidates();

  // Each one is an upload that was never acknowledged: worth a line, since it means a request died.
  if (deleted > 0) deps.log.warn({ deleted, olderThan: deps.olderThan }, 'deleted staging objects left by intake requests that never committed');
  return { deleted };
}

export type StagingSweeperTimer = {
  /** Sweeps at once, then every `intervalMs`. */
  start(): void;
  /** Stops the timer and waits for a sweep in progress, so the database can be closed after it. */
  stop(): Promise<void>;
};

/**
 * Runs `sweepOrphanedStaging` at start and then on an interval that never keeps the process alive,
 * with the cutoff `graceMs` before each run. A sweep still running when the next is due is not doubled;
 * a failed sweep is logged and the next one tries again.
 */
export function createStagingSweeperTimer(
  deps: Omit<StagingSweepDeps, 'olderThan'> & { intervalMs: number; graceMs: number; now?: () => Date },
): StagingSweeperTimer {
  const now = deps.now ?? (() => new Date());
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  const sweepOnce = (wholeStore = false) => {
    if (running) return;
    const olderThan = new Date(now().getTime() - deps.graceMs);
    running = sweepOrphanedStaging({ db: deps.db, storage: deps.storage, log: deps.log, olderThan })
      .then(
        () => undefined,
        (error: unknown) => deps.log.error({ err: error }, 'could not sweep orphaned staging objects'),
      )
      .then(async () => {
        try {
          // Staging (one small flat folder) every time; the whole store once per start.
          const removed = await deps.storage.removeAbandonedWrites(olderThan, wholeStore ? undefined : STAGING_FOLDER);
          if (removed > 0) deps.log.warn({ removed }, 'removed half-written files left by an earlier crash');
        } catch (error) {
          deps.log.error({ err: error }, 'could not remove half-written files left by an earlier crash');
        }
      })
      .finally(() => {
        running = undefined;
      });
  };

  return {
    start() {
      if (timer) return;
      sweepOnce(true);
      timer = setInterval(() => sweepOnce(), deps.intervalMs);
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}
