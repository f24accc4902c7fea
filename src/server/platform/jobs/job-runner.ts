import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { Db } from '../db/client';
import { isDatabaseUnreachable } from '../db/errors';
import { claimDueJobs, completeJob, releaseJob, requeueStaleJobs, type JobRow } from './jobs.repository';
import type { Logger } from '../logger';

/**
 * What a handler says about one attempt. Throwing counts as `retry` with the error's message.
 *
 * A retry with `until` is not bound by the job's attempt limit: it is tried again (after `delayMs`, or the
 * runner's backoff) until that instant, the last attempt running at it, and fails only when an attempt made at
 * or after it asks for another. For an outage the handler knows will end, such as the virus scanner being down.
 */
export type JobOutcome =
  | { kind: 'done' }
  | { kind: 'retry'; reason: string; delayMs?: number; until?: Date }
  | { kind: 'fail'; reason: string };

export type JobHandler<P = Record<string, unknown>> = (payload: P, job: { id: number; attempt: number }) => Promise<JobOutcome>;

/** The queues a runner serves, each with the schema of its jobs' payload. */
export type JobCatalogue = Record<string, z.ZodType<Record<string, unknown>>>;

/** One handler per queue of the catalogue, each given its queue's payload already checked. */
export type JobHandlers<C extends JobCatalogue> = { [Q in keyof C]: JobHandler<z.output<C[Q]>> };

export type JobRunnerOptions<C extends JobCatalogue> = {
  db: Db;
  log: Logger;
  catalogue: C;
  handlers: JobHandlers<C>;
  /** Concurrent workers in this process. */
  workers?: number;
  /** How often an idle worker looks for due jobs; `poke()` wakes them sooner. */
  pollMs?: number;
  /** A job running longer than this is presumed orphaned by a dead worker and re-queued. */
  staleAfterMs?: number;
  backoff?: { baseMs: number; maxMs: number };
  now?: () => Date;
};

export type JobRunner = {
  start(): void;
  /** Wakes one idle worker, e.g. right after a job was enqueued; a worker that finds a job wakes the next. */
  poke(): void;
  /** Stops claiming and waits for the jobs in hand to finish. */
  stop(): Promise<void>;
};

/** The longest wait between two tries against an unreachable database. */
const RETRY_CAP_MS = 15_000;

