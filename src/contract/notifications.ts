import { z } from 'zod';
import { ZNotificationChannel, ZNotificationStatus, type TNotificationChannel } from './domain';
import { ZPlayerListFilter } from './reports';

/**
 * Notifications: the message templates staff edit and the history of what was sent.
 * Templates hold `{{placeholder}}`s filled per message; only the names below are known, anything else is refused
 * when a template or a custom message is saved or sent.
 */
export const NOTIFICATION_PLACEHOLDERS = {
  guardianName: { scope: 'person', help: "The guardian's name (or 'Parent/Guardian' when none is on file)." },
  playerName: { scope: 'person', help: "The player's first and last name." },
  missingDocuments: { scope: 'person', help: 'The missing document types in words, e.g. Medical Form and Liability Waiver.' },
  documentType: { scope: 'person', help: 'The rejected document type (Document Rejected only).' },
  rejectionReason: { scope: 'person', help: 'Why the document was rejected (Document Rejected only).' },
  refusedFiles: { scope: 'person', help: 'The files that could not be accepted, one a line, each with the reason (File Not Accepted only).' },
  uploadLink: {
    scope: 'person',
    help: "The family's personal upload page, where they send documents from a phone: a new link in every message (empty in a message to no player's family).",
  },
  season: { scope: 'any', help: 'The season name, e.g. Fall Ball 2025.' },
  deadline: { scope: 'any', help: 'The deadline date chosen on the Send form (7 days ahead by default).' },
  received: { scope: 'any', help: 'Documents received in the last 7 days.' },
  approved: { scope: 'any', help: 'Documents approved in the last 7 days.' },
  rejected: { scope: 'any', help: 'Documents rejected in the last 7 days.' },
  pending: { scope: 'any', help: 'Documents received in the last 7 days and still waiting for review.' },
} as const satisfies Record<string, { scope: 'person' | 'any'; help: string }>;
export type TPlaceholder = keyof typeof NOTIFICATION_PLACEHOLDERS;

/**
 * What History and previews show in place of {{uploadLink}}: the link itself is made only when the message is
 * handed to the mail server, and kept nowhere but in the e-mail.
 */
export const UPLOAD_LINK_STAND_IN = '(personal upload link)';
export const PLACEHOLDER_NAMES = Object.keys(NOTIFICATION_PLACEHOLDERS) as TPlaceholder[];

/**
 * Placeholders only an automatic message can fill: a rejection's document and reason, the files intake refused.
 * A template that uses one is sent by Clearbase itself ('Document Rejected', 'File Not Accepted'), not from Send.
 */
export const EVENT_PLACEHOLDERS: readonly TPlaceholder[] = ['documentType', 'rejectionReason', 'refusedFiles'];

export const CHANNEL_LABELS: Record<TNotificationChannel, string> = { email: 'E-mail', slack: 'Slack', teams: 'Microsoft Teams' };

const PLACEHOLDER_PATTERN = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** The placeholder names a text uses, in order of first appearance. */
export function findPlaceholders(text: string): string[] {
  const names = new Set<string>();
  for (const match of text.matchAll(PLACEHOLDER_PATTERN)) names.add(match[1] ?? '');
  return [...names];
}

/** Whether a template can be sent from the Send tab: none of its placeholders needs an automatic message's details. */
export function sendableByHand(template: { subject: string; content: string }): boolean {
  const used = findPlaceholders(`${template.subject}\n${template.content}`);
  return !used.some((name) => (EVENT_PLACEHOLDERS as readonly string[]).includes(name));
}

/**
 * Why a template text cannot be used on a channel, or undefined when it can. Chat messages go to one channel,
 * not to a person, so the person placeholders are refused there.
 */
export function placeholderProblem(text: string, channel: TNotificationChannel): string | undefined {
  const names = findPlaceholders(text);
  const unknown = names.filter((name) => !(name in NOTIFICATION_PLACEHOLDERS));
  if (unknown.length > 0) {
    const list = unknown.map((name) => `{{${name}}}`).join(', ');
    return `Unknown placeholder${unknown.length > 1 ? 's' : ''} ${list}. Use ${PLACEHOLDER_NAMES.map((n) => `{{${n}}}`).join(', ')}.`;
  }
  if (channel !== 'email') {
    const personal = names.filter((name) => NOTIFICATION_PLACEHOLDERS[name as TPlaceholder].scope === 'person');
    if (personal.length > 0) {
      return `${personal.map((name) => `{{${name}}}`).join(', ')} cannot be used in a ${CHANNEL_LABELS[channel]} message: it goes to one channel, not to a family.`;
    }
  }
  return undefined;
}

