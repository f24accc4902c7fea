import { MutationCache, QueryCache, QueryClient, type QueryKey } from '@tanstack/react-query';
import { ApiError, getErrorMessage, getQueryFn } from './api-client';
import { isSessionQueryKey, SESSION_QUERY_KEY } from './query-keys';
import { toast, type ToastInput } from './toast-store';

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

/**
 * True when the server refused the call for the signed-in role (403): the role may have changed while the page
 * was open. The session query itself is left out, so a refusal of it cannot loop.
 */
export function isForbiddenError(error: unknown, queryKey?: QueryKey): boolean {
  if (!(error instanceof ApiError) || error.status !== 403) return false;
  return !(queryKey && isSessionQueryKey(queryKey));
}

/**
 * What a failed call does to the session, in one place: a lost session (401) or a refusal for the role (403)
 * has the session read again, so the access gate takes over, or the screens hide what the role no longer
 * holds. Every query and mutation passes through here; a file read outside them (the document viewer) calls it too.
 */
export function rereadSessionAfter(client: QueryClient, error: unknown, queryKey?: QueryKey): void {
  if (isSessionLostError(error, queryKey)) {
    void client.invalidateQueries({ queryKey: SESSION_QUERY_KEY, exact: true });
  } else if (isForbiddenError(error, queryKey)) {
    // Several calls refused at once share one reading of the session.
    void client.invalidateQueries({ queryKey: SESSION_QUERY_KEY, exact: true }, { cancelRefetch: false });
  }
}

/** The toast of an action the server refused for the role: its own message, which says to ask an admin. */
export function refusedToast(error: unknown): ToastInput {
  return { title: 'Not Allowed', description: getErrorMessage(error), variant: 'destructive' };
}

/**
 * The app's query client. An action the server refuses for the role (403) always ends in a toast with the
 * server's message: this one, shown first, or the action's own failure toast (which says the same message, as
 * every one uses getErrorMessage) in its place; the form or dialog it came from may be gone by then, as the
 * session read again hides it. A refused read shows the message where the screen shows its load error.
 */
export function createQueryClient({ showToast = toast }: { showToast?: (input: ToastInput) => unknown } = {}): QueryClient {
  // The cache callbacks run only after construction, so they can safely reach `client`.
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => rereadSessionAfter(client, error, query.queryKey),
    }),
    mutationCache: new MutationCache({
      onError: (error) => {
        if (isForbiddenError(error)) showToast(refusedToast(error));
        rereadSessionAfter(client, error);
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
