import { MIN_PASSWORD_LENGTH, ZNewPassword } from '../../../contract';

/** The address of the page an invitation or password-reset link opens (`<origin>/invitation#token=…`). */
export const INVITATION_PATH = '/invitation';

/**
 * The token of an invitation link, from the address's #fragment (`#token=…`): the fragment never leaves the
 * browser, so the token is in no server log. Null when the fragment holds none.
 */
export function invitationTokenFromHash(hash: string): string | null {
  const fragment = hash.startsWith('#') ? hash.slice(1) : hash;
  const token = new URLSearchParams(fragment).get('token')?.trim() ?? '';
  return token === '' ? null : token;
}

/** The rules the page lists under the new password; the server checks the same (and a list of common passwords). */
export const PASSWORD_RULES = [`At least ${MIN_PASSWORD_LENGTH} characters`, 'Not one of the most common passwords'] as const;

export const PASSWORDS_DIFFER_MESSAGE = 'The two passwords are not the same.';
export const CONFIRM_PASSWORD_MESSAGE = 'Type the password again to confirm it.';

export type NewPasswordErrors = { password?: string; confirm?: string };

/** Checks the new password (length with the contract's rule) and its confirmation; empty when both are fine. */
export function checkNewPassword(password: string, confirm: string): NewPasswordErrors {
  const errors: NewPasswordErrors = {};
  const parsed = ZNewPassword.safeParse(password);
  if (!parsed.success) errors.password = password === '' ? 'Choose a password.' : `${parsed.error.issues[0]?.message ?? 'Choose another password'}.`;
  if (confirm === '') errors.confirm = CONFIRM_PASSWORD_MESSAGE;
  else if (confirm !== password) errors.confirm = PASSWORDS_DIFFER_MESSAGE;
  return errors;
}

const SIGN_IN_EMAIL_KEY = 'clearbase-sign-in-email';

/**
 * The e-mail the invitation page hands to the sign-in form after a password is set: kept in this tab's
 * sessionStorage (never in the address) until the sign-in succeeds.
 */
export function rememberSignInEmail(email: string): void {
  try {
    window.sessionStorage.setItem(SIGN_IN_EMAIL_KEY, email);
  } catch {
    // The form then starts empty; the person types the address.
  }
}

export function readSignInEmail(): string {
  try {
    return window.sessionStorage.getItem(SIGN_IN_EMAIL_KEY) ?? '';
  } catch {
    return '';
  }
}

export function forgetSignInEmail(): void {
  try {
    window.sessionStorage.removeItem(SIGN_IN_EMAIL_KEY);
  } catch {
    // Nothing kept, nothing to drop.
  }
}
