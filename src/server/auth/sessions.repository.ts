import { and, eq, gt, lte } from 'drizzle-orm';
import type { Db } from '../platform/db/client';
import { sessions, users } from '../platform/db/schema';

export type SessionRow = typeof sessions.$inferSelect;
/** The person a session belongs to, as the gate needs them; null for the shared password. */
export type SessionOwner = Pick<typeof users.$inferSelect, 'id' | 'email' | 'firstName' | 'lastName' | 'role' | 'status' | 'divisions' | 'totpEnabledAt'>;

export async function insertSession(db: Db, row: typeof sessions.$inferInsert): Promise<void> {
  await db.insert(sessions).values(row);
}

/**
 * The session, when it was last used after `seenAfter`: idleness is judged against the timeout in force
 * now (System Settings), not the expiry written when the session was last pushed forward.
 */
export async function findSessionSeenSince(db: Db, id: string, seenAfter: Date): Promise<{ session: SessionRow; owner: SessionOwner | null } | undefined> {
  const [row] = await db
    .select({
      session: sessions,
      owner: {
        id: users.id,
        email: users.email,
        firstName: users.firstName,
        lastName: users.lastName,
        role: users.role,
        status: users.status,
        divisions: users.divisions,
        totpEnabledAt: users.totpEnabledAt,
      },
    })
    .from(sessions)
    .leftJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, id), gt(sessions.lastSeenAt, seenAfter)));
  return row;
}

/** Ends every session of one person (deactivated, password changed, 'sign out everywhere'); answers the ids ended. */
export async function deleteUserSessions(db: Db, userId: string): Promise<string[]> {
  const deleted = await db.delete(sessions).where(eq(sessions.userId, userId)).returning({ id: sessions.id });
  return deleted.map((row) => row.id);
}

export async function extendSession(db: Db, id: string, lastSeenAt: Date, expiresAt: Date): Promise<void> {
  await db.update(sessions).set({ lastSeenAt, expiresAt }).where(eq(sessions.id, id));
}

export async function deleteSession(db: Db, id: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, id));
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
