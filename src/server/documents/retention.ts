import type { Storage } from '../adapters/storage/port';
import type { TJobPayload, TJobQueue } from '../../contract';
import type { Db } from '../platform/db/client';
import { recordAuditEvent } from '../audit';
import { removeReading } from '../reading';
import { findExpiredDocuments, markDocumentPurged, type ExpiredDocument } from './retention.repository';
import type { JobHandler } from '../platform/jobs/job-runner';
import { ensureJobScheduled } from '../platform/jobs/jobs.repository';
import type { Logger } from '../platform/logger';

/** The job queue retention runs on: one job at a time, each scheduling the next. */
export const RETENTION_QUEUE = 'retention' satisfies TJobQueue;

const DAY_MS = 24 * 60 * 60_000;
/** Soon after start, but not in the middle of boot: a fresh instance has other work to settle first. */
const FIRST_RUN_DELAY_MS = 60_000;
/**
 * When no delete succeeded the storage is probably down; the runner's default backoff (seconds to
 * minutes) would spend every attempt within one outage, so retries are spaced an hour apart.
 */
const ALL_FAILED_RETRY_MS = 60 * 60_000;
const DEFAULT_BATCH_SIZE = 100;

export type RetentionDeps = {
  db: Db;
  /** The storage that holds objects of the given driver; may throw when that driver is not configured. */
  storageFor(driver: 'local' | 's3'): Storage;
  log: Logger;
  now?: () => Date;
  /** Documents read per query. */
  batchSize?: number;
};

type PurgeResult = 'purged' | 'failed' | 'skipped';

/**
 * The daily retention run: deletes the stored object of every document past `retain_until`, then turns
 * its row into a tombstone and audits that in one transaction. The object goes first so that a crash in
 * between leaves a row that the next run finds again (deleting a missing object is harmless), never a
 * tombstone whose object still exists. One document's storage error is logged and left for the next
 * run; the others proceed. The outcome is `retry` only when there was work and none of it succeeded.
 */
export function createRetentionHandler(deps: RetentionDeps): JobHandler<TJobPayload<'retention'>> {
  const now = deps.now ?? (() => new Date());
  const batchSize = deps.batchSize ?? DEFAULT_BATCH_SIZE;

  return async () => {
    const startedAt = now();
    // Scheduled before the work, not after: if this run throws or exhausts its retries, tomorrow's
    // run is already queued and retention does not silently stop until the next restart.
    await ensureJobScheduled(deps.db, RETENTION_QUEUE, new Date(startedAt.getTime() + DAY_MS));

    const counts: Record<PurgeResult, number> = { purged: 0, failed: 0, skipped: 0 };
    let after: string | undefined;
    for (;;) {
      const batch = await findExpiredDocuments(deps.db, startedAt, batchSize, after);
      for (const document of batch) counts[await purgeDocument(deps, document, now)]++;
      const last = batch.at(-1);
      if (!last || batch.length < batchSize) break;
      after = last.id;
    }

    if (counts.purged + counts.failed + counts.skipped > 0) deps.log.info({ ...counts }, 'retention run finished');
    if (counts.failed > 0 && counts.purged === 0) {
      return { kind: 'retry', reason: `could not delete any of ${counts.failed} expired documents`, delayMs: ALL_FAILED_RETRY_MS };
    }
    return { kind: 'done' };
  };
}

async function purgeDocument(deps: RetentionDeps, document: ExpiredDocument, now: () => Date): Promise<PurgeResult> {
  try {
    if (!document.storageDriver) throw new Error('the document has a storage key but no storage driver');
    await deps.storageFor(document.storageDriver).delete(document.storageKey);
  } catch (error) {
    // The key is left out: it carries the child's name, and the document id leads to it.
    deps.log.error({ err: error, documentId: document.id }, 'could not delete an expired document; the next retention run tries again');
    return 'failed';
  }

  const purgedAt = now();
  const marked = await deps.db.transaction(async (tx) => {
    const changed = await markDocumentPurged(tx, document.id, purgedAt, document);
    if (changed) {
      // The text read from the file goes with it.
      await removeReading(tx, document.id);
      await recordAuditEvent(tx, {
        actor: 'system',
        action: 'document.purged',
        subjectType: 'document',
        subjectId: document.id,
        detail: { storageKey: document.storageKey, retainUntil: document.retainUntil.toISOString() },
      });
    }
    return changed;
  });
  // Not marked: another run tombstoned it first, or it moved to another storage and is deleted there next run.
  return marked ? 'purged' : 'skipped';
}

/** Call at start: queues a run a minute from `now` unless one (from this or another instance) is waiting. */
export function scheduleRetention(db: Db, now: Date): Promise<boolean> {
  return ensureJobScheduled(db, RETENTION_QUEUE, new Date(now.getTime() + FIRST_RUN_DELAY_MS));
}
