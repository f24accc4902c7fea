import { and, asc, count, desc, eq, gt, gte, inArray, isNull, lt, lte, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { AnyPgColumn, PgSelect } from 'drizzle-orm/pg-core';
import {
  DIVISIONS,
  EXPIRING_WITHIN_DAYS,
  type TDivision,
  type TDivisionAges,
  type TDivisionFilter,
  type TDocType,
  type TPlayerDocStatus,
  type TPlayerSort,
  type TPlayerStatusFilter,
} from '../../contract';
import type { Db } from '../platform/db/client';
import { preparedRead, type Preparable } from '../platform/db/prepared';
import { inDivisions, inDivisionsPlaceholder, registrationInDivisions, scopeValues, type DivisionScope } from '../platform/db/division-scope';
import { containsPattern, foldedTextContains } from '../platform/db/search';
import { documents, players, registrations, requirementDay, seasonRequirements, seasons, seasonTotals } from '../platform/db/schema';

/**
 * The dashboard's and reports' figures, read from what the database keeps by itself (migration 0004,
 * decision 012): each registration's document summary (registrations' status columns, kept by triggers on
 * documents) and each season and division's totals of it (season_totals, kept by triggers on registrations).
 *
 * The builders take the `season` parameter as the API gets it (a year, a season id, or undefined for the
 * current season) and resolve it inside the statement, so an answer costs one round trip per statement.
 * The reads the dashboard polls are prepared reads (prepared.ts): each shape's SQL is built once, with its
 * values as placeholders, and runs as a named statement. Their `statement(db, …)` gives the name, SQL text and
 * values a request sends, so the scale bench runs the very statement raw, the same way:
 * - GET /api/stats: `statsRead`, one statement.
 * - GET /api/report/missing: `missingReportCountsRead` and `missingReportPageRead`, run at once
 *   (Promise.all); the first page of 10 is `{ limit: 10, offset: 0 }`.
 */

export type ReportFilters = {
  division: TDivisionFilter;
  /**
   * With `division: 'all'`, the divisions 'all' means for a principal limited to some (null or left out: every
   * division). A single division is checked against the scope before it gets here.
   */
  scope?: DivisionScope;
  status: TPlayerStatusFilter;
  /** Already trimmed; empty or undefined = no search. */
  search?: string | undefined;
  /** Players missing this type (no document of it, or only rejected ones); undefined = no such filter. */
  missing?: TDocType | undefined;
  /** The rows' order; undefined = by name. */
  sort?: TPlayerSort | undefined;
};

/** Which SQL a `season` parameter needs: the current season, a year's latest season, or a season id. */
type SeasonShape = 'current' | 'year' | 'id';

/** A `season` parameter as a statement shape and the value of its `season` placeholder. */
function seasonParam(season: string | undefined): { shape: SeasonShape; values: { season?: number | string } } {
  if (season === undefined) return { shape: 'current', values: {} };
  if (/^\d{4}$/.test(season)) return { shape: 'year', values: { season: Number(season) } };
  return { shape: 'id', values: { season } };
}

const SEASON = sql.placeholder('season');

/**
 * Narrows a query on seasons to the one a `season` parameter names: a year is that year's latest season,
 * anything else a season id, none the season marked current (else the one that started last). As
 * seasons.repository's resolveSeason and findCurrentSeason, inside a statement. `value` is the year or id as a
 * parameter, or the `season` placeholder.
 */
function narrowToSeason<Q extends PgSelect>(query: Q, shape: SeasonShape, value: SQLWrapper = SEASON) {
  if (shape === 'current') return query.orderBy(desc(seasons.isCurrent), desc(seasons.startsOn)).limit(1);
  if (shape === 'year') return query.where(eq(seasons.year, value)).orderBy(desc(seasons.startsOn)).limit(1);
  return query.where(eq(seasons.id, value)).limit(1);
}

/** The selected season as a one-row query, its value the `season` placeholder. */
const seasonSelection = (db: Db, shape: SeasonShape) =>
  narrowToSeason(db.select({ id: seasons.id, name: seasons.name, year: seasons.year }).from(seasons).$dynamic(), shape);

/** The selected season's id as a scalar subquery (null when there is none), with the year or id written in. */
export const seasonIdOf = (db: Db, season: string | undefined): SQL => {
  const { shape, values } = seasonParam(season);
  return sql`(${narrowToSeason(db.select({ id: seasons.id }).from(seasons).$dynamic(), shape, sql`${values.season}`)})`;
};

/** The same, its value the `season` placeholder (prepared reads). */
const seasonIdPlaceholder = (db: Db, shape: SeasonShape): SQL =>
  sql`(${narrowToSeason(db.select({ id: seasons.id }).from(seasons).$dynamic(), shape)})`;

/**
 * A met requirement lapses within EXPIRING_WITHIN_DAYS days of the judging day. expires_on is only set while
 * the requirement is met, so it is always after that day; registrations_season_expires_idx serves it.
 */
export const EXPIRING = sql`${registrations.expiresOn} <= (select day from requirement_day) + ${sql.raw(String(EXPIRING_WITHIN_DAYS))}`;

/**
 * A season's rules for expiring documents: the last day an approval may lapse on and still be "expiring"
 * (the judging day + EXPIRING_WITHIN_DAYS), and the required types whose approval lapses (lasts some months).
 * registrations.expires_on keeps the first day one of them lapses.
 */
export async function readExpiringRules(db: Db, seasonId: string): Promise<{ until: string; lapsingTypes: TDocType[] }> {
  const [row] = await db
    .select({
      until: sql<string>`(${requirementDay.day} + ${sql.raw(String(EXPIRING_WITHIN_DAYS))})::text`,
      lapsingTypes: sql<TDocType[]>`array(${db
        .select({ docType: seasonRequirements.docType })
        .from(seasonRequirements)
        .where(and(eq(seasonRequirements.seasonId, seasonId), eq(seasonRequirements.required, true), eq(seasonRequirements.lasts, 'months')))
        .orderBy(asc(seasonRequirements.docType))})`,
    })
    .from(requirementDay);
  return row ?? { until: '0000-01-01', lapsingTypes: [] };
}

const STATUS_CONDITIONS: Record<TPlayerStatusFilter, SQL | undefined> = {
  all: undefined,
  complete: eq(registrations.completeTypes, 4),
  incomplete: lt(registrations.completeTypes, 4),
  pending: gt(registrations.pendingTypes, 0),
  expiring: EXPIRING,
};

/**
 * A substring of 'First Last', 'Last, First', 'Last First', the player id, or the guardian's name or e-mail,
 * ignoring case and accents: LIKE over the registration's stored folded search text (one line each, kept by a
 * trigger), the pattern (the `pattern` placeholder, see filterValues) folded by the same function, so both
 * sides fold alike; registrations_search_text_trgm_idx serves it (decision 024).
 */
const SEARCH_CONDITION = foldedTextContains(registrations.searchText, sql.placeholder('pattern'));

/** The scope of 'all' divisions: null for every division. */
const scopeOfAll = (filters: ReportFilters): DivisionScope => (filters.division === 'all' ? (filters.scope ?? null) : null);

/**
 * The summary statuses a family has to send a document for: none came (or only rejected ones), or the
 * approval that counted has lapsed ('expired'). Every "missing" filter, count and reminder reads this.
 */
export const NEEDS_DOCUMENT_STATUSES = ['missing', 'expired'] as const satisfies readonly TPlayerDocStatus[];

/** The summary column of each type: 'missing' or 'expired' there is a document the family must send. */
export const TYPE_STATUS_COLUMNS: Record<TDocType, AnyPgColumn> = {
  birth_certificate: registrations.birthCertificateStatus,
  residency: registrations.residencyStatus,
  medical: registrations.medicalStatus,
  waiver: registrations.waiverStatus,
};

/** The type's summary asks the family for a document (NEEDS_DOCUMENT_STATUSES). */
export const needsDocument = (column: AnyPgColumn): SQL => inArray(column, [...NEEDS_DOCUMENT_STATUSES]);

const missingCondition = (missing: TDocType | undefined): SQL | undefined => (missing === undefined ? undefined : needsDocument(TYPE_STATUS_COLUMNS[missing]));

/** The divisions in the league's order (AAA first), as a number to sort by. */
const DIVISION_RANK = sql`case ${registrations.division} ${sql.join(
  DIVISIONS.map((division, index) => sql`when ${sql.raw(`'${division}'`)} then ${sql.raw(String(index))}`),
  sql` `,
)} else ${sql.raw(String(DIVISIONS.length))} end`;

/** Each order's first key; every order ends with last name, first name and player id. */
const SORT_KEYS: Record<TPlayerSort, SQL[]> = {
  name: [],
  '-name': [],
  division: [asc(DIVISION_RANK)],
  '-division': [desc(DIVISION_RANK)],
  completion: [asc(registrations.completeTypes)],
  '-completion': [desc(registrations.completeTypes)],
};

function orderOf(sort: TPlayerSort = 'name'): SQL[] {
  const direction = sort === '-name' ? desc : asc;
  return [...SORT_KEYS[sort], direction(registrations.lastName), direction(registrations.firstName), direction(registrations.playerId)];
}

/** Short names of the missing types and orders in statement names (at most 63 bytes). */
const MISSING_SHAPES: Record<TDocType, string> = { birth_certificate: 'bc', residency: 're', medical: 'me', waiver: 'wa' };
const SORT_SHAPES: Record<TPlayerSort, string> = { name: 'n', '-name': '-n', division: 'd', '-division': '-d', completion: 'c', '-completion': '-c' };

/** Which SQL the filters need: a division, some (a principal's), or all; the status; a search or none; a missing type. */
const filterShape = (filters: ReportFilters) =>
  `${filters.division !== 'all' ? 'div' : scopeOfAll(filters) === null ? 'all' : 'some'}:${filters.status}:${filters.search ? 'search' : '-'}${
    filters.missing ? `:${MISSING_SHAPES[filters.missing]}` : ''
  }`;

/** The filters' shape and the rows' order (by name unless said). */
const rowsShape = (filters: ReportFilters) =>
  `${filterShape(filters)}${filters.sort && filters.sort !== 'name' ? `:${SORT_SHAPES[filters.sort]}` : ''}`;

/** The values of the filters' placeholders. */
function filterValues(filters: ReportFilters): Record<string, unknown> {
  return {
    ...(filters.division === 'all' ? scopeValues(scopeOfAll(filters)) : { division: filters.division }),
    ...(filters.search ? { pattern: containsPattern(filters.search) } : {}),
  };
}

/** The filters beyond season and division: what `total` counts and the page lists. */
const narrowing = (filters: ReportFilters): SQL | undefined =>
  and(STATUS_CONDITIONS[filters.status], filters.search ? SEARCH_CONDITION : undefined, missingCondition(filters.missing));

/**
 * The registration's division, when the filters name one (its value the `division` placeholder), or one of the
 * scope's divisions for 'all' (the `divisions` placeholder); nothing for every division.
 */
const inDivision = (column: AnyPgColumn, filters: ReportFilters) => {
  if (filters.division !== 'all') return eq(column, sql.placeholder('division'));
  return scopeOfAll(filters) === null ? undefined : inDivisionsPlaceholder(column);
};

export const int = (expression: SQL) => sql<number>`(${expression})::int`;
const sumOf = (column: AnyPgColumn) => int(sql`coalesce(sum(${column}), 0)`);

/**
 * GET /api/stats: the season, and the sums of its few season_totals rows (of the scope's divisions, the
 * `divisions` placeholder, when `scoped`), and its players expiring soon: a range of
 * registrations_season_expires_idx. No row: no such season.
 */
function statsQuery(db: Db, shape: SeasonShape, scoped: boolean) {
  const selected = seasonSelection(db, shape).as('season');
  const expiring = db
    .select({ n: count() })
    .from(registrations)
    .where(and(eq(registrations.seasonId, selected.id), EXPIRING, scoped ? inDivisionsPlaceholder(registrations.division) : undefined));
  return db
    .select({
      seasonId: selected.id,
      seasonName: selected.name,
      seasonYear: selected.year,
      totalPlayers: sumOf(seasonTotals.players),
      documentsUploaded: sumOf(seasonTotals.liveDocuments),
      pendingReview: sumOf(seasonTotals.pendingDocuments),
      completeProfiles: sumOf(seasonTotals.completePlayers),
      expiringSoon: int(sql`(${expiring})`),
    })
    .from(selected)
    .leftJoin(seasonTotals, and(eq(seasonTotals.seasonId, selected.id), scoped ? inDivisionsPlaceholder(seasonTotals.division) : undefined))
    .groupBy(selected.id, selected.name, selected.year);
}

export const statsRead = preparedRead('stats', (season: string | undefined, scope: DivisionScope = null) => {
  const { shape, values } = seasonParam(season);
  return {
    shape: scope === null ? shape : `${shape}:scoped`,
    values: { ...values, ...scopeValues(scope) },
    build: (db: Db) => statsQuery(db, shape, scope !== null),
  };
});

export type StatsRow = Awaited<ReturnType<typeof statsRead.run>>[number];

export async function readStats(db: Db, season: string | undefined, scope: DivisionScope = null): Promise<StatsRow | undefined> {
  const [row] = await statsRead.run(db, season, scope);
  return row;
}

/** Players matching the status filter, from season_totals sums (expiring is not kept there: see below). */
const TOTALS_MATCHING: Record<Exclude<TPlayerStatusFilter, 'expiring'>, SQL> = {
  all: sql`coalesce(sum(${seasonTotals.players}), 0)`,
  complete: sql`coalesce(sum(${seasonTotals.completePlayers}), 0)`,
  incomplete: sql`coalesce(sum(${seasonTotals.players}) - sum(${seasonTotals.completePlayers}), 0)`,
  pending: sql`coalesce(sum(${seasonTotals.pendingPlayers}), 0)`,
};

/**
 * The missing report's counts: `total` and `complete` of the season (and division) for the summary cards, and
 * `matching`, the rows every filter keeps (what the pager pages over). `total` and `complete` are sums of
 * season_totals, and so is `matching` without a search, a missing type or the expiring status; with one it
 * counts the season's registrations the filters keep (a search through the search index, expiring through
 * registrations_season_expires_idx, rather than read one by one). The season's age date and divisions' ages
 * come along, read once for the page's league ages. No row: no such season.
 */
function missingReportCountsQuery(db: Db, shape: SeasonShape, filters: ReportFilters) {
  const selected = narrowToSeason(
    db
      .select({ id: seasons.id, name: seasons.name, year: seasons.year, ageDate: seasons.ageDate, divisionAges: seasons.divisionAges })
      .from(seasons)
      .$dynamic(),
    shape,
  ).as('season');
  const searched = db
    .select({ n: count() })
    .from(registrations)
    .where(and(eq(registrations.seasonId, selected.id), inDivision(registrations.division, filters), narrowing(filters)));
  return db
    .select({
      seasonId: selected.id,
      seasonName: selected.name,
      seasonYear: selected.year,
      total: sumOf(seasonTotals.players),
      complete: sumOf(seasonTotals.completePlayers),
      ageDate: selected.ageDate,
      divisionAges: selected.divisionAges,
      matching: int(filters.search || filters.missing || filters.status === 'expiring' ? sql`(${searched})` : TOTALS_MATCHING[filters.status]),
    })
    .from(selected)
    .leftJoin(seasonTotals, and(eq(seasonTotals.seasonId, selected.id), inDivision(seasonTotals.division, filters)))
    .groupBy(selected.id, selected.name, selected.year, selected.ageDate, selected.divisionAges);
}

export const missingReportCountsRead = preparedRead('report_counts', (season: string | undefined, filters: ReportFilters) => {
  const { shape, values } = seasonParam(season);
  return {
    shape: `${shape}:${filterShape(filters)}`,
    values: { ...values, ...filterValues(filters) },
    build: (db: Db) => missingReportCountsQuery(db, shape, filters),
  };
});

export type ReportCounts = Awaited<ReturnType<typeof missingReportCountsRead.run>>[number];

export async function readMissingReportCounts(db: Db, season: string | undefined, filters: ReportFilters): Promise<ReportCounts | undefined> {
  const [row] = await missingReportCountsRead.run(db, season, filters);
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
  expiresOn: registrations.expiresOn,
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
  expiresOn: string | null;
};

/** The season's age date and its divisions' ages: what a player's league age and its fit are computed from. */
export type SeasonAges = { ageDate: string | null; divisionAges: Partial<Record<TDivision, TDivisionAges>> };

/** A report row with the player's date of birth, for the league age. */
export type ReportRowWithBirthDate = ReportRow & { birthDate: string };

/**
 * The player's date of birth, looked up by primary key for each row the statement answers (a scalar subquery,
 * so a page of 10 reads 10 players, whatever the planner thinks of a join).
 */
const birthDateOfRow = (db: Db) =>
  sql<string>`(${db.select({ birthDate: players.birthDate }).from(players).where(eq(players.id, registrations.playerId))})`.mapWith(players.birthDate);

/**
 * The missing report's rows in the order asked for, by name by default: read in index order from
 * registrations_season_name_idx (or the division one), stopping after `limit` matching rows (the `limit` and
 * `offset` placeholders) when paged. The season is resolved in the statement (an init plan, then the index).
 */
function missingReportRowsQuery(db: Db, shape: SeasonShape, filters: ReportFilters, paged: boolean) {
  const query = db
    .select({ ...reportRowColumns, birthDate: birthDateOfRow(db) })
    .from(registrations)
    .where(and(eq(registrations.seasonId, seasonIdPlaceholder(db, shape)), inDivision(registrations.division, filters), narrowing(filters)))
    .orderBy(...orderOf(filters.sort))
    .$dynamic();
  return paged ? query.limit(sql.placeholder('limit')).offset(sql.placeholder('offset')) : query;
}

/** One page of the missing report (the screens). */
export const missingReportPageRead = preparedRead(
  'report_page',
  (season: string | undefined, filters: ReportFilters, page: { limit: number; offset: number }) => {
    const { shape, values } = seasonParam(season);
    return {
      shape: `${shape}:${rowsShape(filters)}:page`,
      values: { ...values, ...filterValues(filters), ...page },
      build: (db: Db): Preparable<ReportRowWithBirthDate[]> => missingReportRowsQuery(db, shape, filters, true),
    };
  },
);

export const readMissingReportPage = (
  db: Db,
  season: string | undefined,
  filters: ReportFilters,
  page: { limit: number; offset: number },
): Promise<ReportRowWithBirthDate[]> => missingReportPageRead.run(db, season, filters, page);

export type ReportRowWithGuardian = ReportRowWithBirthDate & { guardianName: string | null; guardianEmail: string | null; guardianPhone: string | null };

/**
 * Every row the filters keep, in the same order, each with its player's guardian: the CSV export, and the
 * families a send to a player list goes to (the same rows the list pages over).
 */
/** A report row with its player's birth date and guardian (players joined). */
const rowWithGuardianColumns = {
  ...reportRowColumns,
  birthDate: players.birthDate,
  guardianName: players.guardianName,
  guardianEmail: players.guardianEmail,
  guardianPhone: players.guardianPhone,
};

function everyReportRowQuery(db: Db, shape: SeasonShape, filters: ReportFilters) {
  return db
    .select(rowWithGuardianColumns)
    .from(registrations)
    .innerJoin(players, eq(players.id, registrations.playerId))
    .where(and(eq(registrations.seasonId, seasonIdPlaceholder(db, shape)), inDivision(registrations.division, filters), narrowing(filters)))
    .orderBy(...orderOf(filters.sort));
}

export const everyReportRowRead = preparedRead('report_every', (season: string | undefined, filters: ReportFilters) => {
  const { shape, values } = seasonParam(season);
  return {
    shape: `${shape}:${rowsShape(filters)}`,
    values: { ...values, ...filterValues(filters) },
    build: (db: Db): Preparable<ReportRowWithGuardian[]> => everyReportRowQuery(db, shape, filters),
  };
});

export const readEveryReportRow = (db: Db, season: string | undefined, filters: ReportFilters): Promise<ReportRowWithGuardian[]> =>
  everyReportRowRead.run(db, season, filters);

export type PlayerRegistration = ReportRowWithBirthDate & {
  guardianName: string | null;
  guardianEmail: string | null;
  guardianPhone: string | null;
  season: SeasonAges;
};

/**
 * A player's registration in a season with the summary, birth date, guardian and the season's ages; undefined
 * when not registered.
 */
export async function findPlayerRegistration(db: Db, playerId: string, seasonId: string): Promise<PlayerRegistration | undefined> {
  const [row] = await db
    .select({ ...rowWithGuardianColumns, season: { ageDate: seasons.ageDate, divisionAges: seasons.divisionAges } })
    .from(registrations)
    .innerJoin(players, eq(players.id, registrations.playerId))
    .innerJoin(seasons, eq(seasons.id, registrations.seasonId))
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
  // A type the season does not require is met, as in complete_types.
  complete: int(sql`count(*) filter (where ${column} in ('complete', 'not_required'))`),
  pending: int(sql`count(*) filter (where ${column} = 'pending')`),
  processing: int(sql`count(*) filter (where ${column} = 'processing')`),
  missing: int(sql`count(*) filter (where ${needsDocument(column)})`),
});

