import { and, count, eq } from 'drizzle-orm';
import type { TSubmissionSource } from '../../contract';
import type { Db } from './client';
import { insertInBatches } from './batch';
import { countProcessingDocumentsOfSubmission } from './documents.repository';
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

/**
 * Marks a submission processed once none of its documents is still in the pipeline; call it in the
 * transaction that settles one of them. With several files, the submission row is locked first: two of its
 * documents settling at once then take turns, and the later one's count sees the earlier one's change
 * (otherwise each would see the other still processing and the submission would stay pending for good).
 */
export async function settleSubmission(tx: Db, submissionId: string, files: number): Promise<void> {
  if (files > 1) {
    await tx.select({ id: submissions.id }).from(submissions).where(eq(submissions.id, submissionId)).for('update');
    if ((await countProcessingDocumentsOfSubmission(tx, submissionId)) > 0) return;
  }
  await tx.update(submissions).set({ status: 'processed', errorMessage: null }).where(eq(submissions.id, submissionId));
}
