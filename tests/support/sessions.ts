import { createHash, randomBytes } from 'node:crypto';
import type { TDivision, TUserRole } from '../../src/contract';
import type { Db } from '../../src/server/platform/db/client';
import { SESSION_COOKIE } from '../../src/server/platform/http/access';
import { sessions, users } from '../../src/server/platform/db/schema';

export type SignInAs = {
  role: TUserRole;
  /** The divisions the person is limited to; empty or left out: every division. */
  divisions?: readonly TDivision[];
  firstName?: string;
  lastName?: string;
};

/**
 * A signed-in person without the sign-in screen: an active user row and a session row written straight into the
 * database, as a sign-in would leave them (the session's id is the SHA-256 of the cookie's token, as the auth
 * service keeps it). Answers the `cookie` header to send (`cb_session=<token>`), for an injected request, a
 * `fetch` or a WebSocket. The session lasts an hour from now; the server pushes it forward as it is used.
 */
export async function signInAs(db: Db, who: SignInAs): Promise<string> {
  return (await signInAsUser(db, who)).cookie;
}

/** The same, with the new user's id (to find their audit records or end their sessions). */
export async function signInAsUser(db: Db, who: SignInAs): Promise<{ cookie: string; userId: string }> {
  const unique = randomBytes(4).toString('hex');
  const [user] = await db
    .insert(users)
    .values({
      email: `${who.role}-${unique}@example.org`,
      firstName: who.firstName ?? 'Test',
      lastName: who.lastName ?? `${who.role[0]?.toUpperCase() ?? ''}${who.role.slice(1)} ${unique}`,
      role: who.role,
      status: 'active',
      divisions: [...(who.divisions ?? [])],
    })
    .returning({ id: users.id });
  if (!user) throw new Error('the user insert returned nothing');
  const token = randomBytes(32).toString('base64url');
  const now = new Date();
  await db.insert(sessions).values({
    id: createHash('sha256').update(token).digest('hex'),
    userId: user.id,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + 60 * 60_000),
  });
  return { cookie: `${SESSION_COOKIE}=${token}`, userId: user.id };
}
