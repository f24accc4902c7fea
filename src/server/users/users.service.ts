import {
  DIVISIONS,
  INVITATION_VALID_DAYS,
  type TCreateUser,
  type TDivision,
  type TInvitationLink,
  type TSessionList,
  type TSignInMode,
  type TUpdateUser,
  type TUser,
  type TUserActivity,
  type TUserCreated,
  type TUserInvitation,
  type TUserList,
  type TUserListQuery,
  type TUserResponse,
} from '../../contract';
import { lastActionTimes, listActivity, recordAuditEvent, recordedActorName, summarizeActivity, type Actor } from '../audit';
import { deleteUserSessions, deleteUserTokens, issueUserLink, type AccountService, type SessionSignals } from '../auth';
import type { Db } from '../platform/db/client';
import { AppError } from '../platform/errors';
import type { Logger } from '../platform/logger';
import { deleteUser, findUserByEmail, findUserById, findUsers, insertUser, lockUsableAdmins, updateUser, type UserChanges, type UserRow } from './users.repository';

/** An e-mail about a person's own account, handed to the notification mail server; answers whether it went. */
export type SendAccountMail = (mail: { to: string; subject: string; text: string; html: string }) => Promise<{ sent: true } | { sent: false; reason: string }>;

export type UsersServiceDeps = {
  db: Db;
  /** Invitation links, sessions and two-step sign-in of a person (the auth module). */
  accounts: Pick<AccountService, 'listSessions' | 'endSessions' | 'resetTwoFactor'>;
  /** Tells every instance when a person's sessions ended or the person changed. */
  signals: SessionSignals;
  /** Settings → Security: how staff sign in now. */
  signInMode: () => Promise<TSignInMode>;
  /** CLEARBASE_PUBLIC_URL: the address links point to; without it, the address the admin's request came to. */
  publicUrl: URL | undefined;
  /** The notification mail server; links are e-mailed when it is set up. */
  sendMail: SendAccountMail;
  log: Logger;
  now?: () => Date;
};

/** The fields PATCH may change, in the order an audit entry lists them. */
const CHANGEABLE = ['email', 'firstName', 'lastName', 'role', 'status', 'divisions'] as const;

export function toUser(row: UserRow, lastActionAt: Date | undefined = undefined): TUser {
  return {
    id: row.id,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    role: row.role,
    status: row.status,
    divisions: row.divisions,
    twoFactorEnabled: row.totpEnabledAt !== null,
    lastLogin: row.lastLoginAt?.toISOString() ?? null,
    lastActionAt: lastActionAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    profileImageUrl: row.profileImageUrl,
  };
}

const fullName = (user: { firstName: string; lastName: string }) => `${user.firstName} ${user.lastName}`;

/** 409 naming the e-mail (and who holds it, when known), placed on the e-mail field for the form. */
function emailTaken(email: string, holder: UserRow | undefined): AppError {
  const used = `${email} is already used by ${holder ? fullName(holder) : 'another user'}`;
  return new AppError('CONFLICT', `The e-mail ${used}.`, [{ path: 'body.email', message: used }]);
}

const notFound = (id: string) => new AppError('NOT_FOUND', `User ${id} does not exist; it may have been deleted.`);

/** Divisions in the contract's order, so a change of order alone is no change. */
const sortedDivisions = (divisions: readonly TDivision[]): TDivision[] => DIVISIONS.filter((division) => divisions.includes(division));
const sameDivisions = (a: readonly TDivision[], b: readonly TDivision[]) => sortedDivisions(a).join() === sortedDivisions(b).join();

