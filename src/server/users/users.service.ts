import type { TCreateUser, TUpdateUser, TUser, TUserList, TUserListQuery, TUserResponse } from '../../contract';
import { recordAuditEvent, type Actor } from '../audit';
import type { Db } from '../platform/db/client';
import { deleteUser, findUserByEmail, findUserById, findUsers, insertUser, updateUser, type UserChanges, type UserRow } from './users.repository';
import { AppError } from '../platform/errors';

export type UsersServiceDeps = { db: Db };


/** The fields PATCH may change, in the order an audit entry lists them. */
const CHANGEABLE = ['email', 'firstName', 'lastName', 'role', 'status'] as const;

export function toUser(row: UserRow): TUser {
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
    lastActionAt: null,
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

/** Staff accounts, as User Management lists and changes them: every change and its audit event commit together. */
export function createUsersService(deps: UsersServiceDeps) {
  const { db } = deps;
  return {
    async listUsers(query: TUserListQuery): Promise<TUserList> {
      const rows = await findUsers(db, {
        search: query.search || undefined,
        role: query.role === 'all' ? undefined : query.role,
        status: query.status === 'all' ? undefined : query.status,
      });
      return { users: rows.map(toUser) };
    },

    async createUser(input: TCreateUser, actor: Actor): Promise<TUserResponse> {
      return db.transaction(async (tx) => {
        const holder = await findUserByEmail(tx, input.email);
        if (holder) throw emailTaken(input.email, holder);
        const row = await insertUser(tx, { ...input });
        // A concurrent create of the same e-mail committed between the check and the insert.
        if (row === 'email-taken') throw emailTaken(input.email, undefined);
        await recordAuditEvent(tx, {
          actor: actor.principal,
          action: 'user.created',
          subjectType: 'user',
          subjectId: row.id,
          detail: { email: row.email, firstName: row.firstName, lastName: row.lastName, role: row.role, status: row.status },
          requestId: actor.requestId,
        });
        return { user: toUser(row) };
      });
    },

    /** Applies the fields that differ and audits each as { from, to }; a patch that changes nothing records nothing. */
    async updateUser(id: string, patch: TUpdateUser, actor: Actor): Promise<TUserResponse> {
      return db.transaction(async (tx) => {
        const before = await findUserById(tx, id);
        if (!before) throw notFound(id);
        const changes: UserChanges = {};
        const detail: Record<string, { from: string; to: string }> = {};
        for (const field of CHANGEABLE) {
          const to = patch[field];
          if (to === undefined || to === before[field]) continue;
          Object.assign(changes, { [field]: to });
          detail[field] = { from: before[field], to };
        }
        if (Object.keys(detail).length === 0) return { user: toUser(before) };
        if (changes.email !== undefined) {
          const holder = await findUserByEmail(tx, changes.email, id);
          if (holder) throw emailTaken(changes.email, holder);
        }
        const after = await updateUser(tx, id, changes);
        if (after === 'email-taken') throw emailTaken(changes.email ?? before.email, undefined);
        // Deleted by a concurrent request after it was read here.
        if (!after) throw notFound(id);
        await recordAuditEvent(tx, { actor: actor.principal, action: 'user.updated', subjectType: 'user', subjectId: id, detail, requestId: actor.requestId });
        return { user: toUser(after) };
      });
    },

    /** The audit entry keeps who the user was, since the row is gone. */
    async deleteUser(id: string, actor: Actor): Promise<void> {
      await db.transaction(async (tx) => {
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
    },
  };
}
export type UsersService = ReturnType<typeof createUsersService>;
