import { z } from 'zod';
import { ZInvitationLink } from './auth';
import { DIVISIONS, USER_ROLES, USER_STATUSES, ZDivision, ZUserRole, ZUserStatus } from './domain';

/**
 * User Management: the league's staff, each signing in as themselves with a role (what they may do) and,
 * optionally, divisions (what they may see), see docs/decisions/021-personal-accounts-roles-and-division-scope.md.
 * A new user is `pending` until they choose a password through their invitation link; `inactive` cannot sign in.
 */

/**
 * A staff account. Instants are ISO; `lastLogin` is null until the first sign-in, `lastActionAt` until the
 * first audited action. `divisions` empty means every division.
 */
export const ZUser = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  role: ZUserRole,
  status: ZUserStatus,
  divisions: z.array(ZDivision),
  twoFactorEnabled: z.boolean(),
  lastLogin: z.string().nullable(),
  lastActionAt: z.string().nullable(),
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

const userDivisions = z
  .array(z.enum(DIVISIONS, { error: `Division must be one of ${DIVISIONS.join(', ')}` }), { error: 'Divisions must be a list' })
  .max(DIVISIONS.length)
  .transform((divisions) => [...new Set(divisions)]);

const userFields = {
  email: userEmail,
  firstName: userName('First name'),
  lastName: userName('Last name'),
  role: userRole,
  status: userStatus,
  divisions: userDivisions,
};

/** POST /api/users: the 'Invite User' dialog. The user is `pending` until the invitation is accepted. */
export const ZCreateUser = z.object({
  email: userEmail,
  firstName: userFields.firstName,
  lastName: userFields.lastName,
  role: userRole,
  divisions: userDivisions.default([]),
});
export type TCreateUser = z.input<typeof ZCreateUser>;

/** 201 of POST /api/users: the user, and the link that lets them choose a password (also e-mailed when mail is set up). */
export const ZUserCreated = z.object({ user: ZUser, invitation: ZInvitationLink, emailed: z.boolean() });
export type TUserCreated = z.infer<typeof ZUserCreated>;

/** POST /api/users/{id}/invitation: a new link (the invitation again for a pending user, a password reset for an active one); earlier links stop working. */
export const ZUserInvitation = z.object({ invitation: ZInvitationLink, emailed: z.boolean() });
export type TUserInvitation = z.infer<typeof ZUserInvitation>;

/** PATCH /api/users/{id}: any of the fields, at least one; unknown fields are refused. */
export const ZUpdateUser = z
  .strictObject(z.object(userFields).partial().shape, {
    error: (issue) =>
      issue.code === 'unrecognized_keys' ? `Unknown field ${issue.keys.join(', ')}: change email, firstName, lastName, role, status or divisions` : undefined,
  })
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), {
    error: 'Change at least one of e-mail, first name, last name, role, status or divisions.',
  });
export type TUpdateUser = z.infer<typeof ZUpdateUser>;

/** The filter values of the list: a role or status, or `all`. */
export const USER_ROLE_FILTERS = ['all', ...USER_ROLES] as const;
export type TUserRoleFilter = (typeof USER_ROLE_FILTERS)[number];
export const USER_STATUS_FILTERS = ['all', ...USER_STATUSES] as const;
export type TUserStatusFilter = (typeof USER_STATUS_FILTERS)[number];
export const MAX_USER_SEARCH_LENGTH = 100;

/**
 * GET /api/users: by last name, then first name. `search` is a part of the first name, the last name,
 * 'First Last' or the e-mail, ignoring case and accents; `%` and `_` are plain characters.
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

/**
 * GET /api/users/activity: the audit by person, newest first. `userId` one person ('shared' the shared
 * password); absent, everyone. Pages by `before` (an audit record id).
 */
export const ZUserActivityQuery = z.object({
  userId: z.union([z.uuid('must be a user id'), z.literal('shared')]).optional(),
  before: z.coerce.number({ error: 'must be a record number' }).int().positive().optional(),
  limit: z.coerce.number({ error: 'must be a number' }).int().min(1).max(200).default(50),
});
export type TUserActivityQuery = z.input<typeof ZUserActivityQuery>;

export const ZActivityEntry = z.object({
  id: z.number(),
  at: z.string(),
  /** The person's name, 'Shared password', or 'System' (intake, scanning, schedules). */
  actorName: z.string(),
  actorUserId: z.string().nullable(),
  action: z.string(),
  /** The action in words, e.g. 'Approved a document'. */
  summary: z.string(),
  subjectType: z.string(),
  subjectId: z.string().nullable(),
});
export type TActivityEntry = z.infer<typeof ZActivityEntry>;
export const ZUserActivity = z.object({ entries: z.array(ZActivityEntry), nextBefore: z.number().nullable() });
export type TUserActivity = z.infer<typeof ZUserActivity>;
