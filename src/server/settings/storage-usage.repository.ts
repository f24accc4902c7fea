import { and, count, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db } from '../platform/db/client';
import { registrationInDivisions, type DivisionScope } from '../platform/db/division-scope';
import { documents } from '../platform/db/schema';

export type StorageUsageRow = { driver: 'local' | 's3'; documents: number; bytes: number };

/**
 * Documents whose file is in storage now (stored and not removed by retention), and their bytes, per
 * driver, of the scope's divisions (every document for every division). Counted from the documents table:
 * listing an S3 bucket would cost a request per 1,000 objects.
 */
export async function sumStoredDocuments(db: Db, scope: DivisionScope = null): Promise<StorageUsageRow[]> {
  const rows = await db
    .select({
      driver: documents.storageDriver,
      documents: count(),
      bytes: sql<string>`coalesce(sum(${documents.bytes}), 0)`,
    })
    .from(documents)
    .where(
      and(
        isNotNull(documents.storageKey),
        isNotNull(documents.storageDriver),
        isNull(documents.purgedAt),
        registrationInDivisions(documents.playerId, documents.seasonId, scope),
      ),
    )
    .groupBy(documents.storageDriver);
  return rows.flatMap((row) => (row.driver ? [{ driver: row.driver, documents: Number(row.documents), bytes: Number(row.bytes) }] : []));
}