/** A year or a season id; omitted = the current season. */
const ZSeasonParam = z
  .string()
  .trim()
  .regex(/^(\d{4}|[a-z0-9][a-z0-9-]{0,39})$/, 'must be a year such as 2025 or a season id such as fall-2025')
  .optional();

const templateText = (what: string, max: number) =>
  z.string({ error: `${what} is required` }).trim().max(max, `${what} must be at most ${max} characters`);

export const ZNotificationTemplate = z.object({
  id: z.string(),
  name: z.string(),
  type: ZNotificationChannel,
  subject: z.string(),
  content: z.string(),
  enabled: z.boolean(),
  updatedAt: z.string(),
});
export type TNotificationTemplate = z.infer<typeof ZNotificationTemplate>;

/** GET /api/notifications/templates: by name. */
export const ZNotificationTemplates = z.object({ templates: z.array(ZNotificationTemplate) });
export type TNotificationTemplates = z.infer<typeof ZNotificationTemplates>;

/** PATCH /api/notifications/templates/{id}: any of the fields; the placeholders are checked against the template's type. */
export const ZNotificationTemplatePatch = z
  .object({
    name: templateText('Name', 80).min(1, 'Name is required').optional(),
    subject: templateText('Subject', 200).optional(),
    content: templateText('Message', 10_000).min(1, 'Message is required').optional(),
    enabled: z.boolean({ error: 'Enabled must be true or false' }).optional(),
  })
  .strict()
  .refine((patch) => Object.keys(patch).length > 0, { error: 'Change at least one field.' });
export type TNotificationTemplatePatch = z.infer<typeof ZNotificationTemplatePatch>;

export const ZTemplateParams = z.object({ id: z.uuid('must be a template id') });

// ------------------------------------------------------------------------------------------------------------
// Recipients
// ------------------------------------------------------------------------------------------------------------

export const RECIPIENT_GROUPS = ['all_parents', 'missing_documents', 'administrators', 'custom'] as const;
export const ZRecipientGroup = z.enum(RECIPIENT_GROUPS, { error: 'must be all_parents, missing_documents, administrators or custom' });
export type TRecipientGroup = z.infer<typeof ZRecipientGroup>;
export const RECIPIENT_GROUP_LABELS: Record<TRecipientGroup, string> = {
  all_parents: 'All Parents',
  missing_documents: 'Players with Missing Documents',
  administrators: 'Administrators',
  custom: 'Custom List',
};

/**
 * Who a send goes to: one of the groups the Send form offers, or 'players_list', the guardians of the players a
 * Players list shows (its filters in `playersList`: season, division, status, missing type, search; every
 * page of it, within the sender's divisions).
 */
export const RECIPIENT_KINDS = [...RECIPIENT_GROUPS, 'players_list'] as const;
export const ZRecipientKind = z.enum(RECIPIENT_KINDS, { error: 'must be all_parents, missing_documents, administrators, custom or players_list' });
export type TRecipientKind = z.infer<typeof ZRecipientKind>;
export const RECIPIENT_KIND_LABELS: Record<TRecipientKind, string> = { ...RECIPIENT_GROUP_LABELS, players_list: 'The Players list' };

/** At most this many addresses in one custom list. */
export const MAX_CUSTOM_RECIPIENTS = 500;

const ZEmailAddress = z.email();

/** A custom list split on commas, semicolons and new lines; duplicates (ignoring case) kept once; invalid ones listed. */
export function parseRecipientList(text: string): { addresses: string[]; invalid: string[] } {
  const seen = new Set<string>();
  const addresses: string[] = [];
  const invalid: string[] = [];
  for (const raw of text.split(/[,;\n\r]+/)) {
    const entry = raw.trim();
    if (!entry) continue;
    const key = entry.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    if (ZEmailAddress.safeParse(entry).success) addresses.push(entry);
    else invalid.push(entry);
  }
  return { addresses, invalid };
}

// ------------------------------------------------------------------------------------------------------------
// Send
// ------------------------------------------------------------------------------------------------------------

