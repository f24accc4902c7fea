import { and, count, eq } from 'drizzle-orm';
import type { Db } from '../platform/db/client';
import { insertInBatches } from '../platform/db/batch';
import { registrations } from '../platform/db/schema';

export type RegistrationRow = typeof registrations.$inferSelect;
export type NewRegistration = typeof registrations.$inferInsert;

export const insertRegistrations = (db: Db, rows: readonly NewRegistration[]) =>
  insertInBatches(db, registrations, rows);

export async function countRegistrations(db: Db, seasonId?: string): Promise<number> {
  const query = db.select({ n: count() }).from(registrations);
  const [row] = await (seasonId ? query.where(eq(registrations.seasonId, seasonId)) : query);
  return row?.n ?? 0;
}

export async function upsertRegistration(db: Db, row: NewRegistration): Promise<void> {
  await db
    .insert(registrations)
    .values(row)
    .onConflictDoUpdate({ target: [registrations.playerId, registrations.seasonId], set: { division: row.division } });
}

export async function findRegistration(db: Db, playerId: string, seasonId: string): Promise<RegistrationRow | undefined> {
  const [row] = await db
    .select()
    .from(registrations)
    .where(and(eq(registrations.playerId, playerId), eq(registrations.seasonId, seasonId)));
  return row;
}

/** Registers the player for the season unless already registered; says whether this call did. */
export async function insertRegistrationIfAbsent(db: Db, row: NewRegistration): Promise<boolean> {
  const inserted = await db.insert(registrations).values(row).onConflictDoNothing().returning({ playerId: registrations.playerId });
  return inserted.length > 0;
}
