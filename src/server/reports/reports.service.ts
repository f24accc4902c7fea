import {
  DIVISIONS,
  DOC_TYPES,
  ageFitsDivision,
  inDivisionScope,
  leagueAge,
  type TMissingReport,
  type TPlayerReport,
  type TPlayerReportRow,
  type TPlayerStatusFilter,
  type TDivision,
  type TDivisionFilter,
  type TDocType,
  type TPlayerDocStatus,
  type TPlayerListFilterParsed,
  type TPlayerSort,
  type TPrincipal,
  type TSeasonRef,
  type TStats,
  type TStatsBreakdown,
} from '../../contract';
import type { Db } from '../platform/db/client';
import type { DivisionScope } from '../platform/db/division-scope';
import {
  DOC_TYPE_BREAKDOWN_KEYS,
  findPlayerRegistration,
  listPlayerSeasonDocuments,
  readAverageReviewHours,
  readCompletionAsOf,
  readDocumentCounts,
  readMissingReportCounts,
  readEveryReportRow,
  readMissingReportPage,
  readStats,
  type ReportFilters,
  type ReportRowWithGuardian,
  divisionBreakdownQuery,
  type DivisionBreakdownRow,
  type ReportRow,
  type SeasonAges,
} from './reports.repository';
import { findCurrentSeason, resolveSeason, type SeasonRow } from '../seasons';
import { AppError } from '../platform/errors';
import { toDocument, toUploadItem, type StorageFor, listRecentUploads } from '../documents';
import { documentReadingView } from '../reading';

export type ReportsServiceDeps = {
  db: Db;
  storageFor: StorageFor;
  /** The clock of the breakdown's "7 days ago" and "last 30 days"; tests pin it. */
  now?: () => Date;
};

const DAY_MS = 24 * 3_600_000;
const RECENT_UPLOADS = 5;

export type MissingReportQuery = {
  season?: string | undefined;
  division: TDivisionFilter;
  search?: string | undefined;
  status: TPlayerStatusFilter;
  missing?: TDocType | undefined;
  sort?: TPlayerSort | undefined;
  page: number;
  pageSize?: number | undefined;
};

/**
 * Met requirements / required ones × 100, a whole number: a type the season does not require counts for
 * neither, and a season that requires nothing is 100 % met.
 */
export function completionPercentage(statuses: readonly TPlayerDocStatus[]): number {
  const required = statuses.filter((status) => status !== 'not_required');
  if (required.length === 0) return 100;
  return Math.round((required.filter((status) => status === 'complete').length * 100) / required.length);
}

/** The player's league age in the season and whether it fits the division; both null when the season has no age date. */
export function leagueAgeOf(birthDate: string | undefined, division: TDivision, season: SeasonAges | undefined): Pick<TPlayerReportRow, 'leagueAge' | 'ageFitsDivision'> {
  if (birthDate === undefined || !season?.ageDate) return { leagueAge: null, ageFitsDivision: null };
  const age = leagueAge(birthDate, season.ageDate);
  return { leagueAge: age, ageFitsDivision: ageFitsDivision(age, season.divisionAges[division]) };
}

/**
 * A registration's summary as a row of the player report. The league age needs the player's date of birth and
 * the season's ages (`season`, or the row's own); without them it is null.
 */
export function toReportRow(row: ReportRow & { birthDate?: string; season?: SeasonAges }, season: SeasonAges | undefined = row.season): TPlayerReportRow {
  const documentsStatus = {
    birth_certificate: row.birthCertificateStatus,
    residency: row.residencyStatus,
    medical: row.medicalStatus,
    waiver: row.waiverStatus,
  };
  return {
    playerId: row.playerId,
    playerName: `${row.firstName} ${row.lastName}`,
    firstName: row.firstName,
    lastName: row.lastName,
    division: row.division,
    documentsStatus,
    completionPercentage: completionPercentage(Object.values(documentsStatus)),
    expiresOn: row.expiresOn,
    ...leagueAgeOf(row.birthDate, row.division, season),
  };
}

