import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import { SHARED_PASSWORD_NAME, type TPrincipal, type TSignInMode } from '../../contract';
import { recordAuditEvent } from '../audit';
import { generatePassword, hashPassword, verifyPassword } from '../platform/crypto/password';
import { openSecret, ZSealedSecret } from '../platform/crypto/secret-box';
import type { Db } from '../platform/db/client';
import type { ActiveSession } from '../platform/http/access';
import { getSetting, insertSettingIfAbsent } from '../settings';
import { findLoginAccountByEmail, recordLogin, useRecoveryCode, useTotpStep, type LoginAccount } from './accounts.repository';
import type { AccountThrottle, LoginAdmission, LoginThrottle } from './login-throttle';
import { deleteExpiredSessions, deleteSession, extendSession, findSessionSeenSince, insertSession, type SessionOwner } from './sessions.repository';
import { checkTotpCode, hashRecoveryCode, isTotpCode } from './two-factor';

export const PASSWORD_HASH_SETTING = 'auth.passwordHash';
/** A session's expiry is pushed forward at most this often, so reads do not turn into a write each. */
const EXTEND_EVERY_MS = 60_000;
/**
 * How long an instance trusts a session it has read, before reading it again: most requests then need
 * no query for their session. A logout or expiry is seen at once on the instance that handles it (and
 * expiry is checked on every request); a logout on another instance is seen here within this time.
 */
export const SESSION_RECHECK_MS = 5_000;
/** Sessions remembered at most; the oldest is forgotten first (it is read again when next used). */
const SESSION_MEMORY_LIMIT = 10_000;

type RememberedSession = { lastSeenAt: Date; readAt: number; principal: TPrincipal };

export type PasswordBootstrap =
  | { kind: 'environment' }
  | { kind: 'stored' }
  /** Generated on this start: the only moment the plain password exists; print it once. */
  | { kind: 'generated'; password: string };


export type ClientMeta = { ip: string; userAgent: string | undefined; requestId: string };

/** A new session: the cookie's token (shown once, never stored) and when it ends if left idle. */
export type OpenedSession = { token: string; expiresAt: Date; principal: TPrincipal };

/** What signing in as a person came to. Every refusal of e-mail or password is the same one, whatever its cause. */
export type PersonLogin =
  | ({ ok: true } & OpenedSession)
  | { ok: false; refused: 'credentials' | 'second-factor-required' | 'second-factor-wrong' };

export type AuthService = {
  /** Counts a login attempt from a client address against the limit every instance shares; asked before the password is read. */
  admitLoginAttempt(address: string): Promise<LoginAdmission>;
  /** Counts a sign-in attempt on one e-mail address (known or not) against the per-account limit. */
  admitAccountAttempt(email: string): Promise<LoginAdmission>;
  /** Checks the shared password; on a match opens a session. Both outcomes are audited. */
  login(candidate: string, meta: ClientMeta): Promise<{ token: string; expiresAt: Date } | undefined>;
  /**
   * Signs a person in with e-mail, password and, when they have two-step sign-in, a code or recovery code.
   * Takes as long for an unknown e-mail as for a known one. Failures are audited without e-mail or password.
   */
  loginPerson(input: { email: string; password: string; code?: string | undefined }, meta: ClientMeta): Promise<PersonLogin>;
  /** The session behind a cookie token, with its idle expiry pushed forward; undefined when none, expired, or its person can no longer sign in. */
  resolveSession(token: string | undefined): Promise<ActiveSession | undefined>;
  /** Forgets what this instance remembers of one person's sessions (they were ended elsewhere, or the person changed). */
  forgetUser(userId: string): void;
  /** Forgets every shared-password session this instance remembers (they were ended). */
  forgetShared(): void;
  /** Ends the session of a token; answers its id (for its live connections), or undefined for a token of no session. */
  endSession(token: string): Promise<string | undefined>;
  /** Sessions last used before this are idle past the timeout in force now. */
  activeSince(): Promise<Date>;
  purgeExpiredSessions(): Promise<number>;
};

/** Whoever knows the shared password acts as an admin of every division. */
export const SHARED_PRINCIPAL: TPrincipal = {
  kind: 'shared',
  userId: null,
  name: SHARED_PASSWORD_NAME,
  email: null,
  role: 'admin',
  divisions: null,
  twoFactorEnabled: false,
  twoFactorSetupRequired: false,
};

/** The principal of a person's session; `requireTwoFactorForAdmins` is the Settings → Security switch. */
export function principalOfUser(owner: SessionOwner, requireTwoFactorForAdmins: boolean): TPrincipal {
  return {
    kind: 'user',
    userId: owner.id,
    name: `${owner.firstName} ${owner.lastName}`,
    email: owner.email,
    role: owner.role,
    divisions: owner.divisions.length > 0 ? owner.divisions : null,
    twoFactorEnabled: owner.totpEnabledAt !== null,
    twoFactorSetupRequired: requireTwoFactorForAdmins && owner.role === 'admin' && owner.totpEnabledAt === null,
  };
}

