import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeEachDatabase } from '../../../../tests/support/databases';
import { switchableDb } from '../../../../tests/support/dropped-connection';
import { countJobsByStatus, findJob, insertJob } from './jobs.repository';
import { jobs } from '../db/schema';
import { createLogger } from '../logger';
import { createJobRunner, nextAttemptAt, retryDelayMs, type JobCatalogue, type JobHandler, type JobRunner, type JobRunnerOptions } from './job-runner';

const log = createLogger('silent');
const fast = { pollMs: 10, backoff: { baseMs: 5, maxMs: 20 } };

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describeEachDatabase('job runner', ({ getDb }) => {
  const runners: JobRunner[] = [];
  const start = (handlers: Record<string, JobHandler>, extra: Omit<Partial<JobRunnerOptions<JobCatalogue>>, 'handlers' | 'catalogue'> = {}) => {
    // The tests make up their queues; each takes any object as its payload.
    const catalogue = Object.fromEntries(Object.keys(handlers).map((queue) => [queue, z.record(z.string(), z.unknown())]));
    const runner = createJobRunner({ db: getDb(), log, catalogue, handlers, ...fast, ...extra });
    runners.push(runner);
    runner.start();
    return runner;
  };
  afterEach(async () => {
    await Promise.all(runners.splice(0).map((r) => r.stop()));
    await getDb().delete(jobs);
  });

  it('runs every job exactly once with two runners competing, as two instances would', async () => {
    const seen = new Map<number, number>();
    const handler: JobHandler = async (payload) => {
      const n = Number(payload.n);
      seen.set(n, (seen.get(n) ?? 0) + 1);
      await new Promise((resolve) => setTimeout(resolve, 2));
      return { kind: 'done' };
    };
    for (let n = 0; n < 60; n++) await insertJob(getDb(), { queue: 'once', payload: { n } });
    start({ once: handler }, { workers: 3 });
    start({ once: handler }, { workers: 3 });
    await waitFor(async () => (await countJobsByStatus(getDb(), 'once')).done === 60);
    expect(seen.size).toBe(60);
    expect([...seen.values()].every((times) => times === 1)).toBe(true);
  });

  it('retries a failing job with backoff until it succeeds, counting attempts', async () => {
    let calls = 0;
    const id = await insertJob(getDb(), { queue: 'flaky', payload: {} });
    start({
      flaky: () => {
        calls++;
        if (calls < 3) throw new Error(`clamd not reachable (try ${calls})`);
        return Promise.resolve({ kind: 'done' });
      },
    });
    await waitFor(async () => (await findJob(getDb(), id))?.status === 'done');
    const job = await findJob(getDb(), id);
    expect(job).toMatchObject({ status: 'done', attempts: 3, lastError: null });
  });

  it('gives up after the last attempt and keeps the reason', async () => {
    const id = await insertJob(getDb(), { queue: 'doomed', payload: {}, maxAttempts: 2 });
    start({ doomed: () => Promise.resolve({ kind: 'retry', reason: 'storage is down' }) });
    await waitFor(async () => (await findJob(getDb(), id))?.status === 'failed');
    expect(await findJob(getDb(), id)).toMatchObject({ status: 'failed', attempts: 2, lastError: 'storage is down' });
  });

  it('keeps retrying past the attempt limit while the handler gives a deadline, and fails once an attempt is made at it', async () => {
    // The runner's clock: each attempt moves it on an hour, so a 3-hour deadline is met at the third attempt.
    let clock = Date.now();
    const until = new Date(clock + 3 * 3_600_000);
    // Due on the runner's clock: stamped with the wall clock, a millisecond ticking between the two lines would
    // leave the job due just after the frozen clock's now, and never claimed.
    const id = await insertJob(getDb(), { queue: 'outage', payload: {}, maxAttempts: 2, runAt: new Date(clock) });
    start(
      {
        outage: () => {
          clock += 3_600_000;
          return Promise.resolve({ kind: 'retry', reason: 'clamd is unreachable', delayMs: 0, until });
        },
      },
      // An hour passes in each attempt: with the default 10-minute stale limit, the sweep would take the attempt
      // under way for one left by a stopped worker and re-queue it (it did, now and then, in CI).
      { now: () => new Date(clock), staleAfterMs: 24 * 3_600_000 },
    );
    await waitFor(async () => (await findJob(getDb(), id))?.status === 'failed');
    expect(await findJob(getDb(), id)).toMatchObject({ status: 'failed', attempts: 3, lastError: 'clamd is unreachable' });
  });

  it('fails at once when the handler says retrying cannot help', async () => {
    const id = await insertJob(getDb(), { queue: 'bad', payload: {} });
    start({ bad: () => Promise.resolve({ kind: 'fail', reason: 'file is not a PDF or image' }) });
    await waitFor(async () => (await findJob(getDb(), id))?.status === 'failed');
    expect(await findJob(getDb(), id)).toMatchObject({ attempts: 1, lastError: 'file is not a PDF or image' });
  });

  it('fails a job whose payload does not match its queue, without calling the handler', async () => {
    const id = await insertJob(getDb(), { queue: 'typed', payload: { documentId: 42 } });
    let called = false;
    const runner = createJobRunner({
      db: getDb(),
      log,
      ...fast,
      catalogue: { typed: z.object({ documentId: z.string() }) },
      handlers: {
        typed: () => {
          called = true;
          return Promise.resolve({ kind: 'done' });
        },
      },
    });
    runners.push(runner);
    runner.start();
    await waitFor(async () => (await findJob(getDb(), id))?.status === 'failed');
    expect(await findJob(getDb(), id)).toMatchObject({ attempts: 1, lastError: "the job's payload does not match its queue's schema (documentId)" });
    expect(called).toBe(false);
  });

  it('re-runs a job left running by a worker that died', async () => {
    const id = await insertJob(getDb(), { queue: 'orphan', payload: {} });
    // A dead instance claimed it an hour ago and never finished.
    const { eq } = await import('drizzle-orm');
    await getDb()
      .update(jobs)
      .set({ status: 'running', attempts: 1, lockedBy: 'dead-0', lockedAt: new Date(Date.now() - 3_600_000) })
      .where(eq(jobs.id, id));
    let ran = 0;
    start({ orphan: () => Promise.resolve((ran++, { kind: 'done' as const })) }, { staleAfterMs: 60_000 });
    await waitFor(async () => (await findJob(getDb(), id))?.status === 'done');
    expect(ran).toBe(1);
    expect((await findJob(getDb(), id))?.attempts).toBe(2);
  });

  it('keeps claiming while the database is unreachable, warning rather than failing, and runs the job once it is back', async () => {
    const lines: Array<{ level: number; msg: string }> = [];
    const captured = createLogger('warn', { write: (line: string) => void lines.push(JSON.parse(line) as (typeof lines)[number]) });
    const database = switchableDb(getDb());
    database.down();
    start({ later: () => Promise.resolve({ kind: 'done' }) }, { db: database.db, log: captured, workers: 2 });
    await waitFor(() => Promise.resolve(lines.length >= 4));
    const id = await insertJob(getDb(), { queue: 'later', payload: {} });
    database.up();
    await waitFor(async () => (await findJob(getDb(), id))?.status === 'done');
    expect(lines.map((line) => line.level)).toEqual(lines.map(() => 40));
    expect(lines.some((line) => line.msg.startsWith('could not claim jobs: the database is not reachable'))).toBe(true);
  });

  it('writes the outcome of a job that finished while the database was away once it is back, instead of leaving it running', async () => {
    const database = switchableDb(getDb());
    const id = await insertJob(getDb(), { queue: 'outage', payload: {} });
    let runs = 0;
    start(
      {
        outage: () => {
          runs += 1;
          // The work is done, and the connection drops before the runner can say so.
          database.down();
          setTimeout(() => database.up(), 150);
          return Promise.resolve({ kind: 'done' });
        },
      },
      { db: database.db },
    );
    await waitFor(async () => (await findJob(getDb(), id))?.status === 'done');
    expect(runs).toBe(1);
    expect(await findJob(getDb(), id)).toMatchObject({ status: 'done', attempts: 1, lockedBy: null });
  });

  it('waits for the job in hand when stopped', async () => {
    let finished = false;
    const id = await insertJob(getDb(), { queue: 'slow', payload: {} });
    let claimed!: () => void;
    const isClaimed = new Promise<void>((resolve) => (claimed = resolve));
    const runner = start({
      slow: async () => {
        claimed();
        await new Promise((resolve) => setTimeout(resolve, 300));
        finished = true;
        return { kind: 'done' };
      },
    });
    await isClaimed;
    await runner.stop();
    expect(finished).toBe(true);
    expect((await findJob(getDb(), id))?.status).toBe('done');
  });
});

