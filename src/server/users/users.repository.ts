import { and, asc, eq, isNotNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { TUserRole, TUserStatus } from '../../contract';
import type { Db } from '../platform/db/client';
import { insertInBatches } from '../platform/db/batch';
import { isUniqueViolation } from '../platform/db/errors';
import { containsPattern, foldedContains } from '../platform/db/search';
import { users } from '../platform/db/schema';

export type UserRow = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;
/** The columns staff may change; `id` and `createdAt` never change. */
export type UserChanges = Partial<Pick<UserRow, 'email' | 'firstName' | 'lastName' | 'role' | 'status' | 'divisions'>>;

export const insertUsers = (db: Db, rows: readonly NewUser[]) => insertInBatches(db, users, rows);

export const listUsers = (db: Db): Promise<UserRow[]> =>
  db.select().from(users).orderBy(asc(users.lastName), asc(users.firstName));

/** What the User Management screen filters on; every field left out matches everything. */
export type UserListFilter = {
  /** A part of the first name, last name, 'First Last' or e-mail, ignoring case and accents. */
  search?: string | undefined;
  role?: TUserRole | undefined;
  status?: TUserStatus | undefined;
};

function userListWhere(filter: UserListFilter): SQL | undefined {
  const pattern = filter.search ? containsPattern(filter.search) : undefined;
  return and(
    filter.role ? eq(users.role, filter.role) : undefined,
    filter.status ? eq(users.status, filter.status) : undefined,
    pattern
      ? or(
          foldedContains(users.firstName, pattern),
          foldedContains(users.lastName, pattern),
          foldedContains(sql`${users.firstName} || ' ' || ${users.lastName}`, pattern),
          foldedContains(users.email, pattern),
        )
      : undefined,
  );
}

/** Staff accounts by last name, first name, e-mail: a league has tens of them, so no paging. */
export const findUsers = (db: Db, filter: UserListFilter): Promise<UserRow[]> =>
  db
    .select()
    .from(users)
    .where(userListWhere(filter))
    .orderBy(asc(sql`lower(${users.lastName})`), asc(sql`lower(${users.firstName})`), asc(sql`lower(${users.email})`), asc(users.id));

/** `lock`: the row stays locked until the transaction ends, so what is decided from it still holds at commit. */
export async function findUserById(db: Db, id: string, options: { lock?: boolean } = {}): Promise<UserRow | undefined> {
  const query = db.select().from(users).where(eq(users.id, id));
  const [row] = options.lock ? await query.for('update') : await query;
  return row;
}

/**
 * The admins who can sign in with a password of their own, locked until the transaction ends: of two requests
 * demoting the last two such admins at once, the second waits for the first and then sees one fewer.
 */
export async function lockUsableAdmins(db: Db): Promise<string[]> {
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, 'admin'), eq(users.status, 'active'), isNotNull(users.passwordHash)))
    .orderBy(asc(users.id))
    .for('update');
  return rows.map((row) => row.id);
}

/** The user holding `email` in any letter case (users_email_lower_uq), other than `exceptId`. */
export async function findUserByEmail(db: Db, email: string, exceptId?: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(sql`lower(${users.email}) = lower(${email})`, exceptId === undefined ? undefined : ne(users.id, exceptId)))
    .limit(1);
  return row;
}

/** The new row, or 'email-taken' when another user holds the e-mail in any letter case. */
export async function insertUser(db: Db, row: NewUser): Promise<UserRow | 'email-taken'> {
  // No conflict target: the only unique keys are the random id and lower(email).
  const [inserted] = await db.insert(users).values(row).onConflictDoNothing().returning();
  return inserted ?? 'email-taken';
}

/**
 * The row as changed; undefined when there is no such user; 'email-taken' when another user holds the
 * e-mail (a concurrent change got there first). The statement's failure ends the transaction: the caller
 * must stop, not carry on in it.
 */
export async function updateUser(db: Db, id: string, changes: UserChanges): Promise<UserRow | undefined | 'email-taken'> {
  try {
    const [updated] = await db.update(users).set(changes).where(eq(users.id, id)).returning();
    return updated;
  } catch (error) {
    if (isUniqueViolation(error)) return 'email-taken';
    throw error;
  }
}

/** The deleted row; undefined when there was no such user. */
export async function deleteUser(db: Db, id: string): Promise<UserRow | undefined> {
  const [deleted] = await db.delete(users).where(eq(users.id, id)).returning();
  return deleted;
}
