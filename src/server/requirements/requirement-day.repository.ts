import { count, lte, sql } from 'drizzle-orm';
import type { Db } from '../platform/db/client';
import { registrations, requirementDay } from '../platform/db/schema';

/** The day the registration summaries are judged on (YYYY-MM-DD). */
export async function readRequirementDay(db: Db): Promise<string> {
  const [row] = await db.select({ day: requirementDay.day }).from(requirementDay).limit(1);
  if (!row) throw new Error('requirement_day has no row: the database was not migrated');
  return row.day;
}

/**
 * Moves the judging day forward to `today` (never back), then recomputes the registrations with an approval
 * that lapsed by then, in one transaction: from its commit every screen sees them incomplete. Returns how many
 * registrations were recomputed, or null when the day had already been reached.
 */
export async function advanceRequirementDay(db: Db, today: string): Promise<number | null> {
  return db.transaction(async (tx) => {
    const moved = await tx
      .update(requirementDay)
      .set({ day: today })
      .where(sql`${requirementDay.day} < ${today}::date`)
      .returning({ day: requirementDay.day });
    if (moved.length === 0) return null;
    const lapsedBy = lte(registrations.expiresOn, today);
    const [lapsed] = await tx.select({ n: count() }).from(registrations).where(lapsedBy);
    await tx
      .select({ refreshed: sql`registration_summary_refresh(array_agg(${registrations.playerId}), array_agg(${registrations.seasonId}))` })
      .from(registrations)
      .where(lapsedBy);
    return lapsed?.n ?? 0;
  });
}
