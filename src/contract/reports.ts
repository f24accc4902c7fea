import { z } from 'zod';
import { ZDocument, ZUploadItem } from './documents';
import { DOC_TYPES, ZDivision, ZDocType, ZDocumentStatus, ZPlayerDocStatus, type TDocType } from './domain';
import { ZSeason } from './seasons';

/**
 * The dashboard's figures and the player report (seasons themselves are in seasons.ts).
 * A `season` parameter is a year (`2025`: that year's latest season, as the dashboard sends it) or a
 * season id (`fall-2025`); omitted, it means the current season.
 */
export const ZSeasonParam = z
  .string()
  .trim()
  .regex(/^(\d{4}|[a-z0-9][a-z0-9-]{0,39})$/, 'must be a year such as 2025 or a season id such as fall-2025');

/** The season a figure was computed for, so a screen can name it. */
export const ZSeasonRef = ZSeason.pick({ id: true, name: true, year: true });
export type TSeasonRef = z.infer<typeof ZSeasonRef>;

export const ZStatsQuery = z.object({ season: ZSeasonParam.optional() });

/** GET /api/stats: the season's players and documents. */
export const ZStats = z.object({
  season: ZSeasonRef,
  /** Players registered for the season. */
  totalPlayers: z.number(),
  /** The season's documents that reached storage (every status but `rejected`). */
  documentsUploaded: z.number(),
  /** Documents waiting for a review decision (`pending`). */
  pendingReview: z.number(),
  /** Players with every requirement of the season met (see PLAYER_DOC_STATUSES). */
  completeProfiles: z.number(),
  /** Players with an approval that lapses within EXPIRING_WITHIN_DAYS days (a medical form's year running out). */
  expiringSoon: z.number(),
});
export type TStats = z.infer<typeof ZStats>;

export const ZDocumentsStatus = z.object(
  Object.fromEntries(DOC_TYPES.map((t) => [t, ZPlayerDocStatus])) as Record<(typeof DOC_TYPES)[number], typeof ZPlayerDocStatus>,
);
export type TDocumentsStatus = z.infer<typeof ZDocumentsStatus>;

/** A player's row of the report: documents and completion, with the name parts the tables show as 'Last, First'. */
export const ZPlayerReportRow = z.object({
  playerId: z.string(),
  playerName: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  division: ZDivision,
  documentsStatus: ZDocumentsStatus,
  /** Met requirements / required ones × 100 (a type the season does not require counts for neither), a whole number. */
  completionPercentage: z.number(),
  /** The first day a requirement met now stops counting (YYYY-MM-DD), e.g. a medical form's year; null when none lapses. */
  expiresOn: z.string().nullable(),
  /** The player's age on the season's age date; null when the season has no age date. */
  leagueAge: z.number().nullable(),
  /** False when the league age is outside the division's ages (flagged); null when there is no league age. */
  ageFitsDivision: z.boolean().nullable(),
});
export type TPlayerReportRow = z.infer<typeof ZPlayerReportRow>;

/**
 * The player status filter: complete = every requirement met, incomplete = not, pending = a document awaiting
 * review, expiring = an approval lapses within EXPIRING_WITHIN_DAYS days.
 */
export const PLAYER_STATUS_FILTERS = ['all', 'complete', 'incomplete', 'pending', 'expiring'] as const;
export const ZPlayerStatusFilter = z.enum(PLAYER_STATUS_FILTERS, { error: 'must be all, complete, incomplete, pending or expiring' });
export type TPlayerStatusFilter = z.infer<typeof ZPlayerStatusFilter>;

export const ZDivisionFilter = z.union([z.literal('all'), ZDivision], { error: 'must be all or a division (AAA, AA, A, TEST, Peewee)' });
export type TDivisionFilter = z.infer<typeof ZDivisionFilter>;

export const MAX_REPORT_PAGE_SIZE = 200;

/**
 * The missing-document filter: players whose summary shows that type as Missing, that is with no document of
 * the type in the season, or only rejected (or purged) ones, exactly what the tables show as 'Missing'.
 */
export const ZMissingDocFilter = z.enum(DOC_TYPES, { error: 'must be birth_certificate, residency, medical or waiver' });
export type TMissingDocFilter = TDocType;

/**
 * How a player list is ordered: by name (last, first, player id), division (the league's order) or completion,
 * a leading '-' for the reverse; ties fall back to the name order, so paging stays stable.
 */
export const PLAYER_SORTS = ['name', '-name', 'division', '-division', 'completion', '-completion'] as const;
export const ZPlayerSort = z.enum(PLAYER_SORTS, { error: `must be one of ${PLAYER_SORTS.join(', ')}` });
export type TPlayerSort = z.infer<typeof ZPlayerSort>;
export const PLAYER_SORT_KEYS = ['name', 'division', 'completion'] as const;
export type TPlayerSortKey = (typeof PLAYER_SORT_KEYS)[number];

