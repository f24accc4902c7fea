import { asc, count, desc, eq } from 'drizzle-orm';
import type { Db } from '../platform/db/client';
import { insertInBatches } from '../platform/db/batch';
import { seasons } from '../platform/db/schema';

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

/**
 * A season by id (`fall-2025`) or by year (`2025` = that year's latest season, as the dashboard and
 * the form webhook send it).
 */
export async function resolveSeason(db: Db, yearOrId: string): Promise<SeasonRow | undefined> {
  if (/^\d{4}$/.test(yearOrId)) {
    const [row] = await db.select().from(seasons).where(eq(seasons.year, Number(yearOrId))).orderBy(desc(seasons.startsOn)).limit(1);
    return row;
  }
  const [row] = await db.select().from(seasons).where(eq(seasons.id, yearOrId));
  return row;
}

export async function findSeason(db: Db, id: string): Promise<SeasonRow | undefined> {
  const [row] = await db.select().from(seasons).where(eq(seasons.id, id));
  return row;
}

/** The season marked current, else the one that started last. */
export async function findCurrentSeason(db: Db): Promise<SeasonRow | undefined> {
  const [row] = await db.select().from(seasons).orderBy(desc(seasons.isCurrent), desc(seasons.startsOn)).limit(1);
  return row;
}
