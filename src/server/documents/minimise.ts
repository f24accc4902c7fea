import type { Storage } from '../adapters/storage/port';
import type { TJobPayload, TJobQueue } from '../../contract';
import type { Db } from '../platform/db/client';
import { recordAuditEvent } from '../audit';
import { removeReading } from '../reading';
import { findVerifiedFilesDue, markVerifiedFileRemoved, type VerifiedFileDue } from './minimise.repository';
import type { JobHandler } from '../platform/jobs/job-runner';
import { ensureJobScheduled } from '../platform/jobs/jobs.repository';
import type { Logger } from '../platform/logger';

/** The job queue that removes verified birth certificates' files: one job at a time, each scheduling the next. */
export const MINIMISE_QUEUE = 'minimise-verified-files' satisfies TJobQueue;

const DAY_MS = 24 * 60 * 60_000;
/** Soon after start, after retention's first run. */
const FIRST_RUN_DELAY_MS = 2 * 60_000;
/** When no deletion succeeded the storage is probably down: the next attempt an hour later, as retention does. */
const ALL_FAILED_RETRY_MS = 60 * 60_000;
const DEFAULT_BATCH_SIZE = 100;

export type MinimiseDeps = {
  db: Db;
  /** The storage that holds objects of the given driver; may throw when that driver is not configured. */
  storageFor(driver: 'local' | 's3'): Storage;
  log: Logger;
  now?: () => Date;
  /** Documents read per query. */
  batchSize?: number;
};

type RemoveResult = 'removed' | 'failed' | 'skipped';

/**
 * Verify, then minimise: the daily run that deletes the stored file of every verified birth certificate of a
 * season that says to, its days after the verification (remove_verified_birth_certificate_files_after_days).
 * The document keeps what the verification established (status verified, who and when, the date of birth, the
 * file's name and SHA-256) and still counts; it gains `file_removed_at` and loses its storage key.
 *
 * Per document, as retention does, the object is never recorded as removed while it still exists: one
 * transaction marks the row (which also locks it, and checks it is still verified and still points at that
 * object, so a document reopened or moved meanwhile is left alone), deletes the object, and writes the audit
 * record. A failed deletion rolls the mark back and the document waits for the next run; a crash after the
 * deletion leaves the row as it was, and the next run's deletion of a missing object is harmless.
 */
export function createMinimiseHandler(deps: MinimiseDeps): JobHandler<TJobPayload<'minimise-verified-files'>> {
  const now = deps.now ?? (() => new Date());
  const batchSize = deps.batchSize ?? DEFAULT_BATCH_SIZE;

  return async () => {
    const startedAt = now();
    // Scheduled before the work: a run that throws does not stop tomorrow's.
    await ensureJobScheduled(deps.db, MINIMISE_QUEUE, new Date(startedAt.getTime() + DAY_MS));

    const counts: Record<RemoveResult, number> = { removed: 0, failed: 0, skipped: 0 };
    let after: string | undefined;
    for (;;) {
      const batch = await findVerifiedFilesDue(deps.db, startedAt, batchSize, after);
      for (const document of batch) counts[await removeFile(deps, document, now)]++;
      const last = batch.at(-1);
      if (!last || batch.length < batchSize) break;
      after = last.id;
    }

    if (counts.removed + counts.failed + counts.skipped > 0) deps.log.info({ ...counts }, 'verified files run finished');
    if (counts.failed > 0 && counts.removed === 0) {
      return { kind: 'retry', reason: `could not delete any of ${counts.failed} verified files due for removal`, delayMs: ALL_FAILED_RETRY_MS };
    }
    return { kind: 'done' };
  };
}

class NotRecorded extends Error {}

async function removeFile(deps: MinimiseDeps, document: VerifiedFileDue, now: () => Date): Promise<RemoveResult> {
  const removedAt = now();
  try {
    await deps.db.transaction(async (tx) => {
      // Not marked: another run removed it first, or it was reopened or moved since it was read.
      if (!(await markVerifiedFileRemoved(tx, document.id, removedAt, document))) throw new NotRecorded();
      if (!document.storageDriver) throw new Error('the document has a storage key but no storage driver');
      await deps.storageFor(document.storageDriver).delete(document.storageKey);
      // The text read from the file goes with it.
      await removeReading(tx, document.id);
      await recordAuditEvent(tx, {
        actor: 'system',
        action: 'document.file_removed',
        subjectType: 'document',
        subjectId: document.id,
        detail: {
          fileName: document.originalFilename,
          fileSha256: document.fileSha256,
          verifiedBy: document.reviewedBy,
          verifiedAt: document.reviewedAt.toISOString(),
        },
      });
    });
    return 'removed';
  } catch (error) {
    if (error instanceof NotRecorded) return 'skipped';
    // Neither the key nor the file name: they carry the child's name, and the document id leads to them.
    deps.log.error({ err: error, documentId: document.id }, 'could not delete a verified file; the next run tries again');
    return 'failed';
  }
}

/** Call at start: queues a run two minutes from `now` unless one (from this or another instance) is waiting. */
export function scheduleMinimise(db: Db, now: Date): Promise<boolean> {
  return ensureJobScheduled(db, MINIMISE_QUEUE, new Date(now.getTime() + FIRST_RUN_DELAY_MS));
}
