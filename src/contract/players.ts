import { z } from 'zod';
import { ZDivision } from './domain';
import { ZPlayerReportRow, ZSeasonRef } from './reports';

const name = (what: string) =>
  z
    .string({ error: `${what} is required` })
    .trim()
    .min(1, `${what} is required`)
    .max(80, `${what} must be at most 80 characters`);

/** POST /api/players: the 'Add Player' form. The player id is derived from name and birth date, so a twin is found. */
export const ZCreatePlayer = z.object({
  firstName: name('First name'),
  lastName: name('Last name'),
  birthDate: z.iso.date('Birth date must be a date (YYYY-MM-DD)').refine((d) => d >= '1990-01-01' && d <= new Date().toISOString().slice(0, 10), {
    message: 'Birth date must be between 1990 and today',
  }),
  /** A year or a season id. */
  season: z.string().trim().min(1, 'Season is required'),
  division: ZDivision,
  guardianName: z.string().trim().max(120, 'Guardian name must be at most 120 characters').optional(),
  guardianEmail: z.union([z.literal(''), z.email('Guardian e-mail must be an e-mail address')]).optional(),
  guardianPhone: z
    .string()
    .trim()
    .max(40, 'Guardian phone must be at most 40 characters')
    .regex(/^[0-9+()\-.\s]*$/, 'Guardian phone may hold digits, spaces and + ( ) - . only')
    .optional(),
});
export type TCreatePlayer = z.infer<typeof ZCreatePlayer>;

/** 201: the new registration's report row (every type missing). */
export const ZCreatedPlayer = z.object({ player: ZPlayerReportRow });
export type TCreatedPlayer = z.infer<typeof ZCreatedPlayer>;

/** The `{playerId}` of the /api/players/{playerId}/… routes. */
export const ZPlayerIdParams = z.object({
  playerId: z.string().trim().min(1, 'is required').max(64, 'must be at most 64 characters'),
});

/** What a timeline entry is about: a season registration, a file received, a review decision, another step of a document, a message to the family. */
export const PLAYER_TIMELINE_KINDS = ['registration', 'upload', 'review', 'document', 'notification'] as const;
export const ZPlayerTimelineKind = z.enum(PLAYER_TIMELINE_KINDS);
export type TPlayerTimelineKind = z.infer<typeof ZPlayerTimelineKind>;

/** One thing that happened to a player's registration, worded for people; never a storage location. */
export const ZPlayerTimelineEntry = z.object({
  /** Unique within the answer (a list key). */
  id: z.string(),
  at: z.string(),
  kind: ZPlayerTimelineKind,
  /** What happened, e.g. 'Birth Certificate approved'. */
  what: z.string(),
  /** Who: a person's name, 'Shared password', 'System', or how a file came in ('Form', 'Mailbox', 'Family'). */
  who: z.string(),
  /** More, when there is any: the reason of a rejection, the file and its type, a message's subject. */
  details: z.string().nullable(),
  /** The season it belongs to; null for a message about no season. */
  season: ZSeasonRef.nullable(),
});
export type TPlayerTimelineEntry = z.infer<typeof ZPlayerTimelineEntry>;

/** GET /api/players/{playerId}/timeline: every season of the player the caller may see, newest first. */
export const ZPlayerTimeline = z.object({
  playerId: z.string(),
  entries: z.array(ZPlayerTimelineEntry),
});
export type TPlayerTimeline = z.infer<typeof ZPlayerTimeline>;

/**
 * POST /api/players/{playerId}/erase: the player's full name, typed as the confirmation (compared without case,
 * accents or extra spaces), so an erasure is never one click away.
 */
export const ZErasePlayer = z.object({ confirmName: z.string().trim().min(1, "Type the player's name to confirm").max(200) });
export type TErasePlayer = z.infer<typeof ZErasePlayer>;

/** 200: what was erased, counted; the audit trail keeps the same counts and the player id, no name. */
export const ZErasedPlayer = z.object({
  playerId: z.string(),
  registrations: z.number().int(),
  documents: z.number().int(),
  files: z.number().int(),
  submissions: z.number().int(),
  notifications: z.number().int(),
  uploadLinks: z.number().int(),
  auditEvents: z.number().int(),
  message: z.string(),
});
export type TErasedPlayer = z.infer<typeof ZErasedPlayer>;
