import { count, eq } from 'drizzle-orm';
import type { Db } from './client';
import { insertInBatches } from './batch';
import { registrations } from './schema';

export type RegistrationRow = typeof registrations.$inferSelect;
export type NewRegistration = typeof registrations.$inferInsert;

export const insertRegistrations = (db: Db, rows: readonly NewRegistration[]) =>
  insertInBatches(db, registrations, rows);

export async function countRegistrations(db: Db, seasonId?: string): Promise<number> {
  const query = db.select({ n: count() }).from(registrations);
  const [row] = await (seasonId ? query.where(eq(registrations.seasonId, seasonId)) : query);
  return row?.n ?? 0;
}
