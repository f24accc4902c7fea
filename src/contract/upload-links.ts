import { z } from 'zod';
import { ZDocType } from './domain';

/**
 * A family's personal upload link: one player, one season, no sign-in. Staff issue one (or a reminder
 * carries one); the family opens it on a phone, sees what is still needed and sends it. The link's token is
 * random (256 bits), kept only as its SHA-256, and stops working when it expires or is revoked.
 */

/** The page a link opens: `<origin>/family#token=…` (the token stays in the #fragment, so in no server log). */
export const FAMILY_PAGE_PATH = '/family';

/** Uploads one link may send per hour (counted in the database, so every instance shares the limit). */
export const FAMILY_UPLOADS_PER_HOUR = 20;

/** Photos one upload may combine into a single PDF (a document of several pages). */
export const FAMILY_MAX_PAGES = 10;

/** Days a link works when Settings say nothing else. */
export const UPLOAD_LINK_DAYS = { min: 1, max: 180, default: 30 } as const;

/** POST /api/players/:playerId/upload-link: which season's documents the link is for (a season id or year). */
export const ZUploadLinkRequest = z.object({ season: z.string().trim().min(1, 'Season is required').max(64) }).strict();
export type TUploadLinkRequest = z.infer<typeof ZUploadLinkRequest>;

/** The link as issued: shown once (only its hash is kept), with when it stops working (ISO). */
export const ZUploadLink = z.object({ url: z.string(), expiresAt: z.string() });
export type TUploadLink = z.infer<typeof ZUploadLink>;

/** GET /api/players/:playerId/upload-link?season=…: whether the family has a working link, for the staff side. */
export const ZUploadLinkStatusQuery = z.object({ season: z.string().trim().min(1, 'Season is required').max(64) });
export const ZUploadLinkStatus = z.object({
  /** Links issued for this player and season that still work. */
  active: z.number(),
  lastIssuedAt: z.string().nullable(),
  /** The last time the family opened or used any of them. */
  lastUsedAt: z.string().nullable(),
});
export type TUploadLinkStatus = z.infer<typeof ZUploadLinkStatus>;

/**
 * POST /api/players/:playerId/upload-link/send `{ season }`: e-mails the guardian a new link (the Upload Link
 * template). Answers whom it went to and whether the mail server took it.
 */
export const ZUploadLinkSendResult = z.object({
  to: z.string(),
  status: z.enum(['sent', 'failed']),
  expiresAt: z.string(),
  /** Why it failed, in words staff act on; null when sent. */
  error: z.string().nullable(),
});
export type TUploadLinkSendResult = z.infer<typeof ZUploadLinkSendResult>;

/** DELETE /api/players/:playerId/upload-link?season=…: every working link of the player for that season stops. */
export const ZUploadLinkRevokeQuery = z.object({ season: z.string().trim().min(1, 'Season is required').max(64) });
export const ZUploadLinkRevokeResult = z.object({ revoked: z.number() });

/** A document's state in a family's words. */
export const FAMILY_DOC_STATES = ['missing', 'under_review', 'accepted', 'not_accepted'] as const;
export const ZFamilyDocState = z.enum(FAMILY_DOC_STATES);
export type TFamilyDocState = z.infer<typeof ZFamilyDocState>;
export const FAMILY_DOC_STATE_LABELS: Record<TFamilyDocState, string> = {
  missing: 'Missing',
  under_review: 'Under review',
  accepted: 'Accepted',
  not_accepted: 'Not accepted',
};

/** GET /api/family/:token: what the family page shows, and nothing else of the league. */
export const ZFamilyPage = z.object({
  /** The player's first name only. */
  playerFirstName: z.string(),
  season: z.object({ name: z.string(), registrationDeadline: z.string() }),
  /** When the link stops working (ISO). */
  expiresAt: z.string(),
  documents: z.array(
    z.object({
      type: ZDocType,
      label: z.string(),
      state: ZFamilyDocState,
      /** The reviewer's reason when the state is not_accepted; otherwise null. */
      reason: z.string().nullable(),
      /** When the document in this state arrived (ISO); null when missing. */
      receivedAt: z.string().nullable(),
    }),
  ),
});
export type TFamilyPage = z.infer<typeof ZFamilyPage>;

/**
 * POST /api/family/:token/uploads (multipart/form-data): a `docType` field, then one `file` part (a PDF or a
 * photo) or several photos of one document's pages, combined into one PDF. Answered 202 once the file is
 * recorded; the page is then as GET answers it.
 */
export const ZFamilyUploadResult = z.object({
  docType: ZDocType,
  state: ZFamilyDocState,
  /** What happens next, in a family's words. */
  message: z.string(),
  page: ZFamilyPage,
});
export type TFamilyUploadResult = z.infer<typeof ZFamilyUploadResult>;

/**
 * The automatic reminders of one season, set on the Notifications screen: a reminder a number of days before
 * the registration deadline, and a number of days after a document was not accepted. A family gets at most one
 * reminder a day, none once the player has every document in.
 */
const reminderDays = (max: number, most: number, what: string) =>
  z
    .array(
      z
        .number({ error: 'must be a whole number of days' })
        .int('must be a whole number of days')
        .min(1, 'must be at least 1 day')
        .max(max, `must be at most ${max} days`),
    )
    .max(most, `at most ${most} ${what}`)
    .refine((days) => new Set(days).size === days.length, { error: 'each day may appear once' })
    .transform((days) => [...days].sort((a, b) => b - a));

export const ZReminderSchedule = z.object({
  season: z.object({ id: z.string(), name: z.string(), registrationDeadline: z.string() }),
  enabled: z.boolean(),
  daysBeforeDeadline: z.array(z.number()),
  daysAfterRejection: z.array(z.number()),
  /** The days the next reminders go out (YYYY-MM-DD), for the screen to say when; empty when off. */
  upcoming: z.array(z.object({ on: z.string(), reason: z.string() })),
});
export type TReminderSchedule = z.infer<typeof ZReminderSchedule>;

/** GET /api/notifications/reminders?season=… */
export const ZReminderScheduleQuery = z.object({ season: z.string().trim().min(1).max(64).optional() });

/** PUT /api/notifications/reminders */
export const ZReminderScheduleUpdate = z
  .object({
    season: z.string().trim().min(1, 'Season is required').max(64),
    enabled: z.boolean(),
    daysBeforeDeadline: reminderDays(120, 6, 'reminders before the deadline'),
    daysAfterRejection: reminderDays(30, 3, 'reminders after a rejection'),
  })
  .strict();
export type TReminderScheduleUpdate = z.infer<typeof ZReminderScheduleUpdate>;

export const REMINDER_SCHEDULE_DEFAULTS = { enabled: false, daysBeforeDeadline: [14, 7, 2], daysAfterRejection: [3] } as const;
