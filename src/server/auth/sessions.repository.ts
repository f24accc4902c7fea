import { and, desc, eq, gt, isNull, lte, ne } from 'drizzle-orm';
import type { Db } from '../platform/db/client';
import { sessions, users } from '../platform/db/schema';

export type SessionRow = typeof sessions.$inferSelect;
/** The person a session belongs to, as the gate needs them; null for the shared password. */
export type SessionOwner = Pick<typeof users.$inferSelect, 'id' | 'email' | 'firstName' | 'lastName' | 'role' | 'status' | 'divisions' | 'totpEnabledAt'>;

/** The columns of a SessionOwner, for a select or a returning clause. */
export const sessionOwnerColumns = {
  id: users.id,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  role: users.role,
  status: users.status,
  divisions: users.divisions,
  totpEnabledAt: users.totpEnabledAt,
};

export async function insertSession(db: Db, row: typeof sessions.$inferInsert): Promise<void> {
  await db.insert(sessions).values(row);
}

/**
 * The session, when it was last used after `seenAfter`: idleness is judged against the timeout in force
 * now (System Settings), not the expiry written when the session was last pushed forward.
 */
export async function findSessionSeenSince(db: Db, id: string, seenAfter: Date): Promise<{ session: SessionRow; owner: SessionOwner | null } | undefined> {
  const [row] = await db
    .select({ session: sessions, owner: sessionOwnerColumns })
    .from(sessions)
    .leftJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, id), gt(sessions.lastSeenAt, seenAfter)));
  return row;
}

/**
 * Ends every session of one person (deactivated, password changed, 'sign out everywhere'), but `keepId` when
 * given (the session asking); answers the ids ended.
 */
export async function deleteUserSessions(db: Db, userId: string, keepId?: string): Promise<string[]> {
  const deleted = await db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), keepId === undefined ? undefined : ne(sessions.id, keepId)))
    .returning({ id: sessions.id });
  return deleted.map((row) => row.id);
}

/** Ends every shared-password session (the sign-in mode became 'personal accounts only'). */
export async function deleteSharedSessions(db: Db): Promise<number> {
  const deleted = await db.delete(sessions).where(isNull(sessions.userId)).returning({ id: sessions.id });
  return deleted.length;
}

/** One person's sessions still in use (used after `seenAfter`), the latest used first. */
export const listUserSessions = (db: Db, userId: string, seenAfter: Date) =>
  db
    .select({ id: sessions.id, createdAt: sessions.createdAt, lastSeenAt: sessions.lastSeenAt, userAgent: sessions.userAgent })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.lastSeenAt, seenAfter)))
    .orderBy(desc(sessions.lastSeenAt), desc(sessions.createdAt));

export async function extendSession(db: Db, id: string, lastSeenAt: Date, expiresAt: Date): Promise<void> {
  await db.update(sessions).set({ lastSeenAt, expiresAt }).where(eq(sessions.id, id));
}

/** Whether there was such a session. */
export async function deleteSession(db: Db, id: string): Promise<boolean> {
  const deleted = await db.delete(sessions).where(eq(sessions.id, id)).returning({ id: sessions.id });
  return deleted.length > 0;
}

/**
 * Deletes sessions past their written expiry that are also idle under the timeout in force now (a longer
 * timeout saved since keeps them). The expiry condition lets the purge use sessions_expires_at_idx.
 */
export async function deleteExpiredSessions(db: Db, now: Date, idleSince: Date): Promise<number> {
  const deleted = await db
    .delete(sessions)
    .where(and(lte(sessions.expiresAt, now), lte(sessions.lastSeenAt, idleSince)))
    .returning({ id: sessions.id });
  return deleted.length;
}
