import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { ZSession, type TLoginRequest, type TPermission, type TSession } from '../../contract';
import { ApiError, apiRequest, getErrorMessage, getQueryFn } from './api-client';
import { isSessionQueryKey, SESSION_QUERY_KEY } from './query-keys';
import { toast } from './toast-store';

/** Signed out, keeping the sign-in mode last heard from the server (so the gate shows the right fields). */
const signedOut = (queryClient: QueryClient): TSession => ({
  authenticated: false,
  signInMode: queryClient.getQueryData<TSession>(SESSION_QUERY_KEY)?.signInMode ?? 'shared',
});

/** Drops every cached answer except the session, so a new sign-in never shows the last one's data. */
function clearSessionData(queryClient: QueryClient): void {
  queryClient.removeQueries({ predicate: (query) => !isSessionQueryKey(query.queryKey) });
}

export function useSession() {
  return useQuery({ queryKey: SESSION_QUERY_KEY, queryFn: getQueryFn({ schema: ZSession }) });
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: TLoginRequest) => apiRequest('POST', '/api/auth/login', request, { schema: ZSession }),
    onSuccess: (session) => {
      clearSessionData(queryClient);
      queryClient.setQueryData(SESSION_QUERY_KEY, session);
    },
  });
}

export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest('POST', '/api/auth/logout', undefined, { schema: ZSession }),
    onSuccess: () => {
      clearSessionData(queryClient);
      queryClient.setQueryData(SESSION_QUERY_KEY, signedOut(queryClient));
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 401) {
        // Already signed out on the server; nothing went wrong from the user's point of view.
        clearSessionData(queryClient);
        queryClient.setQueryData(SESSION_QUERY_KEY, signedOut(queryClient));
        return;
      }
      toast({ title: 'Logout failed', description: getErrorMessage(error), variant: 'destructive' });
      // Whatever happened, show what the server really thinks of the session.
      void queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY, exact: true });
    },
  });
}

/**
 * What the signed-in person may do, from the session the server answered: controls a role cannot use are
 * hidden with this (the server refuses them anyway). Before the session is known, nothing is allowed.
 */
export function usePermissions() {
  const session = useSession();
  const permissions = session.data?.permissions;
  // The same check while the session's permissions are the same (a refetch keeps an equal answer's identity).
  const can = useMemo(() => permissionCheck(permissions), [permissions]);
  return { principal: session.data?.principal, can };
}

/** Whether the signed-in role holds a permission: what the screens' helpers take to decide which controls to show. */
export type Can = (permission: TPermission) => boolean;

/** The check for the permissions a session answered (none before it is known). */
export function permissionCheck(permissions: readonly TPermission[] | undefined): Can {
  const granted = new Set<TPermission>(permissions ?? []);
  return (permission) => granted.has(permission);
}
