import { z } from 'zod';
import { USER_ROLES, USER_STATUSES, ZUserRole, ZUserStatus } from './domain';

/**
 * User Management: the league's staff accounts, each with a role and a status. Roles are labels only (no
 * screen or route checks them); the access gate stays the shared password, see
 * docs/decisions/014-user-accounts-are-records-not-logins.md.
 */

/** A staff account. `lastLogin` and `createdAt` are ISO instants; `lastLogin` is null until the first sign-in. */
export const ZUser = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  role: ZUserRole,
  status: ZUserStatus,
  lastLogin: z.string().nullable(),
  createdAt: z.string(),
  profileImageUrl: z.string().nullable(),
});
export type TUser = z.infer<typeof ZUser>;

export const MAX_USER_NAME_LENGTH = 80;
/** RFC 5321's limit on a forward path. */
export const MAX_USER_EMAIL_LENGTH = 254;

const userName = (what: string) =>
  z
    .string({ error: `${what} is required` })
    .trim()
    .min(1, `${what} is required`)
    .max(MAX_USER_NAME_LENGTH, `${what} must be at most ${MAX_USER_NAME_LENGTH} characters`);

/** Kept as typed (trimmed); uniqueness ignores case (the users table's unique index on lower(email)). */
const userEmail = z
  .string({ error: 'E-mail is required' })
  .trim()
  .min(1, 'E-mail is required')
  .max(MAX_USER_EMAIL_LENGTH, `E-mail must be at most ${MAX_USER_EMAIL_LENGTH} characters`)
  .pipe(z.email('Enter a valid e-mail address, such as name@example.org'));

const userRole = z.enum(USER_ROLES, {
  error: (issue) => (issue.input === undefined ? 'Role is required' : 'Role must be admin, moderator or viewer'),
});
const userStatus = z.enum(USER_STATUSES, {
  error: (issue) => (issue.input === undefined ? 'Status is required' : 'Status must be active, inactive or pending'),
});

const userFields = { email: userEmail, firstName: userName('First name'), lastName: userName('Last name'), role: userRole, status: userStatus };

/** POST /api/users: the 'Add User' dialog. A new user is active unless told otherwise. */
export const ZCreateUser = z.object({ ...userFields, status: userStatus.default('active') });
export type TCreateUser = z.infer<typeof ZCreateUser>;

/** PATCH /api/users/{id}: any of the fields, at least one; unknown fields are refused. */
export const ZUpdateUser = z
  .strictObject(z.object(userFields).partial().shape, {
    error: (issue) =>
      issue.code === 'unrecognized_keys' ? `Unknown field ${issue.keys.join(', ')}: change email, firstName, lastName, role or status` : undefined,
  })
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), {
    error: 'Change at least one of e-mail, first name, last name, role or status.',
  });
export type TUpdateUser = z.infer<typeof ZUpdateUser>;

/** The filter values of the list: a role or status, or `all`. */
export const USER_ROLE_FILTERS = ['all', ...USER_ROLES] as const;
export type TUserRoleFilter = (typeof USER_ROLE_FILTERS)[number];
export const USER_STATUS_FILTERS = ['all', ...USER_STATUSES] as const;
export type TUserStatusFilter = (typeof USER_STATUS_FILTERS)[number];
export const MAX_USER_SEARCH_LENGTH = 100;

/**
 * GET /api/users: by last name, then first name. `search` is a case-insensitive part of the first name,
 * the last name, 'First Last' or the e-mail; `%` and `_` are plain characters.
 */
export const ZUserListQuery = z.object({
  search: z.string().trim().max(MAX_USER_SEARCH_LENGTH, `must be at most ${MAX_USER_SEARCH_LENGTH} characters`).optional(),
  role: z.enum(USER_ROLE_FILTERS, { error: 'must be all, admin, moderator or viewer' }).default('all'),
  status: z.enum(USER_STATUS_FILTERS, { error: 'must be all, active, inactive or pending' }).default('all'),
});
export type TUserListQuery = z.input<typeof ZUserListQuery>;

export const ZUserList = z.object({ users: z.array(ZUser) });
export type TUserList = z.infer<typeof ZUserList>;

/** 201 of POST and 200 of PATCH: the user as stored. */
export const ZUserResponse = z.object({ user: ZUser });
export type TUserResponse = z.infer<typeof ZUserResponse>;

export const ZUserParams = z.object({ id: z.uuid('must be a user id') });
