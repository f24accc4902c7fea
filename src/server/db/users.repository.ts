import { asc } from 'drizzle-orm';
import type { Db } from './client';
import { insertInBatches } from './batch';
import { users } from './schema';

export type UserRow = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;

export const insertUsers = (db: Db, rows: readonly NewUser[]) => insertInBatches(db, users, rows);

export const listUsers = (db: Db): Promise<UserRow[]> =>
  db.select().from(users).orderBy(asc(users.lastName), asc(users.firstName));