/**
 * POST /api/notifications/send and POST /api/notifications/preview (same body: the preview answers the
 * recipient count without sending). `templateId: null` is a Custom Message, with its own channel, subject and
 * message. E-mail goes to one message per recipient; Slack and Teams post one message to their channel.
 */
export const ZNotificationSend = z
  .object({
    templateId: z.uuid('must be a template id').nullable(),
    channel: ZNotificationChannel.default('email'),
    subject: templateText('Subject', 200).default(''),
    message: templateText('Message', 10_000).default(''),
    recipients: ZRecipientKind.default('all_parents'),
    /** The Players list's filters, with `recipients: 'players_list'`; its season, when given, is the send's. */
    playersList: ZPlayerListFilter.optional(),
    /** The Custom List: addresses separated by commas or new lines. */
    customRecipients: z.string().max(50_000, 'The custom list is too long').default(''),
    season: ZSeasonParam,
    /** {{deadline}}; omitted = 7 days from today. */
    deadline: z.iso.date('Deadline must be a date (YYYY-MM-DD)').optional(),
    /** Send at this time instead of now (the job queue runs it). */
    scheduledAt: z.iso.datetime({ offset: true, error: 'Scheduled time must be a date and time' }).optional(),
  })
  .superRefine((send, ctx) => {
    if (send.templateId === null) {
      if (send.message === '') ctx.addIssue({ code: 'custom', path: ['message'], message: 'Message is required for a custom message' });
      if (send.channel === 'email' && send.subject === '') {
        ctx.addIssue({ code: 'custom', path: ['subject'], message: 'Subject is required for a custom e-mail' });
      }
      for (const field of ['subject', 'message'] as const) {
        const problem = placeholderProblem(send[field], send.channel);
        if (problem) ctx.addIssue({ code: 'custom', path: [field], message: problem });
      }
    }
    if (send.recipients === 'players_list' && send.playersList === undefined) {
      ctx.addIssue({ code: 'custom', path: ['playersList'], message: "The Players list's filters are required to send to it" });
    }
    if (send.recipients === 'custom') {
      const { addresses, invalid } = parseRecipientList(send.customRecipients);
      if (invalid.length > 0) {
        const shown = invalid.slice(0, 5).map((entry) => `'${entry}'`).join(', ');
        const more = invalid.length > 5 ? ` and ${invalid.length - 5} more` : '';
        ctx.addIssue({
          code: 'custom',
          path: ['customRecipients'],
          message: `${invalid.length === 1 ? 'This is not an e-mail address' : 'These are not e-mail addresses'}: ${shown}${more}`,
        });
      } else if (addresses.length === 0) {
        ctx.addIssue({ code: 'custom', path: ['customRecipients'], message: 'Enter at least one e-mail address' });
      } else if (addresses.length > MAX_CUSTOM_RECIPIENTS) {
        ctx.addIssue({ code: 'custom', path: ['customRecipients'], message: `At most ${MAX_CUSTOM_RECIPIENTS} addresses at a time` });
      }
    }
  });
export type TNotificationSend = z.input<typeof ZNotificationSend>;
export type TNotificationSendParsed = z.output<typeof ZNotificationSend>;

/**
 * Why a message cannot be delivered now, and where that is fixed: no mail server (or chat webhook) is set up on
 * the Notifications screen's Settings tab, the channel is switched off in Settings → Notifications; for a
 * rejection notice also the template turned off in Templates, or no guardian e-mail on file.
 */
export const DELIVERY_PROBLEMS = ['no_mail_server', 'no_webhook', 'switched_off', 'template_off', 'no_guardian_email'] as const;
export const ZDeliveryProblem = z.object({
  reason: z.enum(DELIVERY_PROBLEMS),
  /** The sentence to show, naming the place where it is fixed. */
  message: z.string(),
});
export type TDeliveryProblem = z.infer<typeof ZDeliveryProblem>;

/** One message as one recipient gets it, placeholders filled in. */
export const ZMessagePreview = z.object({
  /** Whom it is shown for, to read after 'Preview for': 'the family of Ada Martínez', 'Morgan Reyes', 'the Slack channel'. */
  audience: z.string(),
  /** The address (or the chat channel's label) it goes to. */
  to: z.string(),
  subject: z.string(),
  body: z.string(),
  /** Null when it would be delivered now. */
  deliveryProblem: ZDeliveryProblem.nullable(),
});
export type TMessagePreview = z.infer<typeof ZMessagePreview>;

