import { count, eq } from 'drizzle-orm';
import type { TSubmissionSource } from '../../contract';
import type { Db } from './client';
import { insertInBatches } from './batch';
import { submissions } from './schema';

export type SubmissionRow = typeof submissions.$inferSelect;
export type NewSubmission = typeof submissions.$inferInsert;

export const insertSubmissions = (db: Db, rows: readonly NewSubmission[]) =>
  insertInBatches(db, submissions, rows, 500);

export async function countSubmissions(db: Db, source?: TSubmissionSource): Promise<number> {
  const query = db.select({ n: count() }).from(submissions);
  const [row] = await (source ? query.where(eq(submissions.source, source)) : query);
  return row?.n ?? 0;
}
