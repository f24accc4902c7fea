import { and, eq, isNotNull, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../platform/db/client';
import { users } from '../platform/db/schema';
import { sessionOwnerColumns, type SessionOwner } from './sessions.repository';

/** What signing in as a person needs to know about their account. */
export type LoginAccount = Pick<
  typeof users.$inferSelect,
  'id' | 'email' | 'firstName' | 'lastName' | 'role' | 'status' | 'divisions' | 'passwordHash' | 'totpSecretSealed' | 'totpEnabledAt' | 'totpLastStep'
>;

const loginColumns = {
  ...sessionOwnerColumns,
  passwordHash: users.passwordHash,
  totpSecretSealed: users.totpSecretSealed,
  totpLastStep: users.totpLastStep,
};

/** The account holding `email` in any letter case (users_email_lower_uq). */
export async function findLoginAccountByEmail(db: Db, email: string): Promise<LoginAccount | undefined> {
  const [row] = await db.select(loginColumns).from(users).where(sql`lower(${users.email}) = lower(${email})`).limit(1);
  return row;
}

export async function findLoginAccountById(db: Db, id: string): Promise<LoginAccount | undefined> {
  const [row] = await db.select(loginColumns).from(users).where(eq(users.id, id));
  return row;
}

export async function recordLogin(db: Db, id: string, at: Date): Promise<void> {
  await db.update(users).set({ lastLoginAt: at }).where(eq(users.id, id));
}

/**
 * Takes the code's 30-second step as used, once: false when this step (or a later one) was used already,
 * by this request's twin on another instance included.
 */
export async function useTotpStep(db: Db, id: string, step: number): Promise<boolean> {
  const updated = await db
    .update(users)
    .set({ totpLastStep: step })
    .where(and(eq(users.id, id), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
    .returning({ id: users.id });
  return updated.length === 1;
}

/** Removes one recovery code by its hash; false when it is not (or no longer) one of the account's. */
export async function useRecoveryCode(db: Db, id: string, codeHash: string): Promise<{ left: number } | undefined> {
  const [row] = await db
    .update(users)
    .set({ recoveryCodeHashes: sql`array_remove(${users.recoveryCodeHashes}, ${codeHash})` })
    .where(and(eq(users.id, id), sql`${codeHash} = any(${users.recoveryCodeHashes})`))
    .returning({ left: sql<number>`cardinality(${users.recoveryCodeHashes})`.mapWith(Number) });
  return row;
}

/** A new secret waiting for its first code; two-step sign-in stays off until then. */
export async function storeTotpSecret(db: Db, id: string, sealed: string): Promise<void> {
  await db.update(users).set({ totpSecretSealed: sealed, totpEnabledAt: null, totpLastStep: null, recoveryCodeHashes: [] }).where(eq(users.id, id));
}

/** Turns two-step sign-in on with its recovery codes; false when it was turned on meanwhile. */
export async function enableTotp(db: Db, id: string, at: Date, recoveryCodeHashes: string[]): Promise<boolean> {
  const updated = await db
    .update(users)
    .set({ totpEnabledAt: at, recoveryCodeHashes })
    .where(and(eq(users.id, id), isNull(users.totpEnabledAt), isNotNull(users.totpSecretSealed)))
    .returning({ id: users.id });
  return updated.length === 1;
}

/** Turns two-step sign-in off and forgets its secret and recovery codes; false when it was not on or set up. */
export async function disableTotp(db: Db, id: string): Promise<boolean> {
  const updated = await db
    .update(users)
    .set({ totpSecretSealed: null, totpEnabledAt: null, totpLastStep: null, recoveryCodeHashes: [] })
    .where(and(eq(users.id, id), isNotNull(users.totpSecretSealed)))
    .returning({ id: users.id });
  return updated.length === 1;
}

/**
 * Sets the password chosen through a link and makes the account active; undefined when the account was
 * deactivated (or deleted) meanwhile, which the caller treats as a used-up link.
 */
export async function setPassword(db: Db, id: string, passwordHash: string): Promise<SessionOwner | undefined> {
  const [row] = await db
    .update(users)
    .set({ passwordHash, status: 'active' })
    .where(and(eq(users.id, id), ne(users.status, 'inactive')))
    .returning(sessionOwnerColumns);
  return row;
}

/** Whether someone can sign in as an admin with a password of their own (what 'personal accounts only' needs). */
export async function hasActiveAdminWithPassword(db: Db): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.role, 'admin'), eq(users.status, 'active'), isNotNull(users.passwordHash)))
    .limit(1);
  return row !== undefined;
}