/** How many messages a send makes, before it is sent, and the first one as its recipient gets it. */
export const ZRecipientPreview = z.object({
  channel: ZNotificationChannel,
  count: z.number(),
  /** The first few recipients, to check the choice. */
  sample: z.array(z.string()),
  /** Players of the group left out because no guardian e-mail is on file. */
  withoutEmail: z.number(),
  season: z.object({ id: z.string(), name: z.string() }).nullable(),
  /** The first recipient's message; null when nobody would get one. */
  message: ZMessagePreview.nullable(),
  /** Why none of these messages can be delivered now (no mail server, channel switched off); null when they can. */
  deliveryProblem: ZDeliveryProblem.nullable(),
});
export type TRecipientPreview = z.infer<typeof ZRecipientPreview>;

/**
 * POST /api/notifications/preview/rejection: the 'Document Rejected' message the guardian would get if the
 * document were rejected with this reason (the reject dialog shows it before the rejection is made).
 */
export const ZRejectionPreviewRequest = z.object({
  documentId: z.uuid('must be a document id'),
  reason: z.string().trim().max(2000, 'Reason must be at most 2000 characters'),
});
export type TRejectionPreviewRequest = z.infer<typeof ZRejectionPreviewRequest>;

/** The answer of a send: messages sent now, failed now, and waiting for their scheduled time. */
export const ZNotificationSendResult = z.object({ sent: z.number(), failed: z.number(), pending: z.number() });
export type TNotificationSendResult = z.infer<typeof ZNotificationSendResult>;

// ------------------------------------------------------------------------------------------------------------
// History
// ------------------------------------------------------------------------------------------------------------

export const ZNotificationHistoryItem = z.object({
  id: z.string(),
  type: ZNotificationChannel,
  recipient: z.string(),
  subject: z.string(),
  status: ZNotificationStatus,
  /** When it was sent; for a pending message, when it is due; null for a failed one. */
  sentAt: z.string().nullable(),
  errorMessage: z.string().nullable(),
  createdAt: z.string(),
  /** The message's text as sent (placeholders filled in); null for a message recorded before texts were kept. */
  body: z.string().nullable(),
});
export type TNotificationHistoryItem = z.infer<typeof ZNotificationHistoryItem>;

export const NOTIFICATION_HISTORY_PAGE_SIZE = 20;
export const ZNotificationHistoryQuery = z.object({
  page: z.coerce.number().int('must be a whole number').min(1, 'must be at least 1').default(1),
  pageSize: z.coerce.number().int('must be a whole number').min(1, 'must be at least 1').max(100, 'must be at most 100').default(NOTIFICATION_HISTORY_PAGE_SIZE),
});
export type TNotificationHistoryQuery = z.input<typeof ZNotificationHistoryQuery>;
/**
 * One page of History and how many messages it holds in all: exact while at most about a thousand (or the page
 * reaches the end); past that the database's estimate, which `totalIsEstimate` says, shown as 'about 24,000
 * messages'. Paging on past an estimate is safe: a page past the real end answers no messages.
 */
export const ZNotificationHistory = z.object({
  items: z.array(ZNotificationHistoryItem),
  total: z.number(),
  /** `total` is the database's estimate of how many messages there are, not a count. */
  totalIsEstimate: z.boolean(),
  page: z.number(),
  pageSize: z.number(),
});
export type TNotificationHistory = z.infer<typeof ZNotificationHistory>;

// ------------------------------------------------------------------------------------------------------------
// Quick actions
// ------------------------------------------------------------------------------------------------------------

/** GET /api/notifications/quick-actions?season: the live counts the quick action buttons show. */
export const ZQuickActionsQuery = z.object({ season: ZSeasonParam });
export const ZQuickActions = z.object({
  season: z.object({ id: z.string(), name: z.string() }).nullable(),
  /** Players of the season not yet Complete (fewer than four verified documents), as the Players screen counts them. */
  incompletePlayers: z.number(),
  /**
   * Of those, the players missing a document (none sent, or rejected), whom 'Notify incomplete players' reminds,
   * and how many of them have a guardian e-mail: the messages it makes. The others have sent everything and
   * wait for review.
   */
  missingDocuments: z.object({ players: z.number(), withEmail: z.number() }),
  administrators: z.number(),
  /** Documents of the last 7 days, for the weekly processing summary. */
  lastWeek: z.object({ received: z.number(), approved: z.number(), rejected: z.number(), pending: z.number() }),
});
export type TQuickActions = z.infer<typeof ZQuickActions>;

