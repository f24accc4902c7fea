import { MutationCache, QueryCache, QueryClient, type QueryKey } from '@tanstack/react-query';
import { ApiError, getQueryFn } from './api-client';
import { isSessionQueryKey, SESSION_QUERY_KEY } from './query-keys';

/**
 * True when a failure means the session is gone, so the access gate should take over.
 * A wrong password also answers 401, and so does a sign-in that now asks for its second step: that is the
 * gate doing its job, not a lost session.
 */
export function isSessionLostError(error: unknown, queryKey?: QueryKey): boolean {
  if (!(error instanceof ApiError) || error.status !== 401) return false;
  if (error.code === 'INVALID_PASSWORD' || error.code === 'SECOND_FACTOR_REQUIRED') return false;
  return !(queryKey && isSessionQueryKey(queryKey));
}

export function createQueryClient(): QueryClient {
  // The cache callbacks run only after construction, so they can safely reach `client`.
  const resetSession = (): void => {
    void client.invalidateQueries({ queryKey: SESSION_QUERY_KEY, exact: true });
  };
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (isSessionLostError(error, query.queryKey)) resetSession();
      },
    }),
    mutationCache: new MutationCache({
      onError: (error) => {
        if (isSessionLostError(error)) resetSession();
      },
    }),
    // No polling unless a screen asks, no refetch on focus, data never stale (live events refresh it), no retries.
    defaultOptions: {
      queries: {
        queryFn: getQueryFn({ on401: 'throw' }),
        refetchInterval: false,
        refetchOnWindowFocus: false,
        staleTime: Infinity,
        retry: false,
      },
      mutations: { retry: false },
    },
  });
  return client;
}
