import { sql } from 'drizzle-orm';
import type { Db } from '../../src/server/platform/db/client';
import { registrations, requirementDay } from '../../src/server/platform/db/schema';

/**
 * Puts the day the summaries are judged on at `day`, earlier or later, and recomputes every registration: for
 * a test whose story happens on other dates than the machine's. (The server itself only moves the day forward,
 * with its clock.)
 */
export async function judgeSummariesOn(db: Db, day: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.update(requirementDay).set({ day });
    await tx
      .select({ refreshed: sql`registration_summary_refresh(array_agg(${registrations.playerId}), array_agg(${registrations.seasonId}))` })
      .from(registrations);
  });
}
