import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZHealth } from '../../../contract';
import { getQueryFn } from '../../lib/api-client';

/** Spec §9: the dashboard polls service health every 60 s. */
export const HEALTH_REFETCH_INTERVAL_MS = 60_000;

export const healthQueryOptions = queryOptions({
  queryKey: ['api', 'health'],
  queryFn: getQueryFn({ schema: ZHealth }),
  refetchInterval: HEALTH_REFETCH_INTERVAL_MS,
});

export function useHealth() {
  return useQuery(healthQueryOptions);
}
