import { lt, sql } from 'drizzle-orm';
import type { Db } from '../platform/db/client';
import { loginAttempts } from '../platform/db/schema';

/**
 * Counts one login attempt from an address in one statement, atomic under any number of instances and
 * concurrent requests: the first attempt of a window starts it at 1, later ones add 1, and an attempt
 * after the window has passed starts a new one. Times are the database's clock, so instances whose
 * clocks differ still share one window. Answers the attempts so far in the window (this one included)
 * and the milliseconds until the window ends.
 */
export async function countLoginAttempt(db: Db, addressHash: string, windowMs: number): Promise<{ attempts: number; windowEndsInMs: number }> {
  const windowStart = sql`now() - make_interval(secs => ${windowMs / 1000})`;
  const current = sql`${loginAttempts.windowStartedAt} > ${windowStart}`;
  const [row] = await db
    .insert(loginAttempts)
    .values({ addressHash, windowStartedAt: sql`now()`, attempts: 1 })
    .onConflictDoUpdate({
      target: loginAttempts.addressHash,
      set: {
        attempts: sql`case when ${current} then ${loginAttempts.attempts} + 1 else 1 end`,
        windowStartedAt: sql`case when ${current} then ${loginAttempts.windowStartedAt} else now() end`,
      },
    })
    .returning({
      attempts: loginAttempts.attempts,
      windowEndsInMs: sql<number>`ceil(extract(epoch from (${loginAttempts.windowStartedAt} + make_interval(secs => ${windowMs / 1000}) - now())) * 1000)`.mapWith(Number),
    });
  if (!row) throw new Error('counting a login attempt returned no row');
  return row;
}

/** Deletes the counts of windows that have ended: they no longer limit anyone. */
export async function deleteEndedLoginWindows(db: Db, windowMs: number): Promise<number> {
  const deleted = await db
    .delete(loginAttempts)
    .where(lt(loginAttempts.windowStartedAt, sql`now() - make_interval(secs => ${windowMs / 1000})`))
    .returning({ addressHash: loginAttempts.addressHash });
  return deleted.length;
}
