import { z } from 'zod';
import { ZDivision } from './domain';

/**
 * Mailbox intake: the mailbox's status, its stats, its recent submissions and the /api/gmail calls.
 * The screens and paths call the mailbox Gmail; Clearbase reads any IMAP mailbox.
 */

export const MAILBOX_DEFAULT_INTERVAL_MS = 300_000;
export const MAILBOX_RECENT_LIMIT = 20;

export const ZMailboxStatus = z.object({
  /** The last connection to the mailbox succeeded. */
  connection: z.boolean(),
  /** Set when the mailbox is configured and the last connection failed: what a staff member can act on. */
  error: z.string().nullable(),
  /** False when no mailbox is configured ('Gmail integration not available'). */
  configured: z.boolean(),
  scheduler: z.object({ isRunning: z.boolean(), intervalMs: z.number().int().positive() }),
  /** ISO time of the last completed check, null before the first. */
  lastCheckAt: z.string().nullable(),
  /** A check is running now. */
  checking: z.boolean(),
});
export type TMailboxStatus = z.infer<typeof ZMailboxStatus>;

export const MAILBOX_STATS_RANGES = ['today', '7d', '30d'] as const;
export const ZMailboxStatsQuery = z.object({
  range: z.enum(MAILBOX_STATS_RANGES, { error: 'must be today, 7d or 30d' }).default('today'),
});
export const ZMailboxStats = z.object({
  received: z.number().int().nonnegative(),
  processed: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  totalAttachments: z.number().int().nonnegative(),
});
export type TMailboxStats = z.infer<typeof ZMailboxStats>;

export const MAILBOX_SUBMISSION_STATUSES = ['pending', 'processed', 'failed'] as const;
export const ZMailboxSubmissionStatus = z.enum(MAILBOX_SUBMISSION_STATUSES);

export const ZMailboxSubmission = z.object({
  id: z.string(),
  fromEmail: z.string().nullable(),
  subject: z.string().nullable(),
  receivedAt: z.string(),
  attachmentCount: z.number().int().nonnegative(),
  playerName: z.string().nullable(),
  playerDivision: ZDivision.nullable(),
  status: ZMailboxSubmissionStatus,
  errorMessage: z.string().nullable(),
});
export type TMailboxSubmission = z.infer<typeof ZMailboxSubmission>;

export const ZMailboxRecentQuery = z.object({
  status: z.enum(['all', 'processed', 'failed'], { error: 'must be all, processed or failed' }).default('all'),
  limit: z.coerce.number().int('must be a whole number').min(1, 'must be at least 1').max(100, 'must be at most 100').default(MAILBOX_RECENT_LIMIT),
});
export const ZMailboxRecent = z.object({ submissions: z.array(ZMailboxSubmission) });
export type TMailboxRecent = z.infer<typeof ZMailboxRecent>;

/** The answer of start, stop, check and retry (the screens do not read it; they refetch status). */
export const ZMailboxActionResult = z.object({ ok: z.literal(true), message: z.string() });
export type TMailboxActionResult = z.infer<typeof ZMailboxActionResult>;