/**
 * The filters of a player list, as the Players screen sends them: the season, a division, the status, a
 * missing document type and a search (a case-insensitive substring of the player's name or id). The list
 * (GET /api/report/missing) and the 'players_list' recipients of a send read the same filters.
 */
export const ZPlayerListFilter = z.object({
  season: ZSeasonParam.optional(),
  division: ZDivisionFilter.default('all'),
  search: z.string().trim().max(100, 'must be at most 100 characters').optional(),
  status: ZPlayerStatusFilter.default('all'),
  missing: ZMissingDocFilter.optional(),
});
export type TPlayerListFilter = z.input<typeof ZPlayerListFilter>;
export type TPlayerListFilterParsed = z.output<typeof ZPlayerListFilter>;

/**
 * GET /api/report/missing: the player list filters, its order and a page. Without `pageSize` every matching
 * row is answered, with the guardian (the CSV export); the screens page on the server.
 */
export const ZMissingReportQuery = ZPlayerListFilter.extend({
  sort: ZPlayerSort.default('name'),
  page: z.coerce.number().int('must be a whole number').min(1, 'must be at least 1').default(1),
  pageSize: z.coerce
    .number()
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(MAX_REPORT_PAGE_SIZE, `must be at most ${MAX_REPORT_PAGE_SIZE}`)
    .optional(),
});
export type TMissingReportQuery = z.input<typeof ZMissingReportQuery>;

export const ZReportSummary = z.object({ total: z.number(), complete: z.number(), incomplete: z.number() });
export type TReportSummary = z.infer<typeof ZReportSummary>;

export const ZMissingReport = z.object({
  season: ZSeasonRef,
  /** Rows of the page asked for (every matching row without `pageSize`, each with its guardian), in the order asked for. */
  players: z.array(
    ZPlayerReportRow.extend({
      /** Only when every row is answered (the export). */
      guardian: z.object({ name: z.string().nullable(), email: z.string().nullable(), phone: z.string().nullable() }).optional(),
    }),
  ),
  /** The season and division's players, whatever the search and status filters (the count cards). */
  summary: ZReportSummary,
  /** Rows matching every filter: what the pager pages over. */
  total: z.number(),
  page: z.number(),
  /** Null when every row was answered. */
  pageSize: z.number().nullable(),
});
export type TMissingReport = z.infer<typeof ZMissingReport>;

export const ZPlayerReportQuery = z.object({
  player_id: z.string().trim().min(1, 'is required').max(64, 'must be at most 64 characters'),
  season: ZSeasonParam.optional(),
});

/** GET /api/report/player: one player's status in a season, and that season's documents of the player. */
export const ZPlayerReport = z.object({
  season: ZSeasonRef,
  status: ZPlayerReportRow.pick({ playerId: true, playerName: true, division: true, documentsStatus: true, completionPercentage: true }),
  guardian: z.object({ name: z.string().nullable(), email: z.string().nullable(), phone: z.string().nullable() }),
  birthDate: z.string(),
  /** Newest first. */
  documents: z.array(ZDocument),
});
export type TPlayerReport = z.infer<typeof ZPlayerReport>;

/**
 * GET /api/stats/breakdown: what the dashboard's detail modals show, from the season's real data, over the
 * divisions the signed-in person may see. Division rows cover each of those divisions (every division for a
 * person limited to none) and type rows every type, zero or not.
 */
export const ZStatsBreakdown = z.object({
  season: ZSeasonRef,
  players: z.object({ total: z.number(), complete: z.number(), incomplete: z.number(), withPending: z.number() }),
  byDivision: z.array(z.object({ division: ZDivision, players: z.number(), complete: z.number() })),
  byDocType: z.array(
    z.object({ docType: ZDocType, complete: z.number(), pending: z.number(), processing: z.number(), missing: z.number() }),
  ),
  /** The season's documents by status, plus those whose type could not be detected (they need review). */
  documentsByStatus: z.object(Object.fromEntries(ZDocumentStatus.options.map((s) => [s, z.number()])) as Record<z.infer<typeof ZDocumentStatus>, z.ZodNumber>),
  undetectedType: z.number(),
  /** Completion now and 7 days ago (the share of players complete then), for the Analytics trend. */
  completionRate: z.number(),
  completionRateWeekAgo: z.number(),
  /** Mean hours from upload to review decision over the last 30 days; null when nothing was reviewed. */
  averageReviewHours: z.number().nullable(),
  /** The five latest uploads of the season. */
  recent: z.array(ZUploadItem),
});
export type TStatsBreakdown = z.infer<typeof ZStatsBreakdown>;