// ------------------------------------------------------------------------------------------------------------
// Settings (the Notifications screen's Settings tab)
// ------------------------------------------------------------------------------------------------------------

const ZHost = z
  .string()
  .trim()
  .max(253, 'Host must be at most 253 characters')
  .regex(/^[a-zA-Z0-9.-]*$/, 'Host must be a host name such as smtp.example.org');

const ZFromAddress = z
  .string()
  .trim()
  .max(320, 'From address must be at most 320 characters')
  .refine((value) => value === '' || z.email().safeParse(value.match(/<([^<>]+)>\s*$/)?.[1] ?? value).success, {
    message: "From address must be an e-mail address, or a name with one: 'League <registrations@example.org>'",
  });

/** PUT /api/notifications/settings. A secret left out keeps the stored one; `null` removes it. */
export const ZNotificationSettingsUpdate = z
  .object({
    email: z.object({
      host: ZHost,
      port: z.number({ error: 'Port must be a number' }).int('Port must be a whole number').min(1, 'Port must be 1 to 65535').max(65_535, 'Port must be 1 to 65535'),
      /** TLS from the first byte (465); false = plain, upgraded with STARTTLS when offered (587, 25). */
      secure: z.boolean(),
      username: z.string().trim().max(320, 'Username must be at most 320 characters'),
      password: z.string().max(1024, 'Password must be at most 1024 characters').nullable().optional(),
      from: ZFromAddress,
    }),
    slackWebhookUrl: z.url({ protocol: /^https?$/, error: 'Slack webhook must be an https:// address' }).max(2048).nullable().optional(),
    teamsWebhookUrl: z.url({ protocol: /^https?$/, error: 'Teams webhook must be an https:// address' }).max(2048).nullable().optional(),
  })
  .strict()
  .superRefine((update, ctx) => {
    if (update.email.host !== '' && update.email.from === '') {
      ctx.addIssue({ code: 'custom', path: ['email', 'from'], message: 'From address is required with a mail server' });
    }
  });
export type TNotificationSettingsUpdate = z.infer<typeof ZNotificationSettingsUpdate>;

/** Whether a secret is saved, and a hint of it (null when none is saved, or for a person who may not configure notifications). */
const ZSecretState = z.object({ set: z.boolean(), hint: z.string().nullable() });

/** The mail server saved on the Notifications screen, without its password. */
export const ZMailServerFields = z.object({
  host: z.string(),
  port: z.number(),
  secure: z.boolean(),
  username: z.string(),
  from: z.string(),
});

/**
 * GET /api/notifications/settings: never the secrets themselves, only whether one is set and a hint. For a
 * person whose role may not configure notifications (no 'notifications.configure'), the mail server's fields
 * (host, port, TLS, username, from address) are left out and the webhook hints are null: they see only what is
 * set up, not where it points.
 */
export const ZNotificationSettings = z.object({
  email: ZMailServerFields.partial().extend({
    passwordSet: z.boolean(),
    /** Which server e-mail goes through: the one saved here, SMTP_URL from the environment, or none. */
    source: z.enum(['settings', 'environment', 'none']),
  }),
  slackWebhook: ZSecretState,
  teamsWebhook: ZSecretState,
  /** The System Settings switches (read only here). */
  switches: z.object({ email: z.boolean(), slack: z.boolean(), teams: z.boolean() }),
});
export type TNotificationSettings = z.infer<typeof ZNotificationSettings>;

/** POST /api/notifications/settings/test: sends one real test message on a channel. */
export const ZNotificationTest = z
  .object({
    channel: ZNotificationChannel,
    /** Where the test e-mail goes (e-mail only). */
    to: z.email('Send the test to an e-mail address').optional(),
  })
  .superRefine((test, ctx) => {
    if (test.channel === 'email' && !test.to) ctx.addIssue({ code: 'custom', path: ['to'], message: 'Enter the address the test e-mail goes to' });
  });
export type TNotificationTest = z.infer<typeof ZNotificationTest>;
export const ZNotificationTestResult = z.object({ ok: z.boolean(), message: z.string() });
export type TNotificationTestResult = z.infer<typeof ZNotificationTestResult>;
