import { and, asc, count, desc, eq, gt, gte, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgSelect } from 'drizzle-orm/pg-core';
import type { TDivision, TDivisionFilter, TDocType, TPlayerDocStatus, TPlayerStatusFilter } from '../../contract';
import type { Db } from './client';
import { documents, players, registrations, seasons, seasonTotals } from './schema';

/**
 * The dashboard's and reports' figures, read from what the database keeps by itself (migration 0004,
 * decision 012): each registration's document summary (registrations' status columns, kept by triggers on
 * documents) and each season and division's totals of it (season_totals, kept by triggers on registrations).
 *
 * The builders take the `season` parameter as the API gets it (a year, a season id, or undefined for the
 * current season) and resolve it inside the statement, so an answer costs one round trip per statement. They
 * return drizzle query builders, so the scale bench can run the very SQL a request runs, raw:
 * `const { sql, params } = statsQuery(db, undefined).toSQL()`, then `pool.query(sql, params)`.
 * - GET /api/stats: `statsQuery(db, season)`, one statement.
 * - GET /api/report/missing: `missingReportCountsQuery(db, season, filters)` and
 *   `missingReportPageQuery(db, season, filters, { limit, offset })`, run at once (Promise.all); the first
 *   page of 10 is `{ limit: 10, offset: 0 }`.
 */

export type ReportFilters = {
  division: TDivisionFilter;
  status: TPlayerStatusFilter;
  /** Already trimmed; empty or undefined = no search. */
  search?: string | undefined;
};

/** `%`, `_` and the escape character itself match literally in a LIKE pattern (backslash is PostgreSQL's default escape). */
export const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The season a `season` parameter names, as a one-row query: a year is that year's latest season, anything
 * else a season id, undefined the season marked current (else the one that started last). As
 * seasons.repository's resolveSeason and findCurrentSeason, inside a statement.
 */
export function seasonSelection(db: Db, season: string | undefined) {
  return narrowToSeason(db.select({ id: seasons.id, name: seasons.name, year: seasons.year }).from(seasons).$dynamic(), season);
}

function narrowToSeason<Q extends PgSelect>(query: Q, season: string | undefined) {
  if (season === undefined) return query.orderBy(desc(seasons.isCurrent), desc(seasons.startsOn)).limit(1);
  if (/^\d{4}$/.test(season)) return query.where(eq(seasons.year, Number(season))).orderBy(desc(seasons.startsOn)).limit(1);
  return query.where(eq(seasons.id, season)).limit(1);
}

/** The selected season's id as a scalar subquery (null when there is none). */
export const seasonIdOf = (db: Db, season: string | undefined): SQL =>
  sql`(${narrowToSeason(db.select({ id: seasons.id }).from(seasons).$dynamic(), season)})`;

const STATUS_CONDITIONS: Record<TPlayerStatusFilter, SQL | undefined> = {
  all: undefined,
  complete: eq(registrations.completeTypes, 4),
  incomplete: lt(registrations.completeTypes, 4),
  pending: gt(registrations.pendingTypes, 0),
};

/**
 * A case-insensitive substring of 'First Last', 'Last, First', 'Last First' or the player id: LIKE over the
 * registration's stored lowercase search text (one line each, kept by a trigger), the pattern lowercased by
 * the same lower() so both sides fold case alike.
 */
function searchCondition(search: string | undefined): SQL | undefined {
  if (!search) return undefined;
  return sql`${registrations.searchText} like lower(${`%${escapeLike(search)}%`})`;
}

/** The filters beyond season and division: what `total` counts and the page lists. */
const narrowing = (filters: ReportFilters): SQL | undefined => and(STATUS_CONDITIONS[filters.status], searchCondition(filters.search));

export const int = (expression: SQL) => sql<number>`(${expression})::int`;
const sumOf = (column: AnyPgColumn) => int(sql`coalesce(sum(${column}), 0)`);

/** GET /api/stats: the season, and the sums of its few season_totals rows. No row: no such season. */
export function statsQuery(db: Db, season: string | undefined) {
  const selected = seasonSelection(db, season).as('season');
  return db
    .select({
      seasonId: selected.id,
      seasonName: selected.name,
      seasonYear: selected.year,
      totalPlayers: sumOf(seasonTotals.players),
      documentsUploaded: sumOf(seasonTotals.liveDocuments),
      pendingReview: sumOf(seasonTotals.pendingDocuments),
      completeProfiles: sumOf(seasonTotals.completePlayers),
    })
    .from(selected)
    .leftJoin(seasonTotals, eq(seasonTotals.seasonId, selected.id))
    .groupBy(selected.id, selected.name, selected.year);
}

export type StatsRow = Awaited<ReturnType<typeof statsQuery>>[number];

export async function readStats(db: Db, season: string | undefined): Promise<StatsRow | undefined> {
  const [row] = await statsQuery(db, season);
  return row;
}

