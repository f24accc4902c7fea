import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../platform/db/client';
import { insertInBatches } from '../platform/db/batch';
import { registrations, seasons } from '../platform/db/schema';

export type RegistrationRow = typeof registrations.$inferSelect;
export type NewRegistration = typeof registrations.$inferInsert;

export const insertRegistrations = (db: Db, rows: readonly NewRegistration[]) =>
  insertInBatches(db, registrations, rows);

export async function countRegistrations(db: Db, seasonId?: string): Promise<number> {
  const query = db.select({ n: count() }).from(registrations);
  const [row] = await (seasonId ? query.where(eq(registrations.seasonId, seasonId)) : query);
  return row?.n ?? 0;
}

/**
 * Registers the player for the season, or moves an existing registration to `row.division`. A registration
 * already in that division is left as it is: no new row version, and no work for the registration triggers,
 * which every upload of a registered player would otherwise pay.
 */
export async function upsertRegistration(db: Db, row: NewRegistration): Promise<void> {
  await db
    .insert(registrations)
    .values(row)
    .onConflictDoUpdate({
      target: [registrations.playerId, registrations.seasonId],
      set: { division: row.division },
      setWhere: sql`${registrations.division} is distinct from excluded.division`,
    });
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

/** Every season the player is registered for, newest registration first, with the season's name. */
export const listPlayerRegistrations = (db: Db, playerId: string) =>
  db
    .select({
      seasonId: registrations.seasonId,
      seasonName: seasons.name,
      seasonYear: seasons.year,
      division: registrations.division,
      registeredAt: registrations.registeredAt,
    })
    .from(registrations)
    .innerJoin(seasons, eq(seasons.id, registrations.seasonId))
    .where(eq(registrations.playerId, playerId))
    .orderBy(desc(registrations.registeredAt), desc(registrations.seasonId));
export type PlayerRegistrationRow = Awaited<ReturnType<typeof listPlayerRegistrations>>[number];
