import { and, asc, eq, isNotNull, lt, sql } from 'drizzle-orm';
import type { TDivisionFilter } from '../../contract';
import type { Db } from './client';
import { int, reportRowColumns, seasonIdOf } from './reports.repository';
import { registrations, seasons, seasonTotals } from './schema';

/**
 * GET /api/reports/season's figures (issue 6): a fixed set of aggregate statements, run at once, each
 * resolving the `season` parameter (a year, a season id, or undefined for the current season) inside itself,
 * as reports.repository does, so the scale bench can run the very SQL raw (`seasonReportQueries(db, season,
 * division)`, then `.toSQL()` of each). Never a statement per player or per season:
 * - `history`: every season with its totals (season_totals, for the division) and whether it is the one asked for;
 * - `divisions`: the season's registrations by division, with each type's statuses;
 * - `registeredByMonth` / `completedByMonth`: the season's registrations by month of registered_at and of
 *   completed_at (UTC months);
 * - `incomplete`: the season's players below 100 %, lowest completion first, then by name, at most `limit`.
 */

const inRegistrationDivision = (division: TDivisionFilter) => (division === 'all' ? undefined : eq(registrations.division, division));

/** Every season, oldest first, with its players, complete players and live documents in the division. */
export const seasonHistoryQuery = (db: Db, season: string | undefined, division: TDivisionFilter) =>
  db
    .select({
      id: seasons.id,
      name: seasons.name,
      kind: seasons.kind,
      year: seasons.year,
      startsOn: seasons.startsOn,
      endsOn: seasons.endsOn,
      selected: sql<boolean>`${seasons.id} = ${seasonIdOf(db, season)}`,
      players: int(sql`coalesce(sum(${seasonTotals.players}), 0)`),
      complete: int(sql`coalesce(sum(${seasonTotals.completePlayers}), 0)`),
      documents: int(sql`coalesce(sum(${seasonTotals.liveDocuments}), 0)`),
    })
    .from(seasons)
    .leftJoin(
      seasonTotals,
      and(eq(seasonTotals.seasonId, seasons.id), division === 'all' ? undefined : eq(seasonTotals.division, division)),
    )
    .groupBy(seasons.id)
    .orderBy(asc(seasons.startsOn), asc(seasons.name));

export type SeasonHistoryRow = Awaited<ReturnType<typeof seasonHistoryQuery>>[number];

const typeCounts = (column: typeof registrations.birthCertificateStatus) => ({
  complete: int(sql`count(*) filter (where ${column} = 'complete')`),
  pending: int(sql`count(*) filter (where ${column} = 'pending')`),
  processing: int(sql`count(*) filter (where ${column} = 'processing')`),
  missing: int(sql`count(*) filter (where ${column} = 'missing')`),
});

/** The season's registrations in the division, by division: players, complete, and each type's statuses. */
export const seasonDivisionsQuery = (db: Db, season: string | undefined, division: TDivisionFilter) =>
  db
    .select({
      division: registrations.division,
      players: int(sql`count(*)`),
      complete: int(sql`count(*) filter (where ${registrations.completeTypes} = 4)`),
      birthCertificate: typeCounts(registrations.birthCertificateStatus),
      residency: typeCounts(registrations.residencyStatus),
      medical: typeCounts(registrations.medicalStatus),
      waiver: typeCounts(registrations.waiverStatus),
    })
    .from(registrations)
    .where(and(eq(registrations.seasonId, seasonIdOf(db, season)), inRegistrationDivision(division)))
    .groupBy(registrations.division);

export type SeasonDivisionRow = Awaited<ReturnType<typeof seasonDivisionsQuery>>[number];

/**
 * A timestamp's UTC month: grouped by date_trunc (cheap per row) and formatted once per group ('YYYY-MM'); to_char
 * per row cost half as much again at 50,000 registrations.
 */
const utcMonth = (column: typeof registrations.registeredAt | typeof registrations.completedAt) => {
  const truncated = sql`date_trunc('month', ${column} at time zone 'UTC')`;
  return { truncated, label: sql<string>`to_char(${truncated}, 'YYYY-MM')` };
};

/** The season's registrations in the division by UTC month of registration, months in order. */
export function registeredByMonthQuery(db: Db, season: string | undefined, division: TDivisionFilter) {
  const month = utcMonth(registrations.registeredAt);
  return db
    .select({ month: month.label, count: int(sql`count(*)`) })
    .from(registrations)
    .where(and(eq(registrations.seasonId, seasonIdOf(db, season)), inRegistrationDivision(division)))
    .groupBy(month.truncated)
    .orderBy(month.truncated);
}

/** The season's complete registrations in the division by UTC month they became complete, months in order. */
export function completedByMonthQuery(db: Db, season: string | undefined, division: TDivisionFilter) {
  const month = utcMonth(registrations.completedAt);
  return db
    .select({ month: month.label, count: int(sql`count(*)`) })
    .from(registrations)
    .where(and(eq(registrations.seasonId, seasonIdOf(db, season)), inRegistrationDivision(division), isNotNull(registrations.completedAt)))
    .groupBy(month.truncated)
    .orderBy(month.truncated);
}

export type MonthCount = { month: string; count: number };

/** The season's players below 100 % in the division: lowest completion first, then last name, first name, id. */
export const incompletePlayersQuery = (db: Db, season: string | undefined, division: TDivisionFilter, limit: number) =>
  db
    .select(reportRowColumns)
    .from(registrations)
    .where(and(eq(registrations.seasonId, seasonIdOf(db, season)), inRegistrationDivision(division), lt(registrations.completeTypes, 4)))
    .orderBy(asc(registrations.completeTypes), asc(registrations.lastName), asc(registrations.firstName), asc(registrations.playerId))
    .limit(limit);

/** Every statement of one season report, as builders (the service awaits them at once; the bench runs them raw). */
export const seasonReportQueries = (db: Db, season: string | undefined, division: TDivisionFilter, playerLimit: number) => ({
  history: seasonHistoryQuery(db, season, division),
  divisions: seasonDivisionsQuery(db, season, division),
  registeredByMonth: registeredByMonthQuery(db, season, division),
  completedByMonth: completedByMonthQuery(db, season, division),
  incomplete: incompletePlayersQuery(db, season, division, playerLimit),
});
