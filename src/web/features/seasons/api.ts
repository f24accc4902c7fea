import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { ZSeasonResponse, type TCreateSeason, type TUpdateSeason } from '../../../contract';
import { apiRequest } from '@/lib/api-client';
import { isSessionQueryKey } from '@/lib/query-keys';
import { seasonsQueryOptions } from '@/lib/seasons-query';

/**
 * After a change of seasons: the list again, and when the current season changed, every other answer too
 * (the figures, reports and lists read with no season picked are the current season's).
 */
function refreshAfterSeasonChange(queryClient: QueryClient, currentChanged: boolean): Promise<void> {
  if (currentChanged) return queryClient.invalidateQueries({ predicate: (query) => !isSessionQueryKey(query.queryKey) });
  return queryClient.invalidateQueries({ queryKey: seasonsQueryOptions.queryKey, exact: true });
}

/** POST /api/seasons: the new season (current when it is the first). */
export function useCreateSeason() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (season: TCreateSeason) => apiRequest('POST', '/api/seasons', season, { schema: ZSeasonResponse }),
    onSuccess: ({ season }) => refreshAfterSeasonChange(queryClient, season.isCurrent),
  });
}

/** PATCH /api/seasons/{id}; the list is read again on failure too (someone else may have changed it). */
export function useUpdateSeason() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, patch }: { id: string; patch: TUpdateSeason }) =>
      apiRequest('PATCH', `/api/seasons/${encodeURIComponent(id)}`, patch, { schema: ZSeasonResponse }),
    onSettled: (_data, _error, { patch }) => refreshAfterSeasonChange(queryClient, patch.isCurrent === true),
  });
}
