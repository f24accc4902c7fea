import {
  EXPIRING_WITHIN_DAYS,
  DIVISIONS,
  DOC_TYPES,
  PLAYER_SORT_KEYS,
  PLAYER_SORTS,
  PLAYER_STATUS_FILTERS,
  ZSeasonParam,
  type TDivision,
  type TDivisionFilter,
  type TDocType,
  type TPlayerSort,
  type TPlayerSortKey,
  type TPlayerStatusFilter,
} from '../../../contract';
import { DOC_TYPE_COLUMN_LABELS } from '@/components/status-tones';
import type { MissingReportParams } from '@/lib/missing-report-query';

/** The player tables show 10 rows a page. */
export const PLAYER_PAGE_SIZE = 10;

/** The division filter: All, then the divisions the season offers. */
export const PLAYER_DIVISION_FILTERS = ['all', ...DIVISIONS] as const;
export type TPlayerDivisionFilter = TDivisionFilter;

/** 'All' and each division the season offers, in the league's order; a division already chosen stays listed. */
export function divisionChoices(seasonDivisions: readonly TDivision[] | undefined, chosen: TDivisionFilter): TDivisionFilter[] {
  const offered = new Set<TDivisionFilter>(['all', ...(seasonDivisions ?? DIVISIONS)]);
  offered.add(chosen);
  return PLAYER_DIVISION_FILTERS.filter((division) => offered.has(division));
}

export const PLAYER_DIVISION_FILTER_LABELS: Record<TPlayerDivisionFilter, string> = {
  all: 'All',
  ...(Object.fromEntries(DIVISIONS.map((division) => [division, division])) as Record<TDivision, string>),
};
export const PLAYER_STATUS_FILTER_LABELS: Record<TPlayerStatusFilter, string> = {
  all: 'All',
  complete: 'Complete',
  incomplete: 'Incomplete',
  pending: 'Under Review',
  expiring: `Expiring within ${EXPIRING_WITHIN_DAYS} days`,
};

/** The missing-document filter: any, or one type ('missing=birth_certificate' in the address). */
export const PLAYER_MISSING_FILTERS = ['any', ...DOC_TYPES] as const;
export type TPlayerMissingFilter = (typeof PLAYER_MISSING_FILTERS)[number];
export const PLAYER_MISSING_FILTER_LABELS: Record<TPlayerMissingFilter, string> = {
  any: 'Any',
  ...(Object.fromEntries(DOC_TYPES.map((type) => [type, DOC_TYPE_COLUMN_LABELS[type]])) as Record<TDocType, string>),
};

/** What a player table is filtered by; on the Players screen it lives in the URL's query string. */
export interface PlayerFilters {
  search: string;
  division: TPlayerDivisionFilter;
  status: TPlayerStatusFilter;
  /** Players missing this document type; 'any' = no such filter. */
  missing: TPlayerMissingFilter;
  /** A season id or year; undefined = the current season. */
  season: string | undefined;
  sort: TPlayerSort;
  page: number;
}

export const DEFAULT_PLAYER_FILTERS: PlayerFilters = {
  search: '',
  division: 'all',
  status: 'all',
  missing: 'any',
  season: undefined,
  sort: 'name',
  page: 1,
};

const isOneOf = <T extends string>(values: readonly T[], value: string | null): value is T =>
  value !== null && (values as readonly string[]).includes(value);

/** The column a sort orders by, and whether it goes down (a leading '-'). */
export function sortParts(sort: TPlayerSort): { key: TPlayerSortKey; descending: boolean } {
  const descending = sort.startsWith('-');
  const column = descending ? sort.slice(1) : sort;
  return { key: PLAYER_SORT_KEYS.find((key) => key === column) ?? 'name', descending };
}

/** A click on a column's header: its column ascending, or the other way when it already orders by it. */
export function nextSort(current: TPlayerSort, key: TPlayerSortKey): TPlayerSort {
  const { key: currentKey, descending } = sortParts(current);
  const next = currentKey === key && !descending ? `-${key}` : key;
  return isOneOf(PLAYER_SORTS, next) ? next : 'name';
}

/** Reads `?search=&division=&status=&missing=&season=&sort=&page=`; anything unknown or malformed falls back to its default. */
export function parsePlayerFilters(search: string): PlayerFilters {
  const params = new URLSearchParams(search);
  const division = params.get('division');
  const status = params.get('status');
  const missing = params.get('missing');
  const season = params.get('season');
  const sort = params.get('sort');
  const page = Number(params.get('page'));
  return {
    search: params.get('search') ?? '',
    division: isOneOf(PLAYER_DIVISION_FILTERS, division) ? division : 'all',
    status: isOneOf(PLAYER_STATUS_FILTERS, status) ? status : 'all',
    missing: isOneOf(DOC_TYPES, missing) ? missing : 'any',
    season: season !== null && ZSeasonParam.safeParse(season).success ? season.trim() : undefined,
    sort: isOneOf(PLAYER_SORTS, sort) ? sort : 'name',
    page: Number.isSafeInteger(page) && page >= 1 ? page : 1,
  };
}

/** The query string (without '?') for filters, leaving out every default so a plain /players stays plain. */
export function serializePlayerFilters(filters: PlayerFilters): string {
  const params = new URLSearchParams();
  if (filters.search !== '') params.set('search', filters.search);
  if (filters.division !== 'all') params.set('division', filters.division);
  if (filters.status !== 'all') params.set('status', filters.status);
  if (filters.missing !== 'any') params.set('missing', filters.missing);
  if (filters.season !== undefined) params.set('season', filters.season);
  if (filters.sort !== 'name') params.set('sort', filters.sort);
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

/** Clear Filters resets search, division, status and missing type (the season and the order stay). */
export function clearPlayerFilters(filters: PlayerFilters): PlayerFilters {
  return { ...DEFAULT_PLAYER_FILTERS, season: filters.season, sort: filters.sort };
}

/** How many of search, division, status and missing type narrow the list (the folded filters' button shows it). */
export const activePlayerFilterCount = (filters: Omit<PlayerFilters, 'page'>): number =>
  [filters.search.trim() !== '', filters.division !== 'all', filters.status !== 'all', filters.missing !== 'any'].filter(Boolean).length;

export const hasActivePlayerFilters = (filters: Omit<PlayerFilters, 'page'>): boolean => activePlayerFilterCount(filters) > 0;

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
  if (filters.missing !== 'any') params.missing = filters.missing;
  if (filters.sort !== 'name') params.sort = filters.sort;
  if (pageSize !== undefined) {
    params.page = filters.page ?? 1;
    params.pageSize = pageSize;
  }
  return params;
}

/** How many pages `total` rows fill (at least 1, so 'page 1 of 1' holds for an empty result). */
export const pageCountFor = (total: number, pageSize = PLAYER_PAGE_SIZE): number => Math.max(1, Math.ceil(total / pageSize));