/**
 * What staff type into a search box, made comparable with the names as the report joins them: runs of
 * spaces become one, and a comma takes one space after it ('Smith ,Ava' finds 'Smith, Ava').
 */
export function normaliseSearch(search: string | undefined): string | undefined {
  const text = (search ?? '').replace(/\s+/g, ' ').replace(/ ?, ?/g, ', ').trim();
  return text === '' ? undefined : text;
}

/** What a division filter outside the principal's divisions answers: what a division that does not exist would. */
export const NO_SUCH_DIVISION = 'No such division';

/**
 * A report's division filter within the principal's divisions: a single division must be one of theirs (else
 * 404, as if it did not exist); 'all' means all of theirs (`scope`; null for a principal of every division).
 */
export function divisionsInScope(division: TDivisionFilter, principal: Pick<TPrincipal, 'divisions'>): { division: TDivisionFilter; scope: DivisionScope } {
  if (division === 'all') return { division, scope: principal.divisions };
  if (!inDivisionScope(principal, division)) throw new AppError('NOT_FOUND', NO_SUCH_DIVISION);
  return { division, scope: null };
}

/** A player list's filters as the repository reads them, within the principal's divisions (404 for a division outside them). */
export function playerListFilters(
  query: Omit<TPlayerListFilterParsed, 'season'> & { sort?: TPlayerSort | undefined },
  principal: Pick<TPrincipal, 'divisions'>,
): ReportFilters {
  const { division, scope } = divisionsInScope(query.division, principal);
  return { division, scope, status: query.status, search: normaliseSearch(query.search), missing: query.missing, sort: query.sort };
}

/**
 * Every player a list's filters keep, with the guardian, in the list's order, within the principal's
 * divisions: the very rows the list pages over.
 */
export function listEveryFilteredPlayer(db: Db, filter: TPlayerListFilterParsed, principal: Pick<TPrincipal, 'divisions'>): Promise<ReportRowWithGuardian[]> {
  return readEveryReportRow(db, filter.season, playerListFilters(filter, principal));
}

const seasonRef = (season: SeasonRow): TSeasonRef => ({ id: season.id, name: season.name, year: season.year });
const percent = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 1000) / 10);

