import { z } from 'zod';
import { ZPermission, ZPrincipal, ZSignInMode } from './access';

const password = z.string({ error: 'Password is required' }).min(1, 'Password is required').max(1024, 'Password is too long');

/**
 * POST /api/auth/login: `{ password }` signs in with the shared password, `{ email, password }` as a person.
 * `code` is the 6-digit code of the person's authenticator app, or one of their recovery codes, when they
 * have two-step sign-in (the first attempt without it answers 401 SECOND_FACTOR_REQUIRED).
 */
export const ZLoginRequest = z.object({
  email: z.string().trim().min(1, 'E-mail is required').max(254, 'E-mail is too long').optional(),
  password,
  code: z.string().trim().min(1, 'Enter the code').max(40, 'That code is too long').optional(),
});
export type TLoginRequest = z.infer<typeof ZLoginRequest>;

export const ZSession = z.object({
  authenticated: z.boolean(),
  /** When the session ends if left idle (ISO 8601); absent when not authenticated. */
  expiresAt: z.string().optional(),
  /** How the gate asks to sign in: always present, so the signed-out page knows which fields to show. */
  signInMode: ZSignInMode,
  /** Who is signed in, and what they may do; absent when not authenticated. */
  principal: ZPrincipal.optional(),
  permissions: z.array(ZPermission).optional(),
});
export type TSession = z.infer<typeof ZSession>;

export const INVALID_CREDENTIALS_MESSAGE = 'Invalid e-mail or password. Please try again.';
export const SECOND_FACTOR_REQUIRED_MESSAGE = 'Enter the 6-digit code from your authenticator app, or a recovery code.';
export const INVALID_SECOND_FACTOR_MESSAGE = 'That code is not right. Check your authenticator app and try again.';
export const SHARED_PASSWORD_OFF_MESSAGE = 'This league signs in with personal accounts. Enter your e-mail and password.';
export const PERSONAL_ACCOUNTS_OFF_MESSAGE = 'This league signs in with the shared password only.';

/** Shortest password a person may choose. */
export const MIN_PASSWORD_LENGTH = 12;
/** Days an invitation or password-reset link stays valid. */
export const INVITATION_VALID_DAYS = 7;

export const ZNewPassword = z
  .string({ error: 'Password is required' })
  .min(MIN_PASSWORD_LENGTH, `Use at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(1024, 'Password is too long');

/** The token of an invitation or reset link (it travels in the link's #fragment, never in a logged URL). */
const invitationToken = z.string({ error: 'The link is incomplete' }).min(20, 'The link is incomplete').max(200, 'The link is not valid');

/** POST /api/auth/invitation/status: what the link's page shows before a password is chosen. */
export const ZInvitationLookup = z.object({ token: invitationToken });
export const ZInvitationStatus = z.object({
  email: z.string(),
  firstName: z.string(),
  /** 'invitation': a new account; 'reset': a new password for an existing one. */
  purpose: z.enum(['invitation', 'reset']),
  expiresAt: z.string(),
});
export type TInvitationStatus = z.infer<typeof ZInvitationStatus>;

/** POST /api/auth/invitation: sets the password and makes the account active; the link is used up. */
export const ZAcceptInvitation = z.object({ token: invitationToken, password: ZNewPassword });
export type TAcceptInvitation = z.infer<typeof ZAcceptInvitation>;
export const ZAcceptedInvitation = z.object({ email: z.string() });

export const INVITATION_INVALID_MESSAGE = 'This link has expired or has already been used. Ask a league admin for a new one.';
export const COMMON_PASSWORD_MESSAGE = 'That password is one of the most common ones. Choose one that is harder to guess.';

/** A link to set a password: made by an invitation, a re-sent invitation or a password reset. */
export const ZInvitationLink = z.object({ url: z.string(), expiresAt: z.string() });
export type TInvitationLink = z.infer<typeof ZInvitationLink>;

/** POST /api/auth/two-factor/setup: a new secret to enrol (not active until confirmed with a code). */
export const ZTwoFactorSetup = z.object({ secret: z.string(), otpauthUrl: z.string(), qrCodeDataUrl: z.string() });
export type TTwoFactorSetup = z.infer<typeof ZTwoFactorSetup>;
/** POST /api/auth/two-factor/enable: the first code from the app proves the enrolment. */
export const ZTwoFactorConfirm = z.object({ code: z.string().trim().regex(/^\d{6}$/, 'Enter the 6-digit code') });
/** Shown once, right after enrolment; each works once in place of a code. */
export const ZRecoveryCodes = z.object({ recoveryCodes: z.array(z.string()) });
export type TRecoveryCodes = z.infer<typeof ZRecoveryCodes>;
/** DELETE /api/auth/two-factor: turning it off asks for the password again. */
export const ZTwoFactorDisable = z.object({ password });

/** A signed-in session as its owner or an admin sees it (GET /api/auth/sessions, GET /api/users/{id}/sessions). */
export const ZSessionSummary = z.object({
  id: z.string(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  userAgent: z.string().nullable(),
  current: z.boolean(),
});
export const ZSessionList = z.object({ sessions: z.array(ZSessionSummary) });
export type TSessionList = z.infer<typeof ZSessionList>;
export const ZSessionsEnded = z.object({ ended: z.number() });