/** Whether a user can sign in as an admin with a password of their own. */
const isUsableAdmin = (row: Pick<UserRow, 'role' | 'status' | 'passwordHash'>) => row.role === 'admin' && row.status === 'active' && row.passwordHash !== null;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Staff accounts, as User Management lists and changes them: every change and its audit event commit together. */
export function createUsersService(deps: UsersServiceDeps) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());

  /** Where a link points: CLEARBASE_PUBLIC_URL, else the origin the admin's request came to (its Host was checked by the gate). */
  const linkFor = (token: string, requestOrigin: string): string => {
    const origin = deps.publicUrl ? deps.publicUrl.origin : requestOrigin;
    // In the #fragment: the browser never sends it, so no server or proxy log ever holds the token.
    return `${origin}/invitation#token=${token}`;
  };

  /**
   * Refuses a change that would lock the league out: an admin taking away their own access, or the last admin
   * who can sign in losing it while the league signs in with personal accounts only. Call inside the change's
   * transaction with the row read under lock.
   */
  const guardAdmins = async (tx: Db, before: UserRow, after: { role: string; status: string } | 'deleted', actor: Actor): Promise<void> => {
    if (actor.principal.userId === before.id) {
      if (after === 'deleted') throw new AppError('CONFLICT', 'You cannot delete your own account. Ask another admin to do it.');
      if (after.status === 'inactive' && before.status !== 'inactive') throw new AppError('CONFLICT', 'You cannot deactivate your own account. Ask another admin to do it.');
      if (before.role === 'admin' && after.role !== 'admin') throw new AppError('CONFLICT', 'You cannot take away your own admin role. Ask another admin to do it.');
    }
    const losesAdmin = after === 'deleted' || after.role !== 'admin' || after.status !== 'active';
    if (!isUsableAdmin(before) || !losesAdmin || (await deps.signInMode()) !== 'personal') return;
    const others = (await lockUsableAdmins(tx)).filter((id) => id !== before.id);
    if (others.length === 0) {
      throw new AppError(
        'CONFLICT',
        `${fullName(before)} is the last active admin who can sign in, and the league signs in with personal accounts only. Make another admin first, or allow the shared password in Settings → Security.`,
      );
    }
  };

  /** E-mails a new link when the mail server is set up; a failure is logged (never the link) and is not the caller's failure. */
  const mailLink = async (user: UserRow, link: TInvitationLink, purpose: 'invitation' | 'reset', actor: Actor): Promise<boolean> => {
    const until = new Date(link.expiresAt).toUTCString().replace(/ \d\d:\d\d:\d\d GMT$/, '');
    const intro =
      purpose === 'invitation'
        ? `${actor.principal.name} invited you to Clearbase, where the league keeps its players' registration documents. Choose your password here:`
        : `${actor.principal.name} sent you a link to choose a new password for Clearbase:`;
    const note = `The link works once, until ${until} (${INVITATION_VALID_DAYS} days). If you did not expect this e-mail, ignore it.`;
    const result = await deps.sendMail({
      to: user.email,
      subject: purpose === 'invitation' ? 'You are invited to Clearbase' : 'Choose a new Clearbase password',
      text: `Hello ${user.firstName},\n\n${intro}\n\n${link.url}\n\n${note}\n`,
      html: `<p>Hello ${escapeHtml(user.firstName)},</p><p>${escapeHtml(intro)}</p><p><a href="${escapeHtml(link.url)}">${purpose === 'invitation' ? 'Choose my password' : 'Choose a new password'}</a></p><p>${escapeHtml(note)}</p>`,
    });
    if (!result.sent) deps.log.warn({ userId: user.id, purpose, reason: result.reason }, 'did not e-mail the link; the admin can pass it on');
    return result.sent;
  };

  /** A new link for one person, recorded with the reason it was made; `user` is the row as locked by the caller. */
  const issueLink = async (tx: Db, user: UserRow, purpose: 'invitation' | 'reset', actor: Actor, origin: string): Promise<TInvitationLink> => {
    const { token, expiresAt } = await issueUserLink(tx, user.id, purpose, now());
    await recordAuditEvent(tx, {
      actor: actor.principal,
      action: 'user.invitation_issued',
      subjectType: 'user',
      subjectId: user.id,
      // Never the token or the link: whoever reads the trail could use it.
      detail: { purpose, expiresAt: expiresAt.toISOString() },
      requestId: actor.requestId,
    });
    return { url: linkFor(token, origin), expiresAt: expiresAt.toISOString() };
  };

  /** The row, or 404. */
  const existing = async (id: string): Promise<UserRow> => {
    const row = await findUserById(db, id);
    if (!row) throw notFound(id);
    return row;
  };

  return {
    async listUsers(query: TUserListQuery): Promise<TUserList> {
      const rows = await findUsers(db, {
        search: query.search || undefined,
        role: query.role === 'all' ? undefined : query.role,
        status: query.status === 'all' ? undefined : query.status,
      });
      const lastActions = await lastActionTimes(
        db,
        rows.map((row) => row.id),
      );
      return { users: rows.map((row) => toUser(row, lastActions.get(row.id))) };
    },

    /** Invites a person: the user is `pending` until they choose a password through the link answered here (and e-mailed). */
    async createUser(input: TCreateUser, actor: Actor, origin: string): Promise<TUserCreated> {
      const divisions = sortedDivisions(input.divisions ?? []);
      const created = await db.transaction(async (tx) => {
        const holder = await findUserByEmail(tx, input.email);
        if (holder) throw emailTaken(input.email, holder);
        const row = await insertUser(tx, { email: input.email, firstName: input.firstName, lastName: input.lastName, role: input.role, divisions, status: 'pending' });
        // A concurrent create of the same e-mail committed between the check and the insert.
        if (row === 'email-taken') throw emailTaken(input.email, undefined);
        await recordAuditEvent(tx, {
          actor: actor.principal,
          action: 'user.created',
          subjectType: 'user',
          subjectId: row.id,
          detail: { email: row.email, firstName: row.firstName, lastName: row.lastName, role: row.role, status: row.status, divisions: row.divisions },
          requestId: actor.requestId,
        });
        return { row, invitation: await issueLink(tx, row, 'invitation', actor, origin) };
      });
      const emailed = await mailLink(created.row, created.invitation, 'invitation', actor);
      return { user: toUser(created.row), invitation: created.invitation, emailed };
    },

    /** A new link: the invitation again for a pending user, a password reset for an active one. Earlier links stop working. */
    async issueInvitation(id: string, actor: Actor, origin: string): Promise<TUserInvitation> {
      const issued = await db.transaction(async (tx) => {
        const user = await findUserById(tx, id, { lock: true });
        if (!user) throw notFound(id);
        if (user.status === 'inactive') throw new AppError('CONFLICT', `Reactivate ${fullName(user)} first: an inactive account gets no link to sign in.`);
        const purpose = user.status === 'pending' ? 'invitation' : 'reset';
        return { user, purpose, invitation: await issueLink(tx, user, purpose, actor, origin) } as const;
      });
      const emailed = await mailLink(issued.user, issued.invitation, issued.purpose, actor);
      return { invitation: issued.invitation, emailed };
    },

    /**
     * Applies the fields that differ and audits each as { from, to }; a patch that changes nothing records
     * nothing. Deactivating ends the person's sessions and links at once, on every instance; any other change
     * reaches their open sessions within moments.
     */
    async updateUser(id: string, patch: TUpdateUser, actor: Actor): Promise<TUserResponse> {
      const result = await db.transaction(async (tx) => {
        // Admins first, then the user: every change that may take an admin away locks in the same order, so two
        // admins demoting each other wait for one another instead of deadlocking.
        if (patch.role !== undefined || patch.status !== undefined) await lockUsableAdmins(tx);
        const before = await findUserById(tx, id, { lock: true });
        if (!before) throw notFound(id);
        const changes: UserChanges = {};
        const detail: Record<string, { from: unknown; to: unknown }> = {};
        for (const field of CHANGEABLE) {
          if (field === 'divisions') {
            const to = patch.divisions;
            if (to === undefined || sameDivisions(to, before.divisions)) continue;
            changes.divisions = sortedDivisions(to);
            detail.divisions = { from: before.divisions, to: changes.divisions };
            continue;
          }
          const to = patch[field];
          if (to === undefined || to === before[field]) continue;
          Object.assign(changes, { [field]: to });
          detail[field] = { from: before[field], to };
        }
        if (Object.keys(detail).length === 0) return { user: before, ended: false, changed: false };
        await guardAdmins(tx, before, { role: changes.role ?? before.role, status: changes.status ?? before.status }, actor);
        if (changes.email !== undefined) {
          const holder = await findUserByEmail(tx, changes.email, id);
          if (holder) throw emailTaken(changes.email, holder);
        }
        const after = await updateUser(tx, id, changes);
        if (after === 'email-taken') throw emailTaken(changes.email ?? before.email, undefined);
        // Deleted by a concurrent request after it was read here.
        if (!after) throw notFound(id);
        const deactivated = after.status === 'inactive' && before.status !== 'inactive';
        if (deactivated) {
          await deleteUserSessions(tx, id);
          await deleteUserTokens(tx, id);
        }
        await recordAuditEvent(tx, { actor: actor.principal, action: 'user.updated', subjectType: 'user', subjectId: id, detail, requestId: actor.requestId });
        return { user: after, ended: deactivated, changed: true };
      });
      if (result.ended) await deps.signals.sessionsEnded(id);
      else if (result.changed) await deps.signals.userChanged(id);
      return { user: toUser(result.user) };
    },

    /** The audit entry keeps who the user was, since the row is gone; their sessions end with it (on every instance). */
    async deleteUser(id: string, actor: Actor): Promise<void> {
      await db.transaction(async (tx) => {
        await lockUsableAdmins(tx);
        const before = await findUserById(tx, id, { lock: true });
        if (!before) throw notFound(id);
        await guardAdmins(tx, before, 'deleted', actor);
        const deleted = await deleteUser(tx, id);
        if (!deleted) throw notFound(id);
        await recordAuditEvent(tx, {
          actor: actor.principal,
          action: 'user.deleted',
          subjectType: 'user',
          subjectId: id,
          detail: { email: deleted.email, firstName: deleted.firstName, lastName: deleted.lastName, role: deleted.role, status: deleted.status },
          requestId: actor.requestId,
        });
      });
      await deps.signals.sessionsEnded(id);
    },

    /** Another person's sessions still in use. */
    async listSessions(id: string, currentSessionId: string | undefined): Promise<TSessionList> {
      await existing(id);
      return deps.accounts.listSessions(id, currentSessionId);
    },

    /** Signs another person out everywhere. */
    async endSessions(id: string, actor: Actor): Promise<{ ended: number }> {
      await existing(id);
      return deps.accounts.endSessions(id, actor);
    },

    /** Turns another person's two-step sign-in off (a lost phone): they sign in with their password alone, and may set it up again. */
    async resetTwoFactor(id: string, actor: Actor): Promise<TUserResponse> {
      const result = await db.transaction(async (tx) => {
        const user = await findUserById(tx, id, { lock: true });
        if (!user) throw notFound(id);
        const reset = await deps.accounts.resetTwoFactor(tx, id, actor);
        return { reset, user: reset ? await findUserById(tx, id) : user };
      });
      if (!result.user) throw notFound(id);
      if (result.reset) await deps.signals.userChanged(id);
      return { user: toUser(result.user) };
    },

    /** The audit by person, newest first, in pages. */
    async activity(query: { userId?: string | undefined; before?: number | undefined; limit: number }): Promise<TUserActivity> {
      const { limit } = query;
      const rows = await listActivity(db, { userId: query.userId, before: query.before, limit });
      const page = rows.slice(0, limit);
      return {
        entries: page.map((row) => ({
          id: row.id,
          at: row.at.toISOString(),
          actorName: recordedActorName(row),
          actorUserId: row.actorUserId,
          action: row.action,
          summary: summarizeActivity(row),
          subjectType: row.subjectType,
          subjectId: row.subjectId,
        })),
        nextBefore: rows.length > limit ? (page.at(-1)?.id ?? null) : null,
      };
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
