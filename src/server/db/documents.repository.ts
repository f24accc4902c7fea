import { count, eq } from 'drizzle-orm';
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
