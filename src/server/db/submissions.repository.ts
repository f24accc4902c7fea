import { and, count, eq } from 'drizzle-orm';
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

export async function insertSubmission(db: Db, row: NewSubmission): Promise<SubmissionRow> {
  const [inserted] = await db.insert(submissions).values(row).returning();
  if (!inserted) throw new Error('submission insert returned nothing');
  return inserted;
}

export async function findSubmissionByExternalId(db: Db, source: TSubmissionSource, externalId: string): Promise<SubmissionRow | undefined> {
  const [row] = await db
    .select()
    .from(submissions)
    .where(and(eq(submissions.source, source), eq(submissions.externalId, externalId)));
  return row;
}

export async function setSubmissionStatus(
  db: Db,
  id: string,
  status: SubmissionRow['status'],
  errorMessage: string | null = null,
): Promise<void> {
  await db.update(submissions).set({ status, errorMessage }).where(eq(submissions.id, id));
}
