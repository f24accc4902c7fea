import { ZApiError } from '../../../contract';

/** Why a link cannot be used: unknown (404) or expired / no longer active (410). */
export type DeadLinkReason = 'not_valid' | 'expired';

/**
 * What a failed call to the family API means to the family:
 * - `dead-link`: the link is unknown or has stopped working; the page shows only that.
 * - `interrupted`: the network dropped or the server could not be reached; the files stay, Retry sends them again.
 * - `rate-limited`: too many uploads this hour; says when to try again.
 * - `refused`: the server refused the file; its sentence says why.
 * - `failed`: anything else; Retry may help.
 */
export type FamilyFailure =
  | { kind: 'dead-link'; reason: DeadLinkReason; message: string | null }
  | { kind: 'interrupted'; message: string }
  | { kind: 'rate-limited'; message: string }
  | { kind: 'refused'; message: string }
  | { kind: 'failed'; message: string };

export const INTERRUPTED_UPLOAD_MESSAGE = 'The upload was interrupted. Your photos are still here.';
export const UNREACHABLE_PAGE_MESSAGE = 'We could not reach the league’s site. Check your connection and try again.';
export const FAILED_MESSAGE = 'Something went wrong on our side. Please try again in a moment.';
export const REFUSED_FALLBACK_MESSAGE = 'This file could not be accepted. Take a clear photo of the document, or choose a PDF.';

/**
 * The dead-link page's words. A link that worked and stopped (410) has expired or was withdrawn: the server's
 * sentence says which, under a title true of both.
 */
export const DEAD_LINK_WORDS: Record<DeadLinkReason, { title: string; body: string }> = {
  not_valid: { title: 'This link is not valid', body: 'Ask the league for a new link.' },
  expired: { title: 'This link has expired or no longer works', body: 'Ask the league for a new link.' },
};

/** The line under the dead-link page's title: the server's sentence for a 410, else the page's own words. */
export function deadLinkBody(reason: DeadLinkReason, message: string | null): string {
  return reason === 'expired' && message ? message : DEAD_LINK_WORDS[reason].body;
}

/** A failure that is a dead link, from the answer's status (404 or 410) and body; null for any other status. */
function deadLink(status: number, bodyText: string): FamilyFailure | null {
  if (status === 404) return { kind: 'dead-link', reason: 'not_valid', message: null };
  if (status === 410) return { kind: 'dead-link', reason: 'expired', message: serverMessage(bodyText) };
  return null;
}

/** What happens next, from the server's answer to an upload, without a "Received." the page already says. */
export function nextSteps(message: string): string {
  return message.replace(/^\s*received[.!]?\s*/i, '').trim() || 'A volunteer will check it.';
}

/** The server's own sentence from the app's error body, when it sent one. */
export function serverMessage(bodyText: string): string | null {
  if (bodyText === '') return null;
  try {
    const parsed = ZApiError.safeParse(JSON.parse(bodyText));
    return parsed.success && parsed.data.message.trim() !== '' ? parsed.data.message.trim() : null;
  } catch {
    return null;
  }
}

/**
 * Seconds until another try, from a Retry-After header: a number of seconds, or an HTTP date. Null when the
 * header is absent or unreadable.
 */
export function retryAfterSeconds(header: string | null, now: Date): number | null {
  const value = header?.trim() ?? '';
  if (value === '') return null;
  if (/^\d+$/.test(value)) return Number(value);
  const at = Date.parse(value);
  if (Number.isNaN(at)) return null;
  return Math.max(0, Math.ceil((at - now.getTime()) / 1000));
}

/** "in about 12 minutes", "in about an hour", "in a minute": when to try again, in round words. */
export function waitInWords(seconds: number | null): string {
  if (seconds === null) return 'later';
  if (seconds <= 60) return 'in a minute';
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 55) return `in about ${minutes} minutes`;
  const hours = Math.round(minutes / 60);
  return hours <= 1 ? 'in about an hour' : `in about ${hours} hours`;
}

/** Answers a proxy gives when the server behind it is down or slow: the server was not reached. */
const UNREACHABLE_STATUSES = new Set([502, 503, 504]);

/**
 * What a failed upload means, from the answer's status (0 when no answer came), its body and its Retry-After
 * header.
 */
export function uploadFailure(status: number, bodyText: string, retryAfter: string | null, now: Date): FamilyFailure {
  const dead = deadLink(status, bodyText);
  if (dead) return dead;
  if (status === 0 || UNREACHABLE_STATUSES.has(status)) return { kind: 'interrupted', message: INTERRUPTED_UPLOAD_MESSAGE };
  if (status === 429) {
    return {
      kind: 'rate-limited',
      message: `Many files were sent with this link in the last hour. Please try again ${waitInWords(retryAfterSeconds(retryAfter, now))}. Your photos are still here.`,
    };
  }
  if (status >= 400 && status < 500) return { kind: 'refused', message: serverMessage(bodyText) ?? REFUSED_FALLBACK_MESSAGE };
  return { kind: 'failed', message: FAILED_MESSAGE };
}

/** What a failed read of the page means: a dead link, or a page to try again. */
export function pageFailure(status: number, bodyText = ''): FamilyFailure {
  const dead = deadLink(status, bodyText);
  if (dead) return dead;
  if (status === 0 || UNREACHABLE_STATUSES.has(status)) return { kind: 'interrupted', message: UNREACHABLE_PAGE_MESSAGE };
  return { kind: 'failed', message: FAILED_MESSAGE };
}