/** Exponential backoff with full jitter: attempt 1 waits up to base, then 2×, 4×, … capped at max. */
export function retryDelayMs(attempt: number, backoff: { baseMs: number; maxMs: number }, random = Math.random): number {
  const ceiling = Math.min(backoff.maxMs, backoff.baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** When a job asking for a retry runs again, or null when it has had its last attempt. */
export function nextAttemptAt(
  outcome: { delayMs?: number; until?: Date },
  job: { attempts: number; maxAttempts: number },
  at: Date,
  backoff: { baseMs: number; maxMs: number },
): Date | null {
  const delayMs = outcome.delayMs ?? retryDelayMs(job.attempts, backoff);
  if (outcome.until === undefined) return job.attempts >= job.maxAttempts ? null : new Date(at.getTime() + delayMs);
  if (at.getTime() >= outcome.until.getTime()) return null;
  return new Date(Math.min(at.getTime() + delayMs, outcome.until.getTime()));
}

/** A handler behind its queue's schema: a payload that does not match fails the job with where it differs. */
function checked<S extends z.ZodType<Record<string, unknown>>>(schema: S, handler: JobHandler<z.output<S>>) {
  return async (job: JobRow): Promise<JobOutcome> => {
    const payload = schema.safeParse(job.payload);
    if (!payload.success) {
      const where = payload.error.issues.map((issue) => issue.path.join('.') || '(payload)').join(', ');
      return { kind: 'fail', reason: `the job's payload does not match its queue's schema (${where})` };
    }
    return handler(payload.data, { id: job.id, attempt: job.attempts });
  };
}

export function createJobRunner<C extends JobCatalogue>(options: JobRunnerOptions<C>): JobRunner {
  const { db, log, catalogue, handlers } = options;
  const workers = options.workers ?? 3;
  const pollMs = options.pollMs ?? 1_000;
  const staleAfterMs = options.staleAfterMs ?? 10 * 60_000;
  const backoff = options.backoff ?? { baseMs: 2_000, maxMs: 5 * 60_000 };
  const now = options.now ?? (() => new Date());
  const queues = Object.keys(catalogue);
  const instanceId = randomUUID().slice(0, 8);

  let running = false;
  const loops: Promise<void>[] = [];
  /** Idle workers, woken by poke() and stop(). */
  const sleepers = new Set<() => void>();
  /** Workers waiting for the database to come back, woken by stop() only: a poke is work for an idle worker. */
  const waiters = new Set<() => void>();
  let staleTimer: NodeJS.Timeout | undefined;

  const wakeOne = () => {
    const [wake] = sleepers;
    wake?.();
  };

  const sleep = (ms: number, set = sleepers) =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        set.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      set.add(wake);
    });
  /** The wait before the n-th try (from 1) against an unreachable database: pollMs, doubling, at most RETRY_CAP_MS. */
  const backoffMs = (failures: number) => Math.min(pollMs * 2 ** (failures - 1), RETRY_CAP_MS);

  /**
   * Writes a job's outcome. While the database is unreachable it tries again: a job left `running` waits
   * for the stale sweep, and a short outage should not cost that long a delay. It stops trying halfway to
   * the moment the sweep would hand the job to another worker, so a late write never lands on a re-run.
   * Any other error, or a stop, leaves the job to the sweep.
   */
  async function recordOutcome(job: JobRow, write: () => Promise<void>): Promise<void> {
    const giveUpAt = (job.lockedAt ?? now()).getTime() + staleAfterMs / 2;
    for (let failures = 1; ; failures++) {
      try {
        await write();
        return;
      } catch (error) {
        if (!running || !isDatabaseUnreachable(error) || now().getTime() >= giveUpAt) throw error;
        log.warn({ err: error, jobId: job.id, failures }, 'could not record a job outcome: the database is not reachable; trying again');
        await sleep(backoffMs(failures), waiters);
      }
    }
  }

  /** Each queue's payload is checked against its schema before its handler sees it. */
  const routes = new Map<string, (job: JobRow) => Promise<JobOutcome>>();
  for (const queue of Object.keys(catalogue) as Array<keyof C & string>) routes.set(queue, checked(catalogue[queue], handlers[queue]));
  const handle = (job: JobRow): Promise<JobOutcome> =>
    routes.get(job.queue)?.(job) ?? Promise.resolve({ kind: 'fail', reason: `no handler for queue ${job.queue}` });

  async function runOne(job: JobRow): Promise<void> {
    let outcome: JobOutcome;
    try {
      outcome = await handle(job);
    } catch (error) {
      outcome = { kind: 'retry', reason: error instanceof Error ? error.message : String(error) };
    }
    const at = now();
    if (outcome.kind === 'done') {
      await recordOutcome(job, () => completeJob(db, job.id, at));
      return;
    }
    const retryAt = outcome.kind === 'retry' ? nextAttemptAt(outcome, job, at, backoff) : null;
    log.warn({ jobId: job.id, queue: job.queue, attempt: job.attempts, retryAt, reason: outcome.reason }, retryAt ? 'job will be retried' : 'job failed');
    await recordOutcome(job, () => releaseJob(db, job.id, outcome.reason, retryAt, at));
  }

  async function workerLoop(index: number): Promise<void> {
    const workerId = `${instanceId}-${index}`;
    let claimFailures = 0;
    while (running) {
      let claimed: JobRow[];
      try {
        claimed = await claimDueJobs(db, { queues, workerId, limit: 1, now: now() });
        claimFailures = 0;
      } catch (error) {
        // The loop lives on whatever the claim met; while the database is away it asks less and less often.
        claimFailures += 1;
        const unreachable = isDatabaseUnreachable(error);
        if (unreachable) log.warn({ err: error, workerId, failures: claimFailures }, 'could not claim jobs: the database is not reachable; trying again');
        else log.error({ err: error, workerId }, 'could not claim jobs');
        await sleep(unreachable ? backoffMs(claimFailures) : pollMs, waiters);
        continue;
      }
      const [job] = claimed;
      if (!job) {
        await sleep(pollMs);
        continue;
      }
      // There may be more where this one came from: hand the search on instead of waking everyone per job.
      wakeOne();
      try {
        await runOne(job);
      } catch (error) {
        // The outcome could not be written (database gone): the stale sweep re-queues the job later.
        log.error({ err: error, jobId: job.id }, 'could not record a job outcome');
        await sleep(pollMs);
      }
    }
  }

  async function sweepStale(): Promise<void> {
    try {
      const requeued = await requeueStaleJobs(db, new Date(now().getTime() - staleAfterMs));
      if (requeued > 0) log.warn({ requeued }, 're-queued jobs left running by a stopped worker');
    } catch (error) {
      if (isDatabaseUnreachable(error)) log.warn({ err: error }, 'could not re-queue stale jobs: the database is not reachable; trying again later');
      else log.error({ err: error }, 'could not re-queue stale jobs');
    }
  }

  return {
    start() {
      if (running) return;
      running = true;
      void sweepStale();
      staleTimer = setInterval(() => void sweepStale(), Math.max(1_000, Math.min(staleAfterMs / 2, 60_000)));
      staleTimer.unref();
      for (let i = 0; i < workers; i++) loops.push(workerLoop(i));
    },
    poke() {
      wakeOne();
    },
    async stop() {
      running = false;
      clearInterval(staleTimer);
      for (const wake of [...sleepers, ...waiters]) wake();
      await Promise.all(loops.splice(0));
    },
  };
}
