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

/** Creates the player, or refreshes the guardian contact with what the newest submission gave. */
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
