import { and, lt, sql } from 'drizzle-orm';
import type { Db } from '../platform/db/client';
import { loginAttempts } from '../platform/db/schema';

/**
 * Counts one login attempt under `key` (an address or an account) in one statement, atomic under any number
 * of instances and concurrent requests: the first attempt of a window starts it at 1, later ones add 1, and
 * an attempt after the window has passed starts a new one. Times are the database's clock, so instances whose
 * clocks differ still share one window. Answers the attempts so far in the window (this one included) and the
 * milliseconds until the window ends. The row keeps its window's length, so one purge serves every limit.
 */
export async function countLoginAttempt(db: Db, key: string, windowMs: number): Promise<{ attempts: number; windowEndsInMs: number }> {
  const windowSeconds = Math.ceil(windowMs / 1000);
  const windowStart = sql`now() - make_interval(secs => ${windowSeconds})`;
  const current = sql`${loginAttempts.windowStartedAt} > ${windowStart}`;
  const [row] = await db
    .insert(loginAttempts)
    .values({ addressHash: key, windowStartedAt: sql`now()`, attempts: 1, windowSeconds })
    .onConflictDoUpdate({
      target: loginAttempts.addressHash,
      set: {
        attempts: sql`case when ${current} then ${loginAttempts.attempts} + 1 else 1 end`,
        windowStartedAt: sql`case when ${current} then ${loginAttempts.windowStartedAt} else now() end`,
        windowSeconds,
      },
    })
    .returning({
      attempts: loginAttempts.attempts,
      windowEndsInMs: sql<number>`ceil(extract(epoch from (${loginAttempts.windowStartedAt} + make_interval(secs => ${windowSeconds}) - now())) * 1000)`.mapWith(Number),
    });
  if (!row) throw new Error('counting a login attempt returned no row');
  return row;
}

/**
 * Deletes the counts of windows that have ended, each judged by its own length: a per-account window of
 * 15 minutes is not cut short by the per-address minute. `shortestWindowMs` lets the index narrow the scan.
 */
export async function deleteEndedLoginWindows(db: Db, shortestWindowMs: number): Promise<number> {
  const deleted = await db
    .delete(loginAttempts)
    .where(
      and(
        lt(loginAttempts.windowStartedAt, sql`now() - make_interval(secs => ${Math.floor(shortestWindowMs / 1000)})`),
        lt(loginAttempts.windowStartedAt, sql`now() - make_interval(secs => ${loginAttempts.windowSeconds})`),
      ),
    )
    .returning({ addressHash: loginAttempts.addressHash });
  return deleted.length;
}
