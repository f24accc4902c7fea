import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { ZSeasonRequirements, ZSeasonResponse, type TCreateSeason, type TSeasonRequirementsInput, type TUpdateSeason } from '../../../contract';
import { apiRequest, getQueryFn } from '@/lib/api-client';
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

const requirementsQueryOptions = (id: string) =>
  queryOptions({ queryKey: ['api', 'seasons', id, 'requirements'], queryFn: getQueryFn({ schema: ZSeasonRequirements }) });

/** GET /api/seasons/{id}/requirements: the season's rules, league age day, divisions' ages and file removal. */
export function useSeasonRequirements(id: string) {
  return useQuery(requirementsQueryOptions(id));
}

/**
 * PUT /api/seasons/{id}/requirements. Every player's status in the season is recomputed, so every answer but
 * the session is read again (figures, lists, reports).
 */
export function useSaveSeasonRequirements() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, requirements }: { id: string; requirements: TSeasonRequirementsInput }) =>
      apiRequest('PUT', `/api/seasons/${encodeURIComponent(id)}/requirements`, requirements, { schema: ZSeasonRequirements }),
    onSuccess: (saved, { id }) => {
      queryClient.setQueryData(requirementsQueryOptions(id).queryKey, saved);
      return queryClient.invalidateQueries({ predicate: (query) => !isSessionQueryKey(query.queryKey) });
    },
  });
}
