import type { TJobPayload, TJobQueue } from '../../contract';
import type { Db } from '../platform/db/client';
import type { JobHandler } from '../platform/jobs/job-runner';
import { ensureJobScheduled } from '../platform/jobs/jobs.repository';
import type { Logger } from '../platform/logger';
import { advanceRequirementDay } from './requirement-day.repository';
import { utcDay } from './rule-engine';

/** The queue of the job that moves the judging day forward: one job at a time, each scheduling the next. */
export const REQUIREMENT_DAY_QUEUE = 'requirements-day' satisfies TJobQueue;

const HOUR_MS = 60 * 60_000;

export type RequirementDayDeps = { db: Db; log: Logger; now?: () => Date };

/** The start of the hour after `at`. */
const nextHour = (at: Date): Date => new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS + HOUR_MS);

/**
 * The hourly run: when the day (UTC) has changed, moves the judging day to it and recomputes the
 * registrations whose approvals lapsed, so a player whose medical form runs out turns incomplete within the
 * first hour of that day. Cheap when the day has not changed (one row read).
 */
export function createRequirementDayHandler(deps: RequirementDayDeps): JobHandler<TJobPayload<'requirements-day'>> {
  const now = deps.now ?? (() => new Date());
  return async () => {
    const startedAt = now();
    // Scheduled before the work: a failing run still leaves the next one queued.
    await ensureJobScheduled(deps.db, REQUIREMENT_DAY_QUEUE, nextHour(startedAt));
    const recomputed = await advanceRequirementDay(deps.db, utcDay(startedAt));
    if (recomputed !== null) deps.log.info({ day: utcDay(startedAt), recomputed }, 'requirement day moved forward');
    return { kind: 'done' };
  };
}

/**
 * Call at start: judges on today at once (a server that was down over midnight is right before it serves a
 * request), then queues the hourly run unless one is waiting.
 */
export async function startRequirementDay(db: Db, now: Date): Promise<void> {
  await advanceRequirementDay(db, utcDay(now));
  await ensureJobScheduled(db, REQUIREMENT_DAY_QUEUE, nextHour(now));
}
