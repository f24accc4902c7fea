import { z } from 'zod';
import { ZDivision } from './domain';

/**
 * Mailbox intake: the mailbox's status, its stats, its recent submissions and the /api/gmail calls.
 * The screens call it the Mailbox (the paths keep /api/gmail); Clearbase reads any IMAP mailbox.
 */

export const MAILBOX_DEFAULT_INTERVAL_MS = 300_000;
export const MAILBOX_RECENT_LIMIT = 20;

export const ZMailboxStatus = z.object({
  /** The last connection to the mailbox succeeded. */
  connection: z.boolean(),
  /** Set when the mailbox is configured and the last connection failed: what a staff member can act on. */
  error: z.string().nullable(),
  /** False when no mailbox is set up ('The mailbox is not set up yet'). */
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

/** How the mailbox connection is protected: TLS from the first byte (993), STARTTLS on a plain port (143), or none. */
export const MAILBOX_SECURITY = ['tls', 'starttls', 'none'] as const;
export const ZMailboxSecurity = z.enum(MAILBOX_SECURITY, { error: 'must be tls, starttls or none' });
export type TMailboxSecurity = z.infer<typeof ZMailboxSecurity>;
export const MAILBOX_SECURITY_LABELS: Record<TMailboxSecurity, string> = { tls: 'SSL/TLS', starttls: 'STARTTLS', none: 'None' };
/** The usual port of each kind of connection. */
export const MAILBOX_SECURITY_PORTS: Record<TMailboxSecurity, number> = { tls: 993, starttls: 143, none: 143 };

/** The fields of the mailbox settings, each with the variable that sets it on the server. */
export const MAILBOX_SETTING_VARIABLES = {
  host: 'IMAP_HOST',
  port: 'IMAP_PORT',
  security: 'IMAP_TLS',
  user: 'IMAP_USER',
  password: 'IMAP_PASSWORD',
  folder: 'IMAP_MAILBOX',
} as const;
export type TMailboxSettingField = keyof typeof MAILBOX_SETTING_VARIABLES;

const mailboxHost = z
  .string()
  .trim()
  .min(1, 'Enter the mail server')
  .max(253, 'The mail server name is too long')
  .regex(/^[a-z0-9.-]+$/i, 'Enter a server name such as imap.gmail.com');
const mailboxText = (what: string, max: number) => z.string().trim().min(1, `Enter the ${what}`).max(max, `The ${what} must be at most ${max} characters`);

/**
 * PUT /api/integrations/mailbox: the mailbox Clearbase reads. A password left out keeps the one saved; it is
 * kept sealed and never sent back.
 */
export const ZMailboxSettingsInput = z
  .object({
    host: mailboxHost,
    port: z.number().int('The port is a whole number').min(1, 'The port is between 1 and 65535').max(65_535, 'The port is between 1 and 65535'),
    security: ZMailboxSecurity,
    user: mailboxText('user name', 320),
    password: z.string().min(1, 'Enter the password').max(500, 'The password must be at most 500 characters').optional(),
    folder: mailboxText('folder', 200),
  })
  .strict();
export type TMailboxSettingsInput = z.infer<typeof ZMailboxSettingsInput>;

/** POST /api/integrations/mailbox/test: the values on the screen (saved or not); any left out are the saved ones. */
export const ZMailboxTestInput = ZMailboxSettingsInput.partial().strict();
export type TMailboxTestInput = z.infer<typeof ZMailboxTestInput>;

/**
 * GET /api/integrations/mailbox: the mailbox in force, never its password. `environment`: IMAP_HOST is set on
 * the server, and the whole mailbox comes from the IMAP_* variables (`variables` names each field's);
 * `settings`: saved on the Integrations screen; `none`: not set up.
 */
export const ZMailboxSettings = z.object({
  source: z.enum(['environment', 'settings', 'none']),
  host: z.string().nullable(),
  port: z.number().int().nullable(),
  security: ZMailboxSecurity.nullable(),
  user: z.string().nullable(),
  passwordSet: z.boolean(),
  folder: z.string().nullable(),
  /** When `source` is `environment`: the variable of each field. */
  variables: z.partialRecord(z.enum(Object.keys(MAILBOX_SETTING_VARIABLES) as [TMailboxSettingField, ...TMailboxSettingField[]]), z.string()).nullable(),
});
export type TMailboxSettings = z.infer<typeof ZMailboxSettings>;

/** What Test connection found. `messages`: how many e-mails the folder holds, when connected. */
export const MAILBOX_TEST_OUTCOMES = ['connected', 'wrong_password', 'unreachable', 'folder_not_found', 'failed'] as const;
export const ZMailboxTestResult = z.object({
  outcome: z.enum(MAILBOX_TEST_OUTCOMES),
  message: z.string(),
  messages: z.number().int().nonnegative().nullable(),
});
export type TMailboxTestResult = z.infer<typeof ZMailboxTestResult>;
