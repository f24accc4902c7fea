import { createHash, randomBytes } from 'node:crypto';
import {
  COMMON_PASSWORD_MESSAGE,
  INVALID_SECOND_FACTOR_MESSAGE,
  INVITATION_INVALID_MESSAGE,
  INVITATION_VALID_DAYS,
  type TInvitationStatus,
  type TPrincipal,
  type TRecoveryCodes,
  type TSessionList,
  type TTwoFactorSetup,
} from '../../contract';
import { recordAuditEvent, type Actor } from '../audit';
import { hashPassword, verifyPassword } from '../platform/crypto/password';
import { openSecret, sealSecret, ZSealedSecret } from '../platform/crypto/secret-box';
import type { Db } from '../platform/db/client';
import { AppError } from '../platform/errors';
import { disableTotp, enableTotp, findLoginAccountById, setPassword, storeTotpSecret, useTotpStep, type LoginAccount } from './accounts.repository';
import { principalOfUser, type AuthService } from './auth.service';
import { isCommonPassword } from './common-passwords';
import type { SessionSignals } from './session-signals';
import { deleteSharedSessions, deleteUserSessions, listUserSessions } from './sessions.repository';
import { checkTotpCode, hashRecoveryCode, newEnrolment, newRecoveryCodes } from './two-factor';
import { findValidToken, replaceUserToken, takeValidToken, type TokenPurpose } from './user-tokens.repository';

const DAY_MS = 24 * 60 * 60_000;
/** How much of a session's hashed id its owner sees: enough to tell sessions apart, never the whole key. */
const SHOWN_SESSION_ID_LENGTH = 16;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * A new link for a person to choose a password (an invitation, or a reset): 32 random bytes, of which only the
 * SHA-256 is stored; it works once, for INVITATION_VALID_DAYS, and replaces every earlier link of theirs. Call
 * it in the transaction that records why it was made.
 */
export async function issueUserLink(db: Db, userId: string, purpose: TokenPurpose, now: Date): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + INVITATION_VALID_DAYS * DAY_MS);
  await replaceUserToken(db, { tokenHash: hashToken(token), userId, purpose, createdAt: now, expiresAt });
  return { token, expiresAt };
}

const invalidLink = () => new AppError('NOT_FOUND', INVITATION_INVALID_MESSAGE);
const personalOnly = () => new AppError('CONFLICT', 'Two-step sign-in belongs to a personal account. Sign in with your own e-mail and password to set it up.');

export type AccountServiceDeps = {
  db: Db;
  masterKey: Buffer;
  auth: Pick<AuthService, 'activeSince'>;
  signals: SessionSignals;
  /** Settings → Security: admins must keep two-step sign-in on. */
  requireTwoFactorForAdmins: () => Promise<boolean>;
  now?: () => Date;
};

