import { and, asc, eq, gt, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db } from '../platform/db/client';
import { documents, seasons } from '../platform/db/schema';

/** What minimising needs of a verified birth certificate whose file is due for removal. */
export type VerifiedFileDue = {
  id: string;
  storageDriver: 'local' | 's3' | null;
  storageKey: string;
  originalFilename: string;
  fileSha256: string | null;
  reviewedBy: string | null;
  reviewedAt: Date;
};

/**
 * Up to `limit` verified birth certificates, in id order after `after`, of the seasons that remove such files
 * (remove_verified_birth_certificate_files_after_days set), verified at least that many days before `now`, whose
 * stored file is still there (not purged, not removed yet). Paged by id, as retention pages, so a file whose
 * deletion failed is stepped past instead of read again.
 */
export async function findVerifiedFilesDue(db: Db, now: Date, limit: number, after?: string): Promise<VerifiedFileDue[]> {
  const rows = await db
    .select({
      id: documents.id,
      storageDriver: documents.storageDriver,
      storageKey: documents.storageKey,
      originalFilename: documents.originalFilename,
      fileSha256: documents.fileSha256,
      reviewedBy: documents.reviewedBy,
      reviewedAt: documents.reviewedAt,
    })
    .from(documents)
    .innerJoin(seasons, eq(seasons.id, documents.seasonId))
    .where(
      and(
        isNotNull(seasons.removeVerifiedBirthCertificateFilesAfterDays),
        eq(documents.docType, 'birth_certificate'),
        eq(documents.status, 'verified'),
        sql`${documents.reviewedAt} + make_interval(days => ${seasons.removeVerifiedBirthCertificateFilesAfterDays}) <= ${now.toISOString()}::timestamptz`,
        isNotNull(documents.storageKey),
        isNull(documents.purgedAt),
        isNull(documents.fileRemovedAt),
        after === undefined ? undefined : gt(documents.id, after),
      ),
    )
    .orderBy(asc(documents.id))
    .limit(limit);
  // The where clause already excludes nulls; this only tells the type system so.
  return rows.flatMap(({ storageKey, reviewedAt, ...rest }) => (storageKey !== null && reviewedAt !== null ? [{ ...rest, storageKey, reviewedAt }] : []));
}

/**
 * Records that the file of a verified document was removed: `file_removed_at`, and no storage key (no object is
 * behind it), nor the key material that could decrypt a copy that survived elsewhere. The verification, its
 * facts, the file's name and hash stay, and the status stays verified, so the document still counts. Only a row
 * still verified, not purged nor removed, pointing at the object that was deleted, is changed: a concurrent run
 * cannot record it twice, and a document moved to another storage meanwhile is left for the next run. Returns
 * whether this call recorded it.
 */
export async function markVerifiedFileRemoved(db: Db, id: string, now: Date, deleted: { storageDriver: 'local' | 's3' | null; storageKey: string }): Promise<boolean> {
  const rows = await db
    .update(documents)
    .set({ fileRemovedAt: now, storageKey: null, wrappedKey: null, iv: null, authTag: null })
    .where(
      and(
        eq(documents.id, id),
        eq(documents.status, 'verified'),
        isNull(documents.purgedAt),
        isNull(documents.fileRemovedAt),
        eq(documents.storageKey, deleted.storageKey),
        deleted.storageDriver === null ? isNull(documents.storageDriver) : eq(documents.storageDriver, deleted.storageDriver),
      ),
    )
    .returning({ id: documents.id });
  return rows.length > 0;
}
