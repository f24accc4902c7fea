import { z } from 'zod';
import { ZDivision, ZUserRole, type TDivision, type TUserRole } from './domain';

/**
 * What a signed-in person may do. Every private route declares exactly one of these beside its schema
 * (`config: { access: '<permission>' }`); the server checks it on every request, and the web app hides
 * what the role cannot use. See docs/decisions/021-personal-accounts-roles-and-division-scope.md.
 */
export const PERMISSIONS = [
  /** Any signed-in person, whatever the role: their own account, sign-out, two-step sign-in. */
  'account',
  /** Every screen and report, read only. */
  'read',
  /** Open or download a document's file. */
  'files.open',
  /** Approve, reject, retry a scan. */
  'documents.review',
  /** Upload a document by hand, add a player. */
  'players.add',
  /** Send notifications to families. */
  'notifications.send',
  /** Run a mailbox check now, retry a mailbox submission. */
  'mailbox.check',
  /** Users, invitations, sessions of others. */
  'users.manage',
  /** System settings, sign-in mode, scanning, storage, seasons. */
  'settings.manage',
  /** Notification templates, mail server and chat webhooks. */
  'notifications.configure',
  /** Start or stop the mailbox's automatic checks. */
  'mailbox.configure',
  /** Export everything held about one player for their family, or erase the player and all of it. */
  'players.privacy',
] as const;
export const ZPermission = z.enum(PERMISSIONS);
export type TPermission = z.infer<typeof ZPermission>;

const VIEWER: readonly TPermission[] = ['account', 'read'];
const MODERATOR: readonly TPermission[] = [...VIEWER, 'files.open', 'documents.review', 'players.add', 'notifications.send', 'mailbox.check'];

/** The one table of who may do what. */
export const ROLE_PERMISSIONS: Readonly<Record<TUserRole, readonly TPermission[]>> = {
  viewer: VIEWER,
  moderator: MODERATOR,
  admin: PERMISSIONS,
};

export const roleCan = (role: TUserRole, permission: TPermission): boolean => ROLE_PERMISSIONS[role].includes(permission);

/** How staff sign in, chosen by an admin in Settings → Security. */
export const SIGN_IN_MODES = ['shared', 'personal', 'both'] as const;
export const ZSignInMode = z.enum(SIGN_IN_MODES);
export type TSignInMode = z.infer<typeof ZSignInMode>;
export const SIGN_IN_MODE_LABELS: Record<TSignInMode, string> = {
  shared: 'Shared password only',
  personal: 'Personal accounts only',
  both: 'Personal accounts and the shared password',
};

/** The name the audit gives a shared-password session (it acts as an admin). */
export const SHARED_PASSWORD_NAME = 'Shared password';

/**
 * Who a session belongs to: one person, or whoever knows the shared password (an admin of every division).
 * `divisions` null means every division; a list limits every list, count, report, file and live event to them.
 */
export const ZPrincipal = z.object({
  kind: z.enum(['user', 'shared']),
  /** The user's id; null for the shared password. */
  userId: z.string().nullable(),
  name: z.string(),
  email: z.string().nullable(),
  role: ZUserRole,
  divisions: z.array(ZDivision).nullable(),
  /** Whether the person signs in with a second step (an authenticator app's code); false for the shared password. */
  twoFactorEnabled: z.boolean(),
  /** An admin must set up two-step sign-in before anything but their own account is open to them. */
  twoFactorSetupRequired: z.boolean(),
});
export type TPrincipal = z.infer<typeof ZPrincipal>;

export const principalCan = (principal: Pick<TPrincipal, 'role'>, permission: TPermission): boolean => roleCan(principal.role, permission);

/** Whether a record of `division` is within the principal's scope (a record with no division: only for the unscoped). */
export const inDivisionScope = (principal: Pick<TPrincipal, 'divisions'>, division: TDivision | null | undefined): boolean =>
  principal.divisions === null || (division != null && principal.divisions.includes(division));

export const FORBIDDEN_MESSAGE = 'Your role does not allow this. Ask a league admin if you need it.';
export const TWO_FACTOR_SETUP_REQUIRED_MESSAGE = 'Set up two-step sign-in on your account before you continue.';
