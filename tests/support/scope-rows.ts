import { DOC_TYPES, type TDivision, type TDocumentStatus } from '../../src/contract';
import type { Db } from '../../src/server/platform/db/client';
import { documents, registrations } from '../../src/server/platform/db/schema';

/**
 * What a person limited to some divisions should see, worked out in TypeScript from the raw rows (registrations
 * and documents), not from the summaries and totals the server reads: the division-scope tests compare the
 * server's answers with it.
 */
export type ScopedRows = {
  /** The season's registrations in the divisions. */
  registrations: Array<typeof registrations.$inferSelect>;
  /** Every document (any season) whose player is registered for its season in one of the divisions. */
  documents: Array<typeof documents.$inferSelect & { division: TDivision }>;
  /** Of the season's registrations, those with a verified, not purged document of each of the four types. */
  complete: string[];
  /** Of the season's registrations, those with no live (neither rejected nor purged) document of some type. */
  missingSomeType: string[];
};

export async function scopedRows(db: Db, divisions: readonly TDivision[], seasonId: string): Promise<ScopedRows> {
  const allRegistrations = await db.select().from(registrations);
  const divisionOf = new Map(allRegistrations.map((row) => [`${row.playerId} ${row.seasonId}`, row.division]));
  const inScope = (division: TDivision | undefined): division is TDivision => division !== undefined && divisions.includes(division);
  const scopedDocuments = (await db.select().from(documents)).flatMap((row) => {
    const division = divisionOf.get(`${row.playerId} ${row.seasonId}`);
    return inScope(division) ? [{ ...row, division }] : [];
  });
  const seasonRegistrations = allRegistrations.filter((row) => row.seasonId === seasonId && inScope(row.division));
  const complete = seasonRegistrations
    .filter((registration) =>
      DOC_TYPES.every((docType) =>
        scopedDocuments.some(
          (d) => d.playerId === registration.playerId && d.seasonId === seasonId && d.docType === docType && d.status === 'verified' && d.purgedAt === null,
        ),
      ),
    )
    .map((row) => row.playerId);
  const missingSomeType = seasonRegistrations
    .filter((registration) =>
      DOC_TYPES.some(
        (docType) =>
          !scopedDocuments.some(
            (d) => d.playerId === registration.playerId && d.seasonId === seasonId && d.docType === docType && d.status !== 'rejected' && d.purgedAt === null,
          ),
      ),
    )
    .map((row) => row.playerId);
  return { registrations: seasonRegistrations, documents: scopedDocuments, complete, missingSomeType };
}

/** The season's documents of the rows that are not purged. */
export const liveInSeason = (rows: ScopedRows, seasonId: string) => rows.documents.filter((d) => d.seasonId === seasonId && d.purgedAt === null);

/** Counts of documents by status. */
export function byStatus(docs: ReadonlyArray<{ status: TDocumentStatus }>): Record<TDocumentStatus, number> {
  const counts: Record<TDocumentStatus, number> = { processing: 0, pending: 0, verified: 0, rejected: 0 };
  for (const doc of docs) counts[doc.status] += 1;
  return counts;
}

/** Newest first (uploaded_at, then id, descending), as the lists order documents. */
export const newestFirst = <T extends { uploadedAt: Date; id: string }>(docs: readonly T[]): T[] =>
  [...docs].sort((a, b) => b.uploadedAt.getTime() - a.uploadedAt.getTime() || (b.id < a.id ? -1 : b.id > a.id ? 1 : 0));
