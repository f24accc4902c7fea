import { z } from 'zod';
import { SEASON_KINDS, ZDivision, ZDocType } from './domain';
import { CSV_CONTENT_TYPE } from './csv';
import { ZDivisionFilter, ZDocumentsStatus, ZSeasonParam, ZSeasonRef, type TDivisionFilter } from './reports';

/**
 * GET /api/reports/season, the Reports screen's data: a season's report
 * for one division or all, with the history of the seasons up to it and projections fitted on that history.
 * Percentages are 0-100 with one decimal unless said otherwise.
 */
export const ZSeasonReportQuery = z.object({
  season: ZSeasonParam.optional(),
  division: ZDivisionFilter.default('all'),
  /** A query string flag: 'true' or 'false'; default true. */
  compare: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .default('true')
    .transform((value) => value === 'true'),
});
export type TSeasonReportQuery = z.input<typeof ZSeasonReportQuery>;

export const ZSeasonKind = z.enum(SEASON_KINDS);

export const ZSeasonGrowth = z.object({
  /** Change versus the previous season of the same kind, in percent; null when there is none or it had 0. */
  totalPlayers: z.number().nullable(),
  completeProfiles: z.number().nullable(),
  /** The latest season of the same kind that started before this one, or null. */
  previousSeason: ZSeasonRef.nullable(),
});

export const ZSeasonReportSummary = z.object({
  totalPlayers: z.number(),
  completeProfiles: z.number(),
  incompleteProfiles: z.number(),
  completionRate: z.number(),
  /** The season's documents that reached storage (neither rejected nor purged), as GET /api/stats counts them. */
  totalDocuments: z.number(),
  /** Null when the report was asked without comparison. */
  growth: ZSeasonGrowth.nullable(),
});

export const ZSeasonDocumentStat = z.object({
  docType: ZDocType,
  complete: z.number(),
  pending: z.number(),
  processing: z.number(),
  missing: z.number(),
  /** complete / players. */
  completionRate: z.number(),
});

export const ZSeasonDivisionStat = z.object({ division: ZDivision, players: z.number(), complete: z.number(), completionRate: z.number() });

export const ZSeasonMonth = z.object({
  /** 'YYYY-MM' (UTC). */
  month: z.string(),
  /** Registrations whose registered_at falls in the month. */
  registrations: z.number(),
  /** Players complete now who became complete (registrations.completed_at) in the month. */
  completions: z.number(),
});

export const ZSeasonHistoryRow = z.object({
  season: ZSeasonRef,
  kind: ZSeasonKind,
  totalPlayers: z.number(),
  completeProfiles: z.number(),
  completionRate: z.number(),
});

export const ZProjectionPeriod = z.object({
  /** e.g. 'Fall Ball 2026'. */
  period: z.string(),
  projectedPlayers: z.number(),
  /** Expected completion rate, percent. */
  projectedCompletion: z.number(),
  /** 0-100, whole. */
  confidenceLevel: z.number(),
  factors: z.array(z.string()),
});
export type TProjectionPeriod = z.infer<typeof ZProjectionPeriod>;

export const ZProjections = z.object({
  enoughHistory: z.boolean(),
  message: z.string().optional(),
  periods: z.array(ZProjectionPeriod),
});
export type TProjections = z.infer<typeof ZProjections>;

export const ZSeasonReportPlayer = z.object({
  playerId: z.string(),
  playerName: z.string(),
  division: ZDivision,
  documentsStatus: ZDocumentsStatus,
  completionPercentage: z.number(),
});

/** At most this many incomplete players are listed; `playersTotal` counts them all. */
export const SEASON_REPORT_MAX_PLAYERS = 1000;

export const ZSeasonReport = z.object({
  season: ZSeasonRef.extend({ kind: ZSeasonKind }),
  division: ZDivisionFilter,
  summary: ZSeasonReportSummary,
  /** The four types in DOC_TYPES order. */
  documentStats: z.array(ZSeasonDocumentStat),
  /** Every division of the filter (for 'all', every division the principal may see: all five when unlimited), in DIVISIONS order, zero or not. */
  divisionStats: z.array(ZSeasonDivisionStat),
  /** Each month from the season's start to its end, widened to any month with a registration or completion. */
  monthly: z.array(ZSeasonMonth),
  /** Every season that started no later than this one, oldest first, both kinds (filter by `kind` for one). */
  history: z.array(ZSeasonHistoryRow),
  projections: ZProjections,
  /** Players below 100 %, lowest completion first, then last name, first name, id; at most SEASON_REPORT_MAX_PLAYERS. */
  players: z.array(ZSeasonReportPlayer),
  playersTotal: z.number(),
});
export type TSeasonReport = z.infer<typeof ZSeasonReport>;

/** The files the season report exports as: a PDF to print or send, and its tables for a spreadsheet. */
export const REPORT_EXPORT_FORMATS = ['pdf', 'csv', 'xlsx'] as const;
export const ZReportExportFormat = z.enum(REPORT_EXPORT_FORMATS, { error: 'must be pdf, csv or xlsx' });
export type TReportExportFormat = z.infer<typeof ZReportExportFormat>;

/** GET /api/reports/season/export: the report of these parameters as a file of `format`. */
export const ZSeasonReportExportQuery = ZSeasonReportQuery.extend({ format: ZReportExportFormat });
export type TSeasonReportExportQuery = z.input<typeof ZSeasonReportExportQuery>;

export const REPORT_EXPORT_CONTENT_TYPES: Record<TReportExportFormat, string> = {
  pdf: 'application/pdf',
  csv: CSV_CONTENT_TYPE,
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** Text as a part of a file name: lowercase letters, digits and dashes ('Fall Ball 2025' → 'fall-ball-2025'). */
export const fileNamePart = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '');

/** A UTC minute that sorts and is safe in a file name: 2026-11-24 13:05:59 UTC → '20261124T1305Z'. */
export const compactTimestamp = (date: Date): string => `${date.toISOString().slice(0, 16).replace(/[-:]/g, '')}Z`;

/**
 * What an exported report is called: 'clearbase-report-fall-2025-20261124T1305Z.pdf', the division named when
 * it is one ('clearbase-report-fall-2025-aa-20261124T1305Z.xlsx').
 */
export function seasonReportFileName(seasonId: string, division: TDivisionFilter, date: Date, extension: TReportExportFormat | 'json'): string {
  const parts = ['clearbase-report', fileNamePart(seasonId) || 'season', division === 'all' ? '' : fileNamePart(division), compactTimestamp(date)];
  return `${parts.filter(Boolean).join('-')}.${extension}`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/** '2025-08' → 'Aug 2025' (the report's months are UTC calendar months, named the same on screen and in files). */
export function monthLabel(month: string): string {
  const match = /^(\d{4})-(\d{2})$/.exec(month);
  const name = match ? MONTHS[Number(match[2]) - 1] : undefined;
  return match && name ? `${name} ${match[1]}` : month;
}