/** The cookie carries a random token; the table keeps only its SHA-256. */
export const sessionIdOf = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * Settles where the shared password's hash comes from: the environment (hashed in memory at boot),
 * the database, or, at first start without either, a generated password whose hash is stored.
 */
export async function bootstrapPassword(
  db: Db,
  fromEnvironment: string | undefined,
): Promise<{ hash: string; bootstrap: PasswordBootstrap }> {
  if (fromEnvironment) return { hash: await hashPassword(fromEnvironment), bootstrap: { kind: 'environment' } };
  const stored = await getSetting(db, PASSWORD_HASH_SETTING, z.string());
  if (stored) return { hash: stored, bootstrap: { kind: 'stored' } };
  const password = generatePassword();
  const hash = await hashPassword(password);
  if (await insertSettingIfAbsent(db, PASSWORD_HASH_SETTING, hash)) {
    return { hash, bootstrap: { kind: 'generated', password } };
  }
  // Another instance generated one at the same moment: theirs is the password, and they print it.
  const winner = await getSetting(db, PASSWORD_HASH_SETTING, z.string());
  if (!winner) throw new Error('password hash vanished while bootstrapping');
  return { hash: winner, bootstrap: { kind: 'stored' } };
}

export type AuthServiceDeps = {
  db: Db;
  passwordHash: string;
  /**
   * Idle minutes before a session ends: a number, or a function asked on every request (System Settings,
   * read through their short cache), so a changed timeout applies to sessions already open.
   */
  sessionTimeoutMinutes: number | (() => Promise<number>);
  loginThrottle: LoginThrottle;
  /** The per-account limit; none in tests that sign in as one person many times. */
  accountThrottle?: AccountThrottle;
  /** Opens sealed two-step secrets. */
  masterKey: Buffer;
  /** Settings → Security: admins must use two-step sign-in (read through the settings' short cache). */
  requireTwoFactorForAdmins?: () => Promise<boolean>;
  /** Settings → Security: how staff sign in; a shared-password session is refused under 'personal'. */
  signInMode?: () => Promise<TSignInMode>;
  now?: () => Date;
};

