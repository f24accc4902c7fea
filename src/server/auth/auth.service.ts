import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { Db } from '../platform/db/client';
import { getSetting, insertSettingIfAbsent } from '../settings';
import {
  deleteExpiredSessions,
  deleteSession,
  extendSession,
  findSessionSeenSince,
  insertSession, type SessionOwner
} from './sessions.repository';
import { recordAuditEvent } from '../audit';
import { generatePassword, hashPassword, verifyPassword } from '../platform/crypto/password';
import type { LoginAdmission, LoginThrottle } from './login-throttle';
import type { ActiveSession } from '../platform/http/access';
import { SHARED_PASSWORD_NAME, type TPrincipal } from '../../contract';

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

export type AuthService = {
  /** Counts a login attempt from a client address against the limit every instance shares; asked before the password is read. */
  admitLoginAttempt(address: string): Promise<LoginAdmission>;
  /** Checks the shared password; on a match opens a session. Both outcomes are audited. */
  login(candidate: string, meta: ClientMeta): Promise<{ token: string; expiresAt: Date } | undefined>;
  /** The session behind a cookie token, with its idle expiry pushed forward; undefined when none, expired, or its person can no longer sign in. */
  resolveSession(token: string | undefined): Promise<ActiveSession | undefined>;
  /** Forgets what this instance remembers of one person's sessions (they were ended elsewhere, or the person changed). */
  forgetUser(userId: string): void;
  endSession(token: string): Promise<void>;
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
    twoFactorSetupRequired: requireTwoFactorForAdmins && owner.role === 'admin' && owner.totpEnabledAt === null,
  };
}

/** The cookie carries a random token; the table keeps only its SHA-256. */
const sessionIdOf = (token: string) => createHash('sha256').update(token).digest('hex');

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

export function createAuthService(deps: {
  db: Db;
  passwordHash: string;
  /**
   * Idle minutes before a session ends: a number, or a function asked on every request (System Settings,
   * read through their short cache), so a changed timeout applies to sessions already open.
   */
  sessionTimeoutMinutes: number | (() => Promise<number>);
  loginThrottle: LoginThrottle;
  /** Settings → Security: admins must use two-step sign-in (read through the settings' short cache). */
  requireTwoFactorForAdmins?: () => Promise<boolean>;
  now?: () => Date;
}): AuthService {
  const now = deps.now ?? (() => new Date());
  const { sessionTimeoutMinutes } = deps;
  const timeoutMsNow = async (): Promise<number> =>
    (typeof sessionTimeoutMinutes === 'number' ? sessionTimeoutMinutes : await sessionTimeoutMinutes()) * 60_000;
  /** Sessions this instance read lately, by id (SESSION_RECHECK_MS). */
  const remembered = new Map<string, RememberedSession>();
  const remember = (id: string, entry: RememberedSession) => {
    if (remembered.size >= SESSION_MEMORY_LIMIT) {
      const [oldest] = remembered.keys();
      if (oldest !== undefined) remembered.delete(oldest);
    }
    remembered.set(id, entry);
  };

  return {
    admitLoginAttempt: (address) => deps.loginThrottle.admit(address),

    async login(candidate, meta) {
      const matches = await verifyPassword(candidate, deps.passwordHash);
      const audit = { actor: SHARED_PRINCIPAL, subjectType: 'session' as const, detail: { ip: meta.ip }, requestId: meta.requestId };
      if (!matches) {
        await recordAuditEvent(deps.db, { ...audit, action: 'auth.login_failed', subjectId: null });
        return undefined;
      }
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
        });
        // The audit names the session by a prefix of its hashed id: enough to correlate, useless as a cookie.
        await recordAuditEvent(tx, { ...audit, action: 'auth.login', subjectId: id.slice(0, 12) });
      });
      return { token, expiresAt };
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
        principal = principalOfUser(owner, (await deps.requireTwoFactorForAdmins?.()) ?? false);
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

    endSession: async (token) => {
      remembered.delete(sessionIdOf(token));
      await deleteSession(deps.db, sessionIdOf(token));
    },
    async purgeExpiredSessions() {
      const at = now();
      return deleteExpiredSessions(deps.db, at, new Date(at.getTime() - (await timeoutMsNow())));
    },
  };
}
