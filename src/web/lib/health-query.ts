import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZHealth } from '../../contract';
import { getQueryFn } from './api-client';

/** Service health is read again every minute while a screen shows it. */
export const HEALTH_REFETCH_INTERVAL_MS = 60_000;

/** GET /api/health: the state of each service Clearbase depends on (the dashboard and System Settings show it). */
export const healthQueryOptions = queryOptions({
  queryKey: ['api', 'health'],
  queryFn: getQueryFn({ schema: ZHealth }),
  refetchInterval: HEALTH_REFETCH_INTERVAL_MS,
});

export function useHealth() {
  return useQuery(healthQueryOptions);
}
