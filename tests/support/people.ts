import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { TDivision, TUserRole } from '../../src/contract';
import type { Db } from '../../src/server/platform/db/client';
import { sessions, users } from '../../src/server/platform/db/schema';

export type Person = { userId: string; email: string; name: string; cookie: string };

/**
 * An active staff member with a session of their own, written straight into the database: for tests of
 * what a role or a division scope may do, which need people but not the sign-in flow that makes them.
 * `cookie` is the `cb_session=…` header value.
 */
export async function addSignedInPerson(
  db: Db,
  person: { role: TUserRole; divisions?: TDivision[]; firstName?: string; lastName?: string },
): Promise<Person> {
  const userId = randomUUID();
  const firstName = person.firstName ?? person.role[0]?.toUpperCase() + person.role.slice(1);
  const lastName = person.lastName ?? (person.divisions?.length ? `of ${person.divisions.join(' and ')}` : 'Tester');
  const email = `${person.role}.${userId.slice(0, 8)}@example.org`;
  await db.insert(users).values({ id: userId, email, firstName, lastName, role: person.role, status: 'active', divisions: person.divisions ?? [] });
  const token = randomBytes(32).toString('base64url');
  const now = new Date();
  await db.insert(sessions).values({
    id: createHash('sha256').update(token).digest('hex'),
    userId,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + 60 * 60_000),
  });
  return { userId, email, name: `${firstName} ${lastName}`, cookie: `cb_session=${token}` };
}
