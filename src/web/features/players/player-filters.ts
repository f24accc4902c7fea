import { FILTER_DIVISIONS, PLAYER_STATUS_FILTERS, ZSeasonParam, type TPlayerStatusFilter } from '../../../contract';
import type { MissingReportParams } from '@/lib/missing-report-query';

/** The player tables show 10 rows a page. */
export const PLAYER_PAGE_SIZE = 10;

/** The division filter: All, AAA, AA, A. */
export const PLAYER_DIVISION_FILTERS = ['all', ...FILTER_DIVISIONS] as const;
export type TPlayerDivisionFilter = (typeof PLAYER_DIVISION_FILTERS)[number];

export const PLAYER_DIVISION_FILTER_LABELS: Record<TPlayerDivisionFilter, string> = { all: 'All', AAA: 'AAA', AA: 'AA', A: 'A' };
export const PLAYER_STATUS_FILTER_LABELS: Record<TPlayerStatusFilter, string> = {
  all: 'All',
  complete: 'Complete',
  incomplete: 'Incomplete',
  pending: 'Pending',
};

/** What a player table is filtered by; on the Players screen it lives in the URL's query string. */
export interface PlayerFilters {
  search: string;
  division: TPlayerDivisionFilter;
  status: TPlayerStatusFilter;
  /** A season id or year; undefined = the current season. */
  season: string | undefined;
  page: number;
}

export const DEFAULT_PLAYER_FILTERS: PlayerFilters = { search: '', division: 'all', status: 'all', season: undefined, page: 1 };

const isOneOf = <T extends string>(values: readonly T[], value: string | null): value is T =>
  value !== null && (values as readonly string[]).includes(value);

/** Reads `?search=&division=&status=&season=&page=`; anything unknown or malformed falls back to its default. */
export function parsePlayerFilters(search: string): PlayerFilters {
  const params = new URLSearchParams(search);
  const division = params.get('division');
  const status = params.get('status');
  const season = params.get('season');
  const page = Number(params.get('page'));
  return {
    search: params.get('search') ?? '',
    division: isOneOf(PLAYER_DIVISION_FILTERS, division) ? division : 'all',
    status: isOneOf(PLAYER_STATUS_FILTERS, status) ? status : 'all',
    season: season !== null && ZSeasonParam.safeParse(season).success ? season.trim() : undefined,
    page: Number.isSafeInteger(page) && page >= 1 ? page : 1,
  };
}

/** The query string (without '?') for filters, leaving out every default so a plain /players stays plain. */
export function serializePlayerFilters(filters: PlayerFilters): string {
  const params = new URLSearchParams();
  if (filters.search !== '') params.set('search', filters.search);
  if (filters.division !== 'all') params.set('division', filters.division);
  if (filters.status !== 'all') params.set('status', filters.status);
  if (filters.season !== undefined) params.set('season', filters.season);
  if (filters.page > 1) params.set('page', String(filters.page));
  return params.toString();
}

/**
 * Filters after one change: any change but the page's goes back to page 1, since the old page
 * may not exist in the new result.
 */
export function updatePlayerFilters(filters: PlayerFilters, change: Partial<PlayerFilters>): PlayerFilters {
  const next = { ...filters, ...change };
  if (change.page === undefined) next.page = 1;
  return next;
}

/** Clear Filters resets search, division and status (the season stays). */
export function clearPlayerFilters(filters: PlayerFilters): PlayerFilters {
  return { ...DEFAULT_PLAYER_FILTERS, season: filters.season };
}

export const hasActivePlayerFilters = (filters: PlayerFilters): boolean =>
  filters.search.trim() !== '' || filters.division !== 'all' || filters.status !== 'all';

/** Without a page size the server answers every matching row (the CSV export). */
export function missingReportParams(
  filters: Omit<PlayerFilters, 'page'> & { page?: number },
  pageSize?: number,
): MissingReportParams {
  const params: MissingReportParams = {};
  if (filters.season !== undefined) params.season = filters.season;
  if (filters.division !== 'all') params.division = filters.division;
  const search = filters.search.trim();
  if (search !== '') params.search = search;
  if (filters.status !== 'all') params.status = filters.status;
  if (pageSize !== undefined) {
    params.page = filters.page ?? 1;
    params.pageSize = pageSize;
  }
  return params;
}

/** How many pages `total` rows fill (at least 1, so 'page 1 of 1' holds for an empty result). */
export const pageCountFor = (total: number, pageSize = PLAYER_PAGE_SIZE): number => Math.max(1, Math.ceil(total / pageSize));