export function createReportsService(deps: ReportsServiceDeps) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());

  const seasonNotFound = (param: string | undefined) =>
    new AppError('NOT_FOUND', param === undefined ? 'No season exists yet.' : `Season "${param}" does not exist.`);

  /** A year (its latest season) or a season id; omitted, the current season. 404 when there is none. */
  async function seasonFor(param: string | undefined): Promise<SeasonRow> {
    const season = param === undefined ? await findCurrentSeason(db) : await resolveSeason(db, param);
    if (season) return season;
    throw seasonNotFound(param);
  }

  return {
    /** The dashboard's figures, over the principal's divisions. */
    async getStats(seasonParam: string | undefined, principal: TPrincipal): Promise<TStats> {
      const row = await readStats(db, seasonParam, principal.divisions);
      if (!row) throw seasonNotFound(seasonParam);
      const { seasonId, seasonName, seasonYear, ...figures } = row;
      return { season: { id: seasonId, name: seasonName, year: seasonYear }, ...figures };
    },

    /** The players report: rows and counts of the division asked for, within the principal's divisions. */
    async getMissingReport(query: MissingReportQuery, principal: TPrincipal): Promise<TMissingReport> {
      const filters = playerListFilters(query, principal);
      const page = query.pageSize === undefined ? undefined : { limit: query.pageSize, offset: (query.page - 1) * query.pageSize };
      // The season is resolved inside each statement: two round trips at once, not three in a row. The counts
      // bring the season's age date and divisions' ages, the rows their players' dates of birth.
      const [counts, rows] = await Promise.all([
        readMissingReportCounts(db, query.season, filters),
        page ? readMissingReportPage(db, query.season, filters, page).then((paged) => ({ paged })) : readEveryReportRow(db, query.season, filters).then((every) => ({ every })),
      ]);
      if (!counts) throw seasonNotFound(query.season);
      const ages: SeasonAges = { ageDate: counts.ageDate, divisionAges: counts.divisionAges };
      const players =
        'paged' in rows
          ? rows.paged.map((row) => toReportRow(row, ages))
          : rows.every.map((row) => ({ ...toReportRow(row, ages), guardian: { name: row.guardianName, email: row.guardianEmail, phone: row.guardianPhone } }));
      return {
        season: { id: counts.seasonId, name: counts.seasonName, year: counts.seasonYear },
        players,
        summary: { total: counts.total, complete: counts.complete, incomplete: counts.total - counts.complete },
        total: counts.matching,
        page: query.pageSize === undefined ? 1 : query.page,
        pageSize: query.pageSize ?? null,
      };
    },

    /** A player's season; a player registered in another division than the principal's is answered as one not registered. */
    async getPlayerReport(playerId: string, seasonParam: string | undefined, principal: TPrincipal): Promise<TPlayerReport> {
      const season = await seasonFor(seasonParam);
      const registration = await findPlayerRegistration(db, playerId, season.id);
      if (!registration || !inDivisionScope(principal, registration.division)) {
        throw new AppError('NOT_FOUND', `Player ${playerId} is not registered for ${season.name}.`);
      }
      const documents = await listPlayerSeasonDocuments(db, playerId, season.id);
      const { playerName, division, documentsStatus, completionPercentage } = toReportRow(registration);
      return {
        season: seasonRef(season),
        status: { playerId, playerName, division, documentsStatus, completionPercentage },
        guardian: { name: registration.guardianName, email: registration.guardianEmail, phone: registration.guardianPhone },
        birthDate: registration.birthDate,
        documents: await Promise.all(
          documents.map(async (row) => toDocument(row, deps.storageFor, await documentReadingView(db, row.id, now().toISOString().slice(0, 10)))),
        ),
      };
    },

    /** The dashboard's details, over the principal's divisions: a division row for each of them only. */
    async getBreakdown(seasonParam: string | undefined, principal: TPrincipal): Promise<TStatsBreakdown> {
      const season = await seasonFor(seasonParam);
      const at = now();
      const scope = principal.divisions;
      const [divisions, documentCounts, weekAgo, averageReviewHours, recent] = await Promise.all([
        divisionBreakdownQuery(db, season.id, scope),
        readDocumentCounts(db, season.id, scope),
        readCompletionAsOf(db, season.id, new Date(at.getTime() - 7 * DAY_MS), scope),
        readAverageReviewHours(db, season.id, new Date(at.getTime() - 30 * DAY_MS), scope),
        listRecentUploads(db, RECENT_UPLOADS, season.id, scope),
      ]);
      const total = divisions.reduce((sum, row) => sum + row.players, 0);
      const complete = divisions.reduce((sum, row) => sum + row.complete, 0);
      const byDivision = new Map(divisions.map((row) => [row.division, row]));
      const sumOf = (pick: (row: DivisionBreakdownRow) => number) => divisions.reduce((sum, row) => sum + pick(row), 0);
      const { undetectedType, ...documentsByStatus } = documentCounts;
      return {
        season: seasonRef(season),
        players: { total, complete, incomplete: total - complete, withPending: sumOf((row) => row.withPending) },
        byDivision: DIVISIONS.filter((division) => inDivisionScope(principal, division)).map((division) => ({
          division,
          players: byDivision.get(division)?.players ?? 0,
          complete: byDivision.get(division)?.complete ?? 0,
        })),
        byDocType: DOC_TYPES.map((docType) => {
          const key = DOC_TYPE_BREAKDOWN_KEYS[docType];
          return {
            docType,
            complete: sumOf((row) => row[key].complete),
            pending: sumOf((row) => row[key].pending),
            processing: sumOf((row) => row[key].processing),
            missing: sumOf((row) => row[key].missing),
          };
        }),
        documentsByStatus,
        undetectedType,
        completionRate: percent(complete, total),
        completionRateWeekAgo: percent(weekAgo.complete, weekAgo.registered),
        averageReviewHours: averageReviewHours === null ? null : Math.round(averageReviewHours * 10) / 10,
        recent: recent.map(toUploadItem),
      };
    },
  };
}
export type ReportsService = ReturnType<typeof createReportsService>;
