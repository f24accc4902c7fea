import { and, asc, eq, lt, sql } from 'drizzle-orm';
import type { TDivisionFilter } from '../../contract';
import type { Db } from '../platform/db/client';
import { int, reportRowColumns, seasonIdOf } from './reports.repository';
import { inDivisions, type DivisionScope } from '../platform/db/division-scope';
import { registrations, seasonBreakdown, seasons, seasonTotals } from '../platform/db/schema';

/**
 * GET /api/reports/season's figures, for the Reports screen: a fixed set of aggregate statements, run at once, each
 * resolving the `season` parameter (a year, a season id, or undefined for the current season) inside itself,
 * as reports.repository does, so the scale bench can run the very SQL raw (`seasonReportQueries(db, season,
 * division)`, then `.toSQL()` of each). Never a statement per player or per season:
 * - `history`: every season with its totals (season_totals, for the division) and whether it is the one asked for;
 * - `breakdown`: the season's registrations counted by division, each type's status, completeness and the UTC
 *   months of registration and completion, from season_breakdown (kept by triggers as registrations change);
 * - `incomplete`: the season's players below 100 %, lowest completion first, then by name, at most `limit`,
 *   read in the order of registrations_season_completion_name_idx (no sort of every incomplete player).
 * `scope` is the divisions 'all' means for a principal limited to some (null: every division); a single
 * division is checked against the scope before it gets here.
 */

const inRegistrationDivision = (division: TDivisionFilter, scope: DivisionScope) =>
  division === 'all' ? inDivisions(registrations.division, scope) : eq(registrations.division, division);

/** Every season, oldest first, with its players, complete players and live documents in the division (or the scope's). */
export const seasonHistoryQuery = (db: Db, season: string | undefined, division: TDivisionFilter, scope: DivisionScope = null) =>
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
      and(eq(seasonTotals.seasonId, seasons.id), division === 'all' ? inDivisions(seasonTotals.division, scope) : eq(seasonTotals.division, division)),
    )
    .groupBy(seasons.id)
    .orderBy(asc(seasons.startsOn), asc(seasons.name));

export type SeasonHistoryRow = Awaited<ReturnType<typeof seasonHistoryQuery>>[number];

/** A month kept as its first day ('YYYY-MM-DD'), as the report names it: 'YYYY-MM'. */
const monthLabel = (column: typeof seasonBreakdown.registeredMonth | typeof seasonBreakdown.completedMonth) =>
  sql<string | null>`to_char(${column}::timestamp, 'YYYY-MM')`;

/**
 * The season's registrations in the division, counted by division, completeness, each type's status and the
 * UTC months of registration and of completion: season_breakdown's rows of the season, summed over their
 * slots (kept by the registration triggers, migration 0018, decision 032), never the registrations themselves.
 * At 50,000 players that is about a thousand groups, up to eight rows each, which the service folds into the
 * per-division, per-type and monthly figures. A group whose slots sum to zero has no registration and is left out.
 */
export const seasonBreakdownQuery = (db: Db, season: string | undefined, division: TDivisionFilter, scope: DivisionScope = null) => {
  const b = seasonBreakdown;
  const groups = [b.division, b.complete, b.birthCertificateStatus, b.residencyStatus, b.medicalStatus, b.waiverStatus, b.registeredMonth, b.completedMonth];
  return db
    .select({
      division: b.division,
      complete: b.complete,
      birthCertificate: b.birthCertificateStatus,
      residency: b.residencyStatus,
      medical: b.medicalStatus,
      waiver: b.waiverStatus,
      registeredMonth: monthLabel(b.registeredMonth),
      completedMonth: monthLabel(b.completedMonth),
      count: int(sql`sum(${b.players})`),
    })
    .from(b)
    .where(and(eq(b.seasonId, seasonIdOf(db, season)), division === 'all' ? inDivisions(b.division, scope) : eq(b.division, division)))
    .groupBy(...groups)
    .having(sql`sum(${b.players}) <> 0`);
};

export type SeasonBreakdownRow = Awaited<ReturnType<typeof seasonBreakdownQuery>>[number];

/** The season's players below 100 % in the division: lowest completion first, then last name, first name, id. */
export const incompletePlayersQuery = (db: Db, season: string | undefined, division: TDivisionFilter, limit: number, scope: DivisionScope = null) =>
  db
    .select(reportRowColumns)
    .from(registrations)
    .where(and(eq(registrations.seasonId, seasonIdOf(db, season)), inRegistrationDivision(division, scope), lt(registrations.completeTypes, 4)))
    .orderBy(asc(registrations.completeTypes), asc(registrations.lastName), asc(registrations.firstName), asc(registrations.playerId))
    .limit(limit);

/** Every statement of one season report, as builders (the service awaits them at once; the bench runs them raw). */
export const seasonReportQueries = (db: Db, season: string | undefined, division: TDivisionFilter, playerLimit: number, scope: DivisionScope = null) => ({
  history: seasonHistoryQuery(db, season, division, scope),
  breakdown: seasonBreakdownQuery(db, season, division, scope),
  incomplete: incompletePlayersQuery(db, season, division, playerLimit, scope),
});
