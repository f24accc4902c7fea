import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZSeasons } from '../../contract';
import { getQueryFn } from './api-client';

/** GET /api/seasons: newest first, one of them current; seasons change rarely, so it is read once. */
export const seasonsQueryOptions = queryOptions({
  queryKey: ['api', 'seasons'],
  queryFn: getQueryFn({ schema: ZSeasons }),
});

/** The seasons, for the season selects of the dashboard, the player screens, the reports and the notifications. */
export function useSeasons() {
  return useQuery(seasonsQueryOptions);
}
