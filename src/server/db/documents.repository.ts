import { and, asc, count, eq, isNull, ne } from 'drizzle-orm';
import type { TDocumentStatus } from '../../contract';
import type { Db } from './client';
import { insertInBatches } from './batch';
import { documents } from './schema';

export type DocumentRow = typeof documents.$inferSelect;
export type NewDocument = typeof documents.$inferInsert;

export const insertDocuments = (db: Db, rows: readonly NewDocument[]) => insertInBatches(db, documents, rows, 500);

export async function countDocuments(db: Db, status?: TDocumentStatus): Promise<number> {
  const query = db.select({ n: count() }).from(documents);
  const [row] = await (status ? query.where(eq(documents.status, status)) : query);
  return row?.n ?? 0;
}

export async function insertDocument(db: Db, row: NewDocument): Promise<DocumentRow> {
  const [inserted] = await db.insert(documents).values(row).returning();
  if (!inserted) throw new Error('document insert returned nothing');
  return inserted;
}

export async function findDocument(db: Db, id: string): Promise<DocumentRow | undefined> {
  const [row] = await db.select().from(documents).where(eq(documents.id, id));
  return row;
}

/** The live (not rejected, not purged) document holding this exact file for this player and season. */
export async function findSameFile(
  db: Db,
  key: { playerId: string; seasonId: string; fileSha256: string },
): Promise<DocumentRow | undefined> {
  const [row] = await db
    .select()
    .from(documents)
    .where(
      and(
        eq(documents.playerId, key.playerId),
        eq(documents.seasonId, key.seasonId),
        eq(documents.fileSha256, key.fileSha256),
        ne(documents.status, 'rejected'),
        isNull(documents.purgedAt),
      ),
    );
  return row;
}

export const listDocumentsOfSubmission = (db: Db, submissionId: string): Promise<DocumentRow[]> =>
  db.select().from(documents).where(eq(documents.submissionId, submissionId)).orderBy(asc(documents.createdAt), asc(documents.id));

export async function countProcessingDocumentsOfSubmission(db: Db, submissionId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(documents)
    .where(and(eq(documents.submissionId, submissionId), eq(documents.status, 'processing')));
  return row?.n ?? 0;
}

export async function updateDocument(db: Db, id: string, changes: Partial<NewDocument>): Promise<void> {
  await db.update(documents).set(changes).where(eq(documents.id, id));
}
