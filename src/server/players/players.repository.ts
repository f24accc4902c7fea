import { count, eq, sql } from 'drizzle-orm';
import type { Db } from '../platform/db/client';
import { insertInBatches } from '../platform/db/batch';
import { players } from '../platform/db/schema';

export type PlayerRow = typeof players.$inferSelect;
export type NewPlayer = typeof players.$inferInsert;

export const insertPlayers = (db: Db, rows: readonly NewPlayer[]) => insertInBatches(db, players, rows);

export async function findPlayer(db: Db, id: string): Promise<PlayerRow | undefined> {
  const [row] = await db.select().from(players).where(eq(players.id, id));
  return row;
}

export async function countPlayers(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(players);
  return row?.n ?? 0;
}

/** What a birth certificate's approval checks of the player, locked until the transaction ends. */
export async function lockPlayerBirthDate(
  db: Db,
  id: string,
): Promise<{ id: string; firstName: string; lastName: string; birthDate: string; birthDateVerifiedAt: Date | null } | undefined> {
  const [row] = await db
    .select({ id: players.id, firstName: players.firstName, lastName: players.lastName, birthDate: players.birthDate, birthDateVerifiedAt: players.birthDateVerifiedAt })
    .from(players)
    .where(eq(players.id, id))
    .for('update');
  return row;
}

/**
 * The date of birth a verified birth certificate shows becomes the player's, locked from then on (the first
 * verification's time is kept when a second certificate shows the same date). The only write of a player's
 * date of birth; the caller has checked the lock (birth-date-lock.ts).
 */
export async function verifyPlayerBirthDate(db: Db, id: string, birthDate: string, at: Date): Promise<void> {
  await db
    .update(players)
    .set({ birthDate, birthDateVerifiedAt: sql`coalesce(${players.birthDateVerifiedAt}, ${at.toISOString()}::timestamptz)`, updatedAt: at })
    .where(eq(players.id, id));
}

/**
 * Creates the player, or refreshes the guardian contact with what the newest submission gave. Never changes
 * an existing player's name or date of birth (a verified one is locked, birth-date-lock.ts).
 */
export async function upsertPlayer(db: Db, row: NewPlayer): Promise<void> {
  await db
    .insert(players)
    .values(row)
    .onConflictDoUpdate({
      target: players.id,
      set: {
        guardianName: sql`coalesce(excluded.guardian_name, ${players.guardianName})`,
        guardianEmail: sql`coalesce(excluded.guardian_email, ${players.guardianEmail})`,
        guardianPhone: sql`coalesce(excluded.guardian_phone, ${players.guardianPhone})`,
        updatedAt: new Date(),
      },
    });
}