/** Players matching the status filter, from season_totals sums. */
const TOTALS_MATCHING: Record<TPlayerStatusFilter, SQL> = {
  all: sql`coalesce(sum(${seasonTotals.players}), 0)`,
  complete: sql`coalesce(sum(${seasonTotals.completePlayers}), 0)`,
  incomplete: sql`coalesce(sum(${seasonTotals.players}) - sum(${seasonTotals.completePlayers}), 0)`,
  pending: sql`coalesce(sum(${seasonTotals.pendingPlayers}), 0)`,
};

/**
 * The missing report's counts: `total` and `complete` of the season (and division) for the summary cards, and
 * `matching`, the rows every filter keeps (what the pager pages over). Without a search they are sums of
 * season_totals; a search has to look at the season's names. No row: no such season.
 */
export function missingReportCountsQuery(db: Db, season: string | undefined, filters: ReportFilters) {
  const selected = seasonSelection(db, season).as('season');
  const seasonColumns = { seasonId: selected.id, seasonName: selected.name, seasonYear: selected.year };
  const search = searchCondition(filters.search);
  if (!search) {
    const inDivision = filters.division === 'all' ? undefined : eq(seasonTotals.division, filters.division);
    return db
      .select({
        ...seasonColumns,
        total: sumOf(seasonTotals.players),
        complete: sumOf(seasonTotals.completePlayers),
        matching: int(TOTALS_MATCHING[filters.status]),
      })
      .from(selected)
      .leftJoin(seasonTotals, and(eq(seasonTotals.seasonId, selected.id), inDivision))
      .groupBy(selected.id, selected.name, selected.year);
  }
  const inDivision = filters.division === 'all' ? undefined : eq(registrations.division, filters.division);
  return db
    .select({
      ...seasonColumns,
      total: count(registrations.playerId),
      complete: int(sql`count(${registrations.playerId}) filter (where ${registrations.completeTypes} = 4)`),
      matching: int(sql`count(${registrations.playerId}) filter (where ${narrowing(filters)})`),
    })
    .from(selected)
    .leftJoin(registrations, and(eq(registrations.seasonId, selected.id), inDivision))
    .groupBy(selected.id, selected.name, selected.year);
}

export type ReportCounts = Awaited<ReturnType<typeof missingReportCountsQuery>>[number];

export async function readMissingReportCounts(db: Db, season: string | undefined, filters: ReportFilters): Promise<ReportCounts | undefined> {
  const [row] = await missingReportCountsQuery(db, season, filters);
  return row;
}

/** The columns of a player report row (the season report's incomplete players read the same). */
export const reportRowColumns = {
  playerId: registrations.playerId,
  firstName: registrations.firstName,
  lastName: registrations.lastName,
  division: registrations.division,
  birthCertificateStatus: registrations.birthCertificateStatus,
  residencyStatus: registrations.residencyStatus,
  medicalStatus: registrations.medicalStatus,
  waiverStatus: registrations.waiverStatus,
  completeTypes: registrations.completeTypes,
};

export type ReportRow = {
  playerId: string;
  firstName: string;
  lastName: string;
  division: TDivision;
  birthCertificateStatus: TPlayerDocStatus;
  residencyStatus: TPlayerDocStatus;
  medicalStatus: TPlayerDocStatus;
  waiverStatus: TPlayerDocStatus;
  completeTypes: number;
};

/**
 * One page of the missing report, in last name, first name, player id order: read in index order from
 * registrations_season_name_idx (or the division one), stopping after `limit` matching rows. Without
 * `page`, every matching row. The season is resolved in the statement (an init plan, then the index).
 */
export const missingReportPageQuery = (
  db: Db,
  season: string | undefined,
  filters: ReportFilters,
  page?: { limit: number; offset: number },
) => {
  const inDivision = filters.division === 'all' ? undefined : eq(registrations.division, filters.division);
  const query = db
    .select(reportRowColumns)
    .from(registrations)
    .where(and(eq(registrations.seasonId, seasonIdOf(db, season)), inDivision, narrowing(filters)))
    .orderBy(asc(registrations.lastName), asc(registrations.firstName), asc(registrations.playerId))
    .$dynamic();
  return page ? query.limit(page.limit).offset(page.offset) : query;
};

export const readMissingReportPage = (
  db: Db,
  season: string | undefined,
  filters: ReportFilters,
  page?: { limit: number; offset: number },
): Promise<ReportRow[]> => missingReportPageQuery(db, season, filters, page);

export type PlayerRegistration = ReportRow & {
  birthDate: string;
  guardianName: string | null;
  guardianEmail: string | null;
  guardianPhone: string | null;
};

/** A player's registration in a season with the summary, birth date and guardian; undefined when not registered. */
export async function findPlayerRegistration(db: Db, playerId: string, seasonId: string): Promise<PlayerRegistration | undefined> {
  const [row] = await db
    .select({
      ...reportRowColumns,
      birthDate: players.birthDate,
      guardianName: players.guardianName,
      guardianEmail: players.guardianEmail,
      guardianPhone: players.guardianPhone,
    })
    .from(registrations)
    .innerJoin(players, eq(players.id, registrations.playerId))
    .where(and(eq(registrations.playerId, playerId), eq(registrations.seasonId, seasonId)));
  return row;
}

