import { FAMILY_PAGE_PATH, type TUploadLinkSendResult, type TUploadLinkStatus } from '../../../contract';

/** A day as the upload link lines say it, e.g. '3 Dec' (in the reader's locale). */
export type DayFormatter = (iso: string) => string;

const shortDay = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short' });
const longDay = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

const formatWith = (format: Intl.DateTimeFormat) => (iso: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : format.format(date);
};

export const formatShortDay: DayFormatter = formatWith(shortDay);
export const formatLongDay: DayFormatter = formatWith(longDay);

/**
 * The status line of a player's upload links: '2 working links · last opened 3 Dec', '1 working link · not
 * opened yet', 'No working link · last opened 3 Dec', 'No upload link yet'.
 */
export function uploadLinkStatusLine(status: TUploadLinkStatus, day: DayFormatter = formatShortDay): string {
  if (status.active === 0 && status.lastIssuedAt === null) return 'No upload link yet';
  const links = status.active === 0 ? 'No working link' : `${status.active} working ${status.active === 1 ? 'link' : 'links'}`;
  const opened = status.lastUsedAt ? `last opened ${day(status.lastUsedAt)}` : status.active > 0 ? 'not opened yet' : null;
  return opened ? `${links} · ${opened}` : links;
}

/** Under an issued link: 'Works until Dec 26, 2026'. */
export const worksUntil = (expiresAt: string, day: DayFormatter = formatLongDay): string => `Works until ${day(expiresAt)}`;

/** What Send link says once the server answered: whom it went to, or why it did not go. */
export function sendResultSentence(result: TUploadLinkSendResult): { ok: boolean; text: string } {
  if (result.status === 'sent') return { ok: true, text: `Sent to ${result.to}` };
  return { ok: false, text: result.error ?? `The e-mail to ${result.to} could not be sent. Please try again.` };
}

/** Why Send link cannot be used for a player, or null when it can. */
export const sendLinkUnavailable = (guardianEmail: string | null): string | null =>
  guardianEmail ? null : 'No guardian e-mail on file: copy the link and send it another way.';

/** Whether a URL is a family page link with its token in the #fragment (what an issued link looks like). */
export const isFamilyLink = (url: string): boolean => {
  try {
    const parsed = new URL(url);
    return parsed.pathname === FAMILY_PAGE_PATH && /^#token=[A-Za-z0-9_-]{43}$/.test(parsed.hash);
  } catch {
    return false;
  }
};