/** Per division present in the season (and in the scope): players, complete, with a pending type, and each type's statuses. */
export const divisionBreakdownQuery = (db: Db, seasonId: string, scope: DivisionScope = null) =>
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
    .where(and(eq(registrations.seasonId, seasonId), inDivisions(registrations.division, scope)))
    .groupBy(registrations.division);

export type DivisionBreakdownRow = Awaited<ReturnType<typeof divisionBreakdownQuery>>[number];
export const DOC_TYPE_BREAKDOWN_KEYS: Record<TDocType, 'birthCertificate' | 'residency' | 'medical' | 'waiver'> = {
  birth_certificate: 'birthCertificate',
  residency: 'residency',
  medical: 'medical',
  waiver: 'waiver',
};

/** A document of the scope's divisions (by its registration); nothing for every division. */
const documentInScope = (scope: DivisionScope) => registrationInDivisions(documents.playerId, documents.seasonId, scope);

/** The season's live (not purged) documents by status, and those without a detected type that are not rejected. */
export async function readDocumentCounts(db: Db, seasonId: string, scope: DivisionScope = null) {
  const [row] = await db
    .select({
      verified: int(sql`count(*) filter (where ${documents.status} = 'verified')`),
      pending: int(sql`count(*) filter (where ${documents.status} = 'pending')`),
      processing: int(sql`count(*) filter (where ${documents.status} = 'processing')`),
      rejected: int(sql`count(*) filter (where ${documents.status} = 'rejected')`),
      undetectedType: int(sql`count(*) filter (where ${documents.docType} is null and ${documents.status} <> 'rejected')`),
    })
    .from(documents)
    .where(and(eq(documents.seasonId, seasonId), isNull(documents.purgedAt), documentInScope(scope)));
  return row ?? { verified: 0, pending: 0, processing: 0, rejected: 0, undetectedType: 0 };
}

/**
 * Registrations as of `at` and how many of them were complete then: complete now, and complete since at least
 * `at` (registrations.completed_at, when the last type got its verified document). The documents keep no
 * status history, so a registration complete then and incomplete since is not counted. One pass over the
 * season's registrations.
 */
export async function readCompletionAsOf(db: Db, seasonId: string, at: Date, scope: DivisionScope = null): Promise<{ registered: number; complete: number }> {
  const [row] = await db
    .select({
      registered: count(),
      complete: int(sql`count(*) filter (where ${registrations.completedAt} <= ${at})`),
    })
    .from(registrations)
    .where(and(eq(registrations.seasonId, seasonId), lte(registrations.registeredAt, at), inDivisions(registrations.division, scope)));
  return row ?? { registered: 0, complete: 0 };
}

/** Mean hours from upload to a review decision, over the season's documents decided since `since`; null when none. */
export async function readAverageReviewHours(db: Db, seasonId: string, since: Date, scope: DivisionScope = null): Promise<number | null> {
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
        documentInScope(scope),
      ),
    );
  return row?.hours === null || row?.hours === undefined ? null : Number(row.hours);
}

