import { and, count, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { TJobPayload, TJobQueue } from '../../../contract';
import { jobs, type TJobStatus } from '../db/schema';

export type JobRow = typeof jobs.$inferSelect;

/** Queues a job of one of the catalogue's queues, with the payload that queue's handler reads. */
export function enqueueJob<Q extends TJobQueue>(
  db: Db,
  job: { queue: Q; payload: TJobPayload<Q>; runAt?: Date; maxAttempts?: number },
): Promise<number> {
  return insertJob(db, job);
}

/** Queues a job on any queue, unchecked: for the job runner's own tests, which make up their queues. */
export async function insertJob(
  db: Db,
  job: { queue: string; payload: Record<string, unknown>; runAt?: Date; maxAttempts?: number },
): Promise<number> {
  const [row] = await db
    .insert(jobs)
    .values({ queue: job.queue, payload: job.payload, runAt: job.runAt ?? new Date(), maxAttempts: job.maxAttempts ?? 10 })
    .returning({ id: jobs.id });
  if (!row) throw new Error('job insert returned nothing');
  return row.id;
}

/**
 * Takes up to `limit` due jobs of the given queues for one worker. SKIP LOCKED lets any number of
 * workers, in any number of instances, claim at once without ever taking the same job twice.
 */
export async function claimDueJobs(
  db: Db,
  claim: { queues: readonly string[]; workerId: string; limit: number; now: Date },
): Promise<JobRow[]> {
  const due = db
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(inArray(jobs.queue, [...claim.queues]), eq(jobs.status, 'queued'), sql`${jobs.runAt} <= ${claim.now}`))
    .orderBy(jobs.runAt, jobs.id)
    .limit(claim.limit)
    .for('update', { skipLocked: true });
  return db
    .update(jobs)
    .set({ status: 'running', lockedAt: claim.now, lockedBy: claim.workerId, attempts: sql`${jobs.attempts} + 1` })
    .where(inArray(jobs.id, due))
    .returning();
}

export async function completeJob(db: Db, id: number, now: Date): Promise<void> {
  await db
    .update(jobs)
    .set({ status: 'done', finishedAt: now, lockedAt: null, lockedBy: null, lastError: null })
    .where(eq(jobs.id, id));
}

/** Puts a job back for another attempt at `retryAt`, or marks it failed for good when `retryAt` is null. */
export async function releaseJob(db: Db, id: number, error: string, retryAt: Date | null, now: Date): Promise<void> {
  await db
    .update(jobs)
    .set(
      retryAt
        ? { status: 'queued', runAt: retryAt, lockedAt: null, lockedBy: null, lastError: error }
        : { status: 'failed', finishedAt: now, lockedAt: null, lockedBy: null, lastError: error },
    )
    .where(eq(jobs.id, id));
}

/**
 * Jobs still `running` long after they were claimed belong to a worker that died (a crash, a kill -9):
 * they go back to the queue. Handlers are written to be safe to re-run.
 */
export async function requeueStaleJobs(db: Db, lockedBefore: Date): Promise<number> {
  const rows = await db
    .update(jobs)
    .set({ status: 'queued', lockedAt: null, lockedBy: null, lastError: 'worker stopped before finishing; re-run' })
    .where(and(eq(jobs.status, 'running'), lt(jobs.lockedAt, lockedBefore)))
    .returning({ id: jobs.id });
  return rows.length;
}

export async function findJob(db: Db, id: number): Promise<JobRow | undefined> {
  const [row] = await db.select().from(jobs).where(eq(jobs.id, id));
  return row;
}

export async function countJobsByStatus(db: Db, queue: string): Promise<Record<TJobStatus, number>> {
  const rows = await db.select({ status: jobs.status, n: count() }).from(jobs).where(eq(jobs.queue, queue)).groupBy(jobs.status);
  const counts: Record<TJobStatus, number> = { queued: 0, running: 0, done: 0, failed: 0 };
  for (const row of rows) counts[row.status] = row.n;
  return counts;
}

/**
 * Puts the jobs of `queue` whose payload names `documentId`, waiting or given up, back in the queue due at
 * `now` with a fresh count of attempts, and answers how many; a job running now is left to finish.
 */
export async function requeueDocumentJobs(db: Db, queue: string, documentId: string, now: Date): Promise<{ requeued: number; running: number }> {
  const ofDocument = and(eq(jobs.queue, queue), sql`${jobs.payload} ->> 'documentId' = ${documentId}`);
  const requeued = await db
    .update(jobs)
    .set({ status: 'queued', runAt: now, attempts: 0, lockedAt: null, lockedBy: null, finishedAt: null })
    .where(and(ofDocument, inArray(jobs.status, ['queued', 'failed'])))
    .returning({ id: jobs.id });
  const [running] = await db.select({ n: count() }).from(jobs).where(and(ofDocument, eq(jobs.status, 'running')));
  return { requeued: requeued.length, running: running?.n ?? 0 };
}

/** Advisory lock namespace of ensureJobScheduled; the queue's name hashed is the key within it. */
const SCHEDULE_LOCK_NAMESPACE = 730_557_102;

/** The queues whose jobs carry no payload and each schedule their successor (retention, reminders). */
export type SelfSchedulingQueue = Extract<TJobQueue, 'retention' | 'reminders' | 'requirements-day'>;

/**
 * Enqueues one job of a self-scheduling `queue` at `runAt` unless one is already waiting, and says whether it
 * did. Every instance calls this at start and every run calls it for its successor, so without the check the
 * queue would grow by one job per start. The check and the insert hold a per-queue advisory lock until commit,
 * so two instances starting together cannot both see "none queued". A job that is running does not count: the
 * run in progress is what schedules its successor.
 */
export async function ensureJobScheduled(db: Db, queue: SelfSchedulingQueue, runAt: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SCHEDULE_LOCK_NAMESPACE}::int, hashtext(${queue}))`);
    const [waiting] = await tx
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.queue, queue), eq(jobs.status, 'queued')))
      .limit(1);
    if (waiting) return false;
    await enqueueJob(tx, { queue, payload: {}, runAt });
    return true;
  });
}
