import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ZCreatedPlayer, ZMissingReport, ZPlayerReport, ZSeasons, type TCreatePlayer, type TMissingReport } from '../../../contract';
import { apiRequest, getQueryFn, queryKeyToUrl } from '@/lib/api-client';
import type { MissingReportParams } from './player-filters';

/** Spec §9: the missing-documents report refreshes every 30 s. */
export const MISSING_REPORT_REFETCH_MS = 30_000;

const REPORT_KEY = ['api', 'report'] as const;
const STATS_KEY = ['api', 'stats'] as const;
/** The Reports screen's season reports count players too: a new player changes them. */
const SEASON_REPORTS_KEY = ['api', 'reports'] as const;
const SEASONS_KEY = ['api', 'seasons'] as const;

export const seasonsQueryOptions = queryOptions({
  queryKey: SEASONS_KEY,
  queryFn: getQueryFn({ schema: ZSeasons }),
});

/** GET /api/seasons: newest first, one of them current. */
export function useSeasons() {
  return useQuery(seasonsQueryOptions);
}

const missingReportKey = (params: MissingReportParams) => [...REPORT_KEY, 'missing', { ...params }] as const;

export const missingReportQueryOptions = (params: MissingReportParams) =>
  queryOptions({
    queryKey: missingReportKey(params),
    queryFn: getQueryFn({ schema: ZMissingReport }),
    refetchInterval: MISSING_REPORT_REFETCH_MS,
    // The last page stays on screen (marked busy) while the next page or filter loads, so the table does not jump.
    placeholderData: keepPreviousData,
  });

/** GET /api/report/missing, one page of it (season, division, search, status, page, pageSize). */
export function useMissingReport(params: MissingReportParams) {
  return useQuery(missingReportQueryOptions(params));
}

/** GET /api/report/missing without a page size: every matching row, for the CSV export. */
export function fetchAllMissingRows(params: MissingReportParams): Promise<TMissingReport> {
  const { page: _page, pageSize: _pageSize, ...filters } = params;
  return apiRequest('GET', queryKeyToUrl(missingReportKey(filters)), undefined, { schema: ZMissingReport });
}

export const playerReportQueryOptions = (playerId: string, season: string | undefined) =>
  queryOptions({
    queryKey: [...REPORT_KEY, 'player', { player_id: playerId, season }],
    queryFn: getQueryFn({ schema: ZPlayerReport }),
  });

/** GET /api/report/player: one player's status, guardian and documents in a season. */
export function usePlayerReport(playerId: string | null, season: string | undefined) {
  return useQuery({ ...playerReportQueryOptions(playerId ?? '', season), enabled: playerId !== null });
}

/** POST /api/players; the tables and the dashboard's figures count the new player once it is in. */
export function useCreatePlayer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: ['api', 'players', 'create'],
    mutationFn: (player: TCreatePlayer) => apiRequest('POST', '/api/players', player, { schema: ZCreatedPlayer }),
    onSuccess: () =>
      Promise.all([REPORT_KEY, STATS_KEY, SEASON_REPORTS_KEY].map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