export function createAuthService(deps: AuthServiceDeps): AuthService {
  const now = deps.now ?? (() => new Date());
  const { sessionTimeoutMinutes } = deps;
  const timeoutMsNow = async (): Promise<number> =>
    (typeof sessionTimeoutMinutes === 'number' ? sessionTimeoutMinutes : await sessionTimeoutMinutes()) * 60_000;
  const requireTwoFactor = async () => (await deps.requireTwoFactorForAdmins?.()) ?? false;
  /** Sessions this instance read lately, by id (SESSION_RECHECK_MS). */
  const remembered = new Map<string, RememberedSession>();
  const remember = (id: string, entry: RememberedSession) => {
    if (remembered.size >= SESSION_MEMORY_LIMIT) {
      const [oldest] = remembered.keys();
      if (oldest !== undefined) remembered.delete(oldest);
    }
    remembered.set(id, entry);
  };
  /**
   * Checked in place of a password when there is no account (or it has none yet), so an unknown e-mail costs
   * the same scrypt work as a known one and the answer's timing does not tell which accounts exist.
   */
  let dummyHash: Promise<string> | undefined;
  const hashForNobody = () => (dummyHash ??= hashPassword(randomBytes(18).toString('base64url')));

  /** Inserts the session (and, for a person, their last login) with its audit record, in one transaction. */
  const openSession = async (principal: TPrincipal, meta: ClientMeta, method: string): Promise<OpenedSession> => {
    const token = randomBytes(32).toString('base64url');
    const at = now();
    const expiresAt = new Date(at.getTime() + (await timeoutMsNow()));
    const id = sessionIdOf(token);
    await deps.db.transaction(async (tx) => {
      await insertSession(tx, {
        id,
        createdAt: at,
        lastSeenAt: at,
        expiresAt,
        ip: meta.ip,
        userAgent: meta.userAgent?.slice(0, 300) ?? null,
        userId: principal.userId,
      });
      if (principal.userId !== null) await recordLogin(tx, principal.userId, at);
      // The audit names the session by a prefix of its hashed id: enough to correlate, useless as a cookie.
      await recordAuditEvent(tx, {
        actor: principal,
        action: 'auth.login',
        subjectType: 'session',
        subjectId: id.slice(0, 12),
        detail: { ip: meta.ip, method },
        requestId: meta.requestId,
      });
    });
    return { token, expiresAt, principal };
  };

  const loginFailed = (meta: ClientMeta, userId: string | null, reason: string) =>
    recordAuditEvent(deps.db, {
      actor: 'system',
      action: 'auth.login_failed',
      subjectType: userId === null ? 'session' : 'user',
      subjectId: userId,
      detail: { ip: meta.ip, reason },
      requestId: meta.requestId,
    });

  /** The code of the authenticator app, or a recovery code; each works once. Answers how it was proven, or undefined. */
  const secondFactor = async (account: LoginAccount, code: string): Promise<'totp' | 'recovery-code' | undefined> => {
    if (isTotpCode(code)) {
      if (!account.totpSecretSealed) return undefined;
      const secret = await openSecret(deps.masterKey, ZSealedSecret.parse(JSON.parse(account.totpSecretSealed)));
      const checked = await checkTotpCode(secret, code.replace(/\s/g, ''), now(), account.totpLastStep);
      return checked.valid && (await useTotpStep(deps.db, account.id, checked.step)) ? 'totp' : undefined;
    }
    return (await useRecoveryCode(deps.db, account.id, hashRecoveryCode(code))) ? 'recovery-code' : undefined;
  };

  return {
    admitLoginAttempt: (address) => deps.loginThrottle.admit(address),
    admitAccountAttempt: (email) => deps.accountThrottle?.admit(email) ?? Promise.resolve({ allowed: true }),

    async login(candidate, meta) {
      const matches = await verifyPassword(candidate, deps.passwordHash);
      if (!matches) {
        await recordAuditEvent(deps.db, {
          actor: SHARED_PRINCIPAL,
          action: 'auth.login_failed',
          subjectType: 'session',
          subjectId: null,
          detail: { ip: meta.ip },
          requestId: meta.requestId,
        });
        return undefined;
      }
      const { token, expiresAt } = await openSession(SHARED_PRINCIPAL, meta, 'shared-password');
      return { token, expiresAt };
    },

    async loginPerson(input, meta) {
      const account = await findLoginAccountByEmail(deps.db, input.email);
      // Always one scrypt check: the account's hash, or the dummy's when there is no account or no password yet.
      const passwordRight = (await verifyPassword(input.password, account?.passwordHash ?? (await hashForNobody()))) && Boolean(account?.passwordHash);
      if (!account || !passwordRight || account.status !== 'active') {
        const reason = !account ? 'unknown-account' : !passwordRight ? 'wrong-password' : `account-${account.status}`;
        await loginFailed(meta, account?.id ?? null, reason);
        return { ok: false, refused: 'credentials' };
      }
      let method = 'password';
      if (account.totpEnabledAt !== null) {
        if (!input.code) return { ok: false, refused: 'second-factor-required' };
        const proven = await secondFactor(account, input.code);
        if (!proven) {
          await loginFailed(meta, account.id, 'wrong-second-factor');
          return { ok: false, refused: 'second-factor-wrong' };
        }
        method = `password+${proven}`;
      }
      const opened = await openSession(principalOfUser(account, await requireTwoFactor()), meta, method);
      return { ok: true, ...opened };
    },

    async resolveSession(token) {
      if (!token) return undefined;
      const at = now();
      const timeoutMs = await timeoutMsNow();
      const id = sessionIdOf(token);
      const known = remembered.get(id);
      if (
        known &&
        at.getTime() - known.readAt < SESSION_RECHECK_MS &&
        at.getTime() - known.lastSeenAt.getTime() < EXTEND_EVERY_MS &&
        known.lastSeenAt.getTime() + timeoutMs > at.getTime()
      ) {
        return { id, expiresAt: new Date(known.lastSeenAt.getTime() + timeoutMs), principal: known.principal };
      }
      remembered.delete(id);
      const found = await findSessionSeenSince(deps.db, id, new Date(at.getTime() - timeoutMs));
      if (!found) return undefined;
      const { session, owner } = found;
      let principal = SHARED_PRINCIPAL;
      if (session.userId !== null) {
        // A person who was deactivated (or deleted) is signed out, whatever their cookie says.
        if (owner === null || owner.status !== 'active') {
          await deleteSession(deps.db, id);
          return undefined;
        }
        principal = principalOfUser(owner, await requireTwoFactor());
      } else if ((await deps.signInMode?.()) === 'personal') {
        // The shared password was turned off: its sessions end, on an instance that missed the signal too.
        await deleteSession(deps.db, id);
        return undefined;
      }
      let { lastSeenAt } = session;
      if (at.getTime() - lastSeenAt.getTime() >= EXTEND_EVERY_MS) {
        lastSeenAt = at;
        await extendSession(deps.db, id, lastSeenAt, new Date(at.getTime() + timeoutMs));
      }
      remember(id, { lastSeenAt, readAt: at.getTime(), principal });
      return { id, expiresAt: new Date(lastSeenAt.getTime() + timeoutMs), principal };
    },

    forgetUser(userId) {
      for (const [id, entry] of remembered) if (entry.principal.userId === userId) remembered.delete(id);
    },

    forgetShared() {
      for (const [id, entry] of remembered) if (entry.principal.kind === 'shared') remembered.delete(id);
    },

    async endSession(token) {
      const id = sessionIdOf(token);
      remembered.delete(id);
      return (await deleteSession(deps.db, id)) ? id : undefined;
    },

    async activeSince() {
      return new Date(now().getTime() - (await timeoutMsNow()));
    },

    async purgeExpiredSessions() {
      const at = now();
      return deleteExpiredSessions(deps.db, at, new Date(at.getTime() - (await timeoutMsNow())));
    },
  };
}
