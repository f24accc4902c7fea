import { and, eq, gt, lte } from 'drizzle-orm';
import type { Db } from '../platform/db/client';
import { users, userTokens } from '../platform/db/schema';

export type TokenPurpose = 'invitation' | 'reset';

/** Stores a new link's hash; every earlier link of the same person stops working. */
export async function replaceUserToken(db: Db, row: { tokenHash: string; userId: string; purpose: TokenPurpose; createdAt: Date; expiresAt: Date }): Promise<void> {
  await db.delete(userTokens).where(eq(userTokens.userId, row.userId));
  await db.insert(userTokens).values(row);
}

/** What the link's page shows: whose it is and what it is for, while it is valid. */
export async function findValidToken(
  db: Db,
  tokenHash: string,
  now: Date,
): Promise<{ userId: string; purpose: TokenPurpose; expiresAt: Date; email: string; firstName: string; status: string } | undefined> {
  const [row] = await db
    .select({ userId: userTokens.userId, purpose: userTokens.purpose, expiresAt: userTokens.expiresAt, email: users.email, firstName: users.firstName, status: users.status })
    .from(userTokens)
    .innerJoin(users, eq(users.id, userTokens.userId))
    .where(and(eq(userTokens.tokenHash, tokenHash), gt(userTokens.expiresAt, now)));
  return row;
}

/**
 * Uses a link up: deletes it and answers whose it was, when it was still valid. One statement, so of two
 * requests with the same link only one gets it back.
 */
export async function takeValidToken(db: Db, tokenHash: string, now: Date): Promise<{ userId: string; purpose: TokenPurpose } | undefined> {
  const [row] = await db
    .delete(userTokens)
    .where(and(eq(userTokens.tokenHash, tokenHash), gt(userTokens.expiresAt, now)))
    .returning({ userId: userTokens.userId, purpose: userTokens.purpose });
  return row;
}

/** Every link of one person (deactivated: no link of theirs may still set a password). */
export async function deleteUserTokens(db: Db, userId: string): Promise<void> {
  await db.delete(userTokens).where(eq(userTokens.userId, userId));
}

export async function deleteExpiredTokens(db: Db, now: Date): Promise<number> {
  const deleted = await db.delete(userTokens).where(lte(userTokens.expiresAt, now)).returning({ userId: userTokens.userId });
  return deleted.length;
}