describe('retryDelayMs', () => {
  it('doubles up to the cap, with jitter between half and all of the ceiling', () => {
    const backoff = { baseMs: 1_000, maxMs: 8_000 };
    expect(retryDelayMs(1, backoff, () => 0)).toBe(500);
    expect(retryDelayMs(1, backoff, () => 1)).toBe(1_000);
    expect(retryDelayMs(3, backoff, () => 1)).toBe(4_000);
    expect(retryDelayMs(10, backoff, () => 1)).toBe(8_000);
    expect(retryDelayMs(10, backoff, () => 0)).toBe(4_000);
  });
});

describe('nextAttemptAt', () => {
  const backoff = { baseMs: 1_000, maxMs: 8_000 };
  const at = new Date('2026-03-01T08:00:00Z');
  const later = (ms: number) => new Date(at.getTime() + ms);

  it('stops at the attempt limit without a deadline', () => {
    expect(nextAttemptAt({ delayMs: 500 }, { attempts: 9, maxAttempts: 10 }, at, backoff)).toEqual(later(500));
    expect(nextAttemptAt({ delayMs: 500 }, { attempts: 10, maxAttempts: 10 }, at, backoff)).toBeNull();
  });

  it('with a deadline ignores the attempt limit, never waits past the deadline, and stops once it is reached', () => {
    expect(nextAttemptAt({ delayMs: 500, until: later(60_000) }, { attempts: 40, maxAttempts: 10 }, at, backoff)).toEqual(later(500));
    expect(nextAttemptAt({ delayMs: 90_000, until: later(60_000) }, { attempts: 40, maxAttempts: 10 }, at, backoff)).toEqual(later(60_000));
    expect(nextAttemptAt({ delayMs: 500, until: at }, { attempts: 1, maxAttempts: 10 }, at, backoff)).toBeNull();
  });
});
