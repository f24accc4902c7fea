import type { TUser, TUserStatus } from '../../../contract';
import { ROLE_LABELS } from '@/lib/access-text';
import { formatDateTime, initials } from '@/lib/format';

export const USER_ROLE_LABELS = ROLE_LABELS;
export const USER_STATUS_LABELS: Record<TUserStatus, string> = { active: 'Active', inactive: 'Inactive', pending: 'Pending' };

type Named = Pick<TUser, 'firstName' | 'lastName' | 'email'>;

/** 'First Last', as the delete confirmation names the user; the e-mail when both names are blank. */
export function userFullName(user: Named): string {
  const name = `${user.firstName.trim()} ${user.lastName.trim()}`.trim();
  return name || user.email;
}

/** Two letters for the avatar: first and last name's initials, else the e-mail's first letter. */
export function userInitials(user: Named): string {
  const fromName = initials(user.firstName, user.lastName);
  if (fromName !== '?') return fromName;
  return ([...user.email.trim()][0] ?? '?').toUpperCase();
}

/** The last sign-in as date and time in the reader's locale, or 'Never'. */
export function lastLoginText(lastLogin: string | null, format: (iso: string) => string = formatDateTime): string {
  return lastLogin === null ? 'Never' : format(lastLogin);
}

const createdDate = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/** The day an account was created, in the reader's locale and time zone. */
export function createdText(createdAt: string, format: (date: Date) => string = (date) => createdDate.format(date)): string {
  const date = new Date(createdAt);
  return Number.isNaN(date.getTime()) ? createdAt : format(date);
}

/** The last audited action as date and time, or 'None yet'. */
export function lastActionText(lastActionAt: string | null, format: (iso: string) => string = formatDateTime): string {
  return lastActionAt === null ? 'None yet' : format(lastActionAt);
}

/** What the link panel says about the e-mail: sent to the address, or to be passed on by hand. */
export function invitationMailText(emailed: boolean, email: string): string {
  return emailed ? `We e-mailed it to ${email}.` : 'Mail is not set up: send this link yourself.';
}