/** A person's own account: choosing a password through a link, their sessions, and two-step sign-in. */
export function createAccountService(deps: AccountServiceDeps) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());

  /** The signed-in person's account; the shared password has none. */
  const ownAccount = async (principal: TPrincipal): Promise<LoginAccount> => {
    if (principal.kind !== 'user' || principal.userId === null) throw personalOnly();
    const account = await findLoginAccountById(db, principal.userId);
    // Deleted since the session was read: the next request is refused anyway.
    if (!account) throw new AppError('UNAUTHENTICATED', 'Your account no longer exists.');
    return account;
  };

  const openTotpSecret = async (account: LoginAccount): Promise<string> => {
    if (!account.totpSecretSealed) throw new AppError('CONFLICT', 'Start the two-step sign-in setup first.');
    return openSecret(deps.masterKey, ZSealedSecret.parse(JSON.parse(account.totpSecretSealed)));
  };

  return {
    /** What the link's page shows before a password is chosen; 404 for an unknown, used or expired link. */
    async invitationStatus(token: string): Promise<TInvitationStatus> {
      const found = await findValidToken(db, hashToken(token), now());
      if (!found || found.status === 'inactive') throw invalidLink();
      return { email: found.email, firstName: found.firstName, purpose: found.purpose, expiresAt: found.expiresAt.toISOString() };
    },

    /**
     * Sets the password a link's owner chose and makes the account active. The link is used up in the same
     * transaction (of two requests with one link, one wins); every other session of the person ends.
     */
    async acceptInvitation(input: { token: string; password: string }, meta: { requestId: string }): Promise<{ email: string }> {
      const tokenHash = hashToken(input.token);
      // Read first, so an expired link is said before anyone types a password twice; taken for real below.
      if (!(await findValidToken(db, tokenHash, now()))) throw invalidLink();
      if (isCommonPassword(input.password)) {
        throw new AppError('VALIDATION_FAILED', COMMON_PASSWORD_MESSAGE, [{ path: 'body.password', message: COMMON_PASSWORD_MESSAGE }]);
      }
      const passwordHash = await hashPassword(input.password);
      const done = await db.transaction(async (tx) => {
        const taken = await takeValidToken(tx, tokenHash, now());
        if (!taken) throw invalidLink();
        const owner = await setPassword(tx, taken.userId, passwordHash);
        if (!owner) throw invalidLink();
        const ended = await deleteUserSessions(tx, owner.id);
        await recordAuditEvent(tx, {
          actor: principalOfUser(owner, false),
          action: 'auth.password_set',
          subjectType: 'user',
          subjectId: owner.id,
          detail: { purpose: taken.purpose, sessionsEnded: ended.length },
          requestId: meta.requestId,
        });
        return { owner, ended: ended.length };
      });
      if (done.ended > 0) await deps.signals.sessionsEnded(done.owner.id);
      else await deps.signals.userChanged(done.owner.id);
      return { email: done.owner.email };
    },

    /** One person's sessions still in use; `currentSessionId` marks the one asking. */
    async listSessions(userId: string, currentSessionId: string | undefined): Promise<TSessionList> {
      const rows = await listUserSessions(db, userId, await deps.auth.activeSince());
      return {
        sessions: rows.map((row) => ({
          id: row.id.slice(0, SHOWN_SESSION_ID_LENGTH),
          createdAt: row.createdAt.toISOString(),
          lastSeenAt: row.lastSeenAt.toISOString(),
          userAgent: row.userAgent,
          current: row.id === currentSessionId,
        })),
      };
    },

    /** Ends one person's sessions (but `keepSessionId`), on every instance, their live connections with them. */
    async endSessions(userId: string, actor: Actor, keepSessionId?: string): Promise<{ ended: number }> {
      const ended = await db.transaction(async (tx) => {
        const ids = await deleteUserSessions(tx, userId, keepSessionId);
        await recordAuditEvent(tx, {
          actor: actor.principal,
          action: 'auth.sessions_ended',
          subjectType: 'user',
          subjectId: userId,
          detail: { ended: ids.length, keptCurrent: keepSessionId !== undefined },
          requestId: actor.requestId,
        });
        return ids.length;
      });
      await deps.signals.sessionsEnded(userId, keepSessionId);
      return { ended };
    },

    /** Ends every shared-password session, on every instance (the league now signs in with personal accounts only). */
    async endSharedSessions(actor: Actor): Promise<{ ended: number }> {
      const ended = await db.transaction(async (tx) => {
        const count = await deleteSharedSessions(tx);
        await recordAuditEvent(tx, {
          actor: actor.principal,
          action: 'auth.sessions_ended',
          subjectType: 'session',
          subjectId: null,
          detail: { ended: count, shared: true },
          requestId: actor.requestId,
        });
        return count;
      });
      await deps.signals.sharedSessionsEnded();
      return { ended };
    },

    /** A new secret to scan; two-step sign-in stays off until a first code proves it (enableTwoFactor). */
    async setupTwoFactor(actor: Actor): Promise<TTwoFactorSetup> {
      const account = await ownAccount(actor.principal);
      if (account.totpEnabledAt !== null) throw new AppError('CONFLICT', 'Two-step sign-in is already on. Turn it off first to move it to another phone.');
      const enrolment = await newEnrolment(account.email);
      await storeTotpSecret(db, account.id, JSON.stringify(sealSecret(deps.masterKey, enrolment.secret)));
      return enrolment;
    },

    /** Turns two-step sign-in on with the first code of the app; answers the recovery codes, shown this once. */
    async enableTwoFactor(actor: Actor, code: string): Promise<TRecoveryCodes> {
      const account = await ownAccount(actor.principal);
      if (account.totpEnabledAt !== null) throw new AppError('CONFLICT', 'Two-step sign-in is already on.');
      const checked = await checkTotpCode(await openTotpSecret(account), code, now(), account.totpLastStep);
      if (!checked.valid) throw new AppError('VALIDATION_FAILED', INVALID_SECOND_FACTOR_MESSAGE, [{ path: 'body.code', message: INVALID_SECOND_FACTOR_MESSAGE }]);
      const recoveryCodes = newRecoveryCodes();
      await db.transaction(async (tx) => {
        const enabled = (await useTotpStep(tx, account.id, checked.step)) && (await enableTotp(tx, account.id, now(), recoveryCodes.map(hashRecoveryCode)));
        if (!enabled) throw new AppError('CONFLICT', 'Two-step sign-in changed meanwhile (another tab?). Reload the page and try again.');
        await recordAuditEvent(tx, {
          actor: actor.principal,
          action: 'auth.two_factor_enabled',
          subjectType: 'user',
          subjectId: account.id,
          detail: { recoveryCodes: recoveryCodes.length },
          requestId: actor.requestId,
        });
      });
      await deps.signals.userChanged(account.id);
      return { recoveryCodes };
    },

    /** Turns the person's own two-step sign-in off, after their password again; not for admins when it is required. */
    async disableTwoFactor(actor: Actor, password: string): Promise<void> {
      const account = await ownAccount(actor.principal);
      if (account.role === 'admin' && (await deps.requireTwoFactorForAdmins())) {
        throw new AppError('CONFLICT', 'Admins of this league must use two-step sign-in (Settings → Security), so it cannot be turned off.');
      }
      const right = account.passwordHash !== null && (await verifyPassword(password, account.passwordHash));
      if (!right) throw new AppError('VALIDATION_FAILED', 'That password is not right.', [{ path: 'body.password', message: 'That password is not right.' }]);
      await db.transaction(async (tx) => {
        if (!(await disableTotp(tx, account.id))) throw new AppError('CONFLICT', 'Two-step sign-in is not on.');
        await recordAuditEvent(tx, {
          actor: actor.principal,
          action: 'auth.two_factor_disabled',
          subjectType: 'user',
          subjectId: account.id,
          detail: { by: 'self' },
          requestId: actor.requestId,
        });
      });
      await deps.signals.userChanged(account.id);
    },

    /** An admin turns another person's two-step sign-in off (a lost phone); false when it was not on. Call in the caller's transaction. */
    async resetTwoFactor(tx: Db, userId: string, actor: Actor): Promise<boolean> {
      if (!(await disableTotp(tx, userId))) return false;
      await recordAuditEvent(tx, {
        actor: actor.principal,
        action: 'auth.two_factor_disabled',
        subjectType: 'user',
        subjectId: userId,
        detail: { by: 'admin' },
        requestId: actor.requestId,
      });
      return true;
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
