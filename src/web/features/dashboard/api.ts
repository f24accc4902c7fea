import { useQuery, type Query } from '@tanstack/react-query';
import { ZRecentUploads, ZStats, ZStatsBreakdown } from '../../../contract';
import { getQueryFn } from '@/lib/api-client';
import { queryKeyReadsAny } from '@/lib/query-keys';

/** Stats and recent uploads refresh every 30 s. */
export const STATS_REFETCH_INTERVAL_MS = 30_000;
export const RECENT_UPLOADS_REFETCH_INTERVAL_MS = 30_000;
/** The processing card shows the 5 latest uploads. */
export const PROCESSING_CARD_LIMIT = 5;

/**
 * The season the dashboard asks about: a season id ('fall-2025') or a year; undefined asks the server for
 * the current season, so the first paint needs no seasons list.
 */
export type TSeasonChoice = string | undefined;

/** GET /api/stats?season=…, every 30 s; live events refresh it at once (resource 'stats'). */
export function useStats(season: TSeasonChoice) {
  return useQuery({
    queryKey: ['api', 'stats', { season }],
    queryFn: getQueryFn({ schema: ZStats }),
    refetchInterval: STATS_REFETCH_INTERVAL_MS,
  });
}

/**
 * GET /api/stats/breakdown?season=…, used by the detail modal only while it is open: read afresh at each
 * opening (the last answer stays on screen meanwhile), then kept current by live events (resource 'stats').
 */
export function useStatsBreakdown(season: TSeasonChoice) {
  return useQuery({
    queryKey: ['api', 'stats', 'breakdown', { season }],
    queryFn: getQueryFn({ schema: ZStatsBreakdown }),
    refetchOnMount: 'always',
  });
}

/** GET /api/uploads/recent?limit=5 for the Real-time Processing card, every 30 s. */
export function useProcessingUploads() {
  return useQuery({
    queryKey: ['api', 'uploads', 'recent', { limit: PROCESSING_CARD_LIMIT }],
    queryFn: getQueryFn({ schema: ZRecentUploads }),
    refetchInterval: RECENT_UPLOADS_REFETCH_INTERVAL_MS,
  });
}

/**
 * What the dashboard's refresh button reads again: its own figures, the mailbox panel and the document
 * status overview (report), whichever of them are on screen.
 */
export const DASHBOARD_RESOURCES = ['stats', 'seasons', 'uploads', 'health', 'gmail', 'report'] as const;

export const isDashboardQuery = (query: Query): boolean => queryKeyReadsAny(query.queryKey, DASHBOARD_RESOURCES);