/** Every document of the player in the season, tombstones included, newest first, with the guardian contact. */
export async function listPlayerSeasonDocuments(db: Db, playerId: string, seasonId: string) {
  const rows = await db
    .select({ document: documents, guardianEmail: players.guardianEmail, guardianPhone: players.guardianPhone })
    .from(documents)
    .innerJoin(players, eq(players.id, documents.playerId))
    .where(and(eq(documents.playerId, playerId), eq(documents.seasonId, seasonId)))
    .orderBy(desc(documents.uploadedAt), desc(documents.id));
  return rows.map((row) => ({ ...row.document, guardianEmail: row.guardianEmail, guardianPhone: row.guardianPhone }));
}

const typeCounts = (column: typeof registrations.birthCertificateStatus) => ({
  complete: int(sql`count(*) filter (where ${column} = 'complete')`),
  pending: int(sql`count(*) filter (where ${column} = 'pending')`),
  processing: int(sql`count(*) filter (where ${column} = 'processing')`),
  missing: int(sql`count(*) filter (where ${column} = 'missing')`),
});

/** Per division present in the season: players, complete, with a pending type, and each type's statuses. */
export const divisionBreakdownQuery = (db: Db, seasonId: string) =>
  db
    .select({
      division: registrations.division,
      players: count(),
      complete: int(sql`count(*) filter (where ${registrations.completeTypes} = 4)`),
      withPending: int(sql`count(*) filter (where ${registrations.pendingTypes} > 0)`),
      birthCertificate: typeCounts(registrations.birthCertificateStatus),
      residency: typeCounts(registrations.residencyStatus),
      medical: typeCounts(registrations.medicalStatus),
      waiver: typeCounts(registrations.waiverStatus),
    })
    .from(registrations)
    .where(eq(registrations.seasonId, seasonId))
    .groupBy(registrations.division);

export type DivisionBreakdownRow = Awaited<ReturnType<typeof divisionBreakdownQuery>>[number];
export const DOC_TYPE_BREAKDOWN_KEYS: Record<TDocType, 'birthCertificate' | 'residency' | 'medical' | 'waiver'> = {
  birth_certificate: 'birthCertificate',
  residency: 'residency',
  medical: 'medical',
  waiver: 'waiver',
};

/** The season's live (not purged) documents by status, and those without a detected type that are not rejected. */
export async function readDocumentCounts(db: Db, seasonId: string) {
  const [row] = await db
    .select({
      verified: int(sql`count(*) filter (where ${documents.status} = 'verified')`),
      pending: int(sql`count(*) filter (where ${documents.status} = 'pending')`),
      processing: int(sql`count(*) filter (where ${documents.status} = 'processing')`),
      rejected: int(sql`count(*) filter (where ${documents.status} = 'rejected')`),
      undetectedType: int(sql`count(*) filter (where ${documents.docType} is null and ${documents.status} <> 'rejected')`),
    })
    .from(documents)
    .where(and(eq(documents.seasonId, seasonId), isNull(documents.purgedAt)));
  return row ?? { verified: 0, pending: 0, processing: 0, rejected: 0, undetectedType: 0 };
}

/**
 * Registrations as of `at` and how many of them were complete then: complete now, and complete since at least
 * `at` (registrations.completed_at, when the last type got its verified document). The documents keep no
 * status history, so a registration complete then and incomplete since is not counted. One pass over the
 * season's registrations.
 */
export async function readCompletionAsOf(db: Db, seasonId: string, at: Date): Promise<{ registered: number; complete: number }> {
  const [row] = await db
    .select({
      registered: count(),
      complete: int(sql`count(*) filter (where ${registrations.completedAt} <= ${at})`),
    })
    .from(registrations)
    .where(and(eq(registrations.seasonId, seasonId), lte(registrations.registeredAt, at)));
  return row ?? { registered: 0, complete: 0 };
}

/** Mean hours from upload to a review decision, over the season's documents decided since `since`; null when none. */
export async function readAverageReviewHours(db: Db, seasonId: string, since: Date): Promise<number | null> {
  const [row] = await db
    .select({
      hours: sql<string | number | null>`avg(extract(epoch from (${documents.reviewedAt} - ${documents.uploadedAt}))) / 3600`,
    })
    .from(documents)
    .where(
      and(
        eq(documents.seasonId, seasonId),
        or(eq(documents.status, 'verified'), eq(documents.status, 'rejected')),
        gte(documents.reviewedAt, since),
        // A file refused at intake is 'reviewed' the moment it arrives: that is no review.
        gt(documents.reviewedAt, documents.uploadedAt),
      ),
    );
  return row?.hours === null || row?.hours === undefined ? null : Number(row.hours);
}

