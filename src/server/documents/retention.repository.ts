import { and, asc, eq, gt, isNotNull, isNull, lte } from 'drizzle-orm';
import type { Db } from '../platform/db/client';
import type { JobRow } from '../platform/jobs/jobs.repository';
import { documents, jobs } from '../platform/db/schema';

/**
 * Namespace of the advisory locks that serialise "is one queued? else enqueue" per queue. Arbitrary,
 * but fixed: every instance must take the same lock. The two-int form never collides with the bigint
 * migration lock in client.ts (PostgreSQL keeps the two key spaces apart).
 */

/** What retention needs of a document whose stored object is due for deletion. */
export type ExpiredDocument = {
  id: string;
  storageDriver: 'local' | 's3' | null;
  storageKey: string;
  retainUntil: Date;
};

/**
 * Up to `limit` documents past `retain_until` that still have a stored object and are not yet
 * tombstones, in id order. `after` is the last id of the previous page: a document whose delete failed
 * stays expired, and paging by id (not by "whatever is left") steps past it instead of fetching it again.
 */
export async function findExpiredDocuments(db: Db, now: Date, limit: number, after?: string): Promise<ExpiredDocument[]> {
  const rows = await db
    .select({ id: documents.id, storageDriver: documents.storageDriver, storageKey: documents.storageKey, retainUntil: documents.retainUntil })
    .from(documents)
    .where(
      and(
        lte(documents.retainUntil, now),
        isNull(documents.purgedAt),
        isNotNull(documents.storageKey),
        after === undefined ? undefined : gt(documents.id, after),
      ),
    )
    .orderBy(asc(documents.id))
    .limit(limit);
  // The where clause already excludes nulls; this only tells the type system so.
  return rows.flatMap(({ storageKey, retainUntil, ...rest }) => (storageKey !== null && retainUntil !== null ? [{ ...rest, storageKey, retainUntil }] : []));
}

/**
 * Turns the document into a tombstone once its object is deleted. `stored_path`, `storage_driver`,
 * the file's name, size and hash stay for the audit trail (what existed, where, until when);
 * `storage_key` is cleared because no object is behind it any more, and the key material
 * (`wrapped_key`, `iv`, `auth_tag`) because without it no copy of the ciphertext that survived
 * elsewhere (a backup, a missed replica) can ever be decrypted again.
 *
 * Only a live row pointing at the object that was deleted is changed, so a concurrent run cannot
 * tombstone it twice (nor audit it twice), and a document moved to another storage meanwhile ("push to
 * storage") is left for the next run to delete where it now is. Returns whether this call tombstoned it.
 */
export async function markDocumentPurged(
  db: Db,
  id: string,
  now: Date,
  deleted?: { storageDriver: 'local' | 's3' | null; storageKey: string },
): Promise<boolean> {
  const rows = await db
    .update(documents)
    .set({ purgedAt: now, storageKey: null, wrappedKey: null, iv: null, authTag: null })
    .where(
      and(
        eq(documents.id, id),
        isNull(documents.purgedAt),
        deleted === undefined ? undefined : eq(documents.storageKey, deleted.storageKey),
        deleted === undefined
          ? undefined
          : deleted.storageDriver === null
            ? isNull(documents.storageDriver)
            : eq(documents.storageDriver, deleted.storageDriver),
      ),
    )
    .returning({ id: documents.id });
  return rows.length > 0;
}

/** The jobs of `queue` waiting to run, soonest first. */
export const listQueuedJobs = (db: Db, queue: string): Promise<JobRow[]> =>
  db
    .select()
    .from(jobs)
    .where(and(eq(jobs.queue, queue), eq(jobs.status, 'queued')))
    .orderBy(asc(jobs.runAt), asc(jobs.id));

