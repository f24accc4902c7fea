import { and, count, eq, inArray, sql } from 'drizzle-orm';
import type { TSubmissionSource } from '../../contract';
import type { Db } from '../platform/db/client';
import { insertInBatches } from '../platform/db/batch';
import { documents, submissions } from '../platform/db/schema';

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
 * Settles a submission once none of its documents is still in the pipeline; call it in the transaction
 * that settles one of them (`rejection` = why this one was rejected, e.g. 'Virus found: …'). Processed
 * when a document of it is live, failed with the reason when every one was rejected.
 *
 * With several files, the submission row is locked first: two of its documents settling at once then
 * take turns, and the later one's count sees the earlier one's change (otherwise each would see the other
 * still processing and the submission would stay pending for good).
 */
export async function settleSubmission(tx: Db, submissionId: string, files: number, rejection?: string): Promise<void> {
  if (files <= 1) {
    await tx
      .update(submissions)
      .set(rejection ? { status: 'failed', errorMessage: rejection } : { status: 'processed', errorMessage: null })
      .where(eq(submissions.id, submissionId));
    return;
  }
  await tx.select({ id: submissions.id }).from(submissions).where(eq(submissions.id, submissionId)).for('update');
  const counts = await tx
    .select({ status: documents.status, n: count(), firstNote: sql<string | null>`min(${documents.reviewNotes})` })
    .from(documents)
    .where(eq(documents.submissionId, submissionId))
    .groupBy(documents.status);
  if (counts.some((row) => row.status === 'processing' && row.n > 0)) return;
  const live = counts.some((row) => row.status !== 'rejected' && row.n > 0);
  const reason = rejection ?? counts.find((row) => row.status === 'rejected')?.firstNote ?? 'No file of the submission could be accepted';
  await tx
    .update(submissions)
    .set(live ? { status: 'processed', errorMessage: null } : { status: 'failed', errorMessage: reason })
    .where(eq(submissions.id, submissionId));
}

/**
 * Removes a failed submission and the refused files recorded with it, so a retry can record the same
 * mail afresh. Anything else (a submission that is not failed) is left alone.
 */
export async function deleteFailedSubmission(tx: Db, submissionId: string): Promise<void> {
  const [failed] = await tx
    .select({ id: submissions.id })
    .from(submissions)
    .where(and(eq(submissions.id, submissionId), eq(submissions.status, 'failed')))
    .for('update');
  if (!failed) return;
  await tx.delete(documents).where(and(eq(documents.submissionId, submissionId), eq(documents.status, 'rejected')));
  await tx.delete(submissions).where(eq(submissions.id, submissionId));
}

export async function findSubmission(db: Db, id: string): Promise<SubmissionRow | undefined> {
  const [row] = await db.select().from(submissions).where(eq(submissions.id, id));
  return row;
}

/** Which of these submissions are still pending (a document of theirs in the pipeline), in one query. */
export async function findPendingSubmissionIds(db: Db, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: submissions.id })
    .from(submissions)
    .where(and(inArray(submissions.id, [...ids]), eq(submissions.status, 'pending')));
  return new Set(rows.map((row) => row.id));
}
