import { asc, count, desc } from 'drizzle-orm';
import type { Db } from './client';
import { insertInBatches } from './batch';
import { seasons } from './schema';

export type SeasonRow = typeof seasons.$inferSelect;
export type NewSeason = typeof seasons.$inferInsert;

export const insertSeasons = (db: Db, rows: readonly NewSeason[]) => insertInBatches(db, seasons, rows);

/** Newest first, as every season select in the app lists them. */
export const listSeasons = (db: Db): Promise<SeasonRow[]> =>
  db.select().from(seasons).orderBy(desc(seasons.startsOn), asc(seasons.name));

export async function countSeasons(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(seasons);
  return row?.n ?? 0;
}
