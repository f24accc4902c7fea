import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { ZRecoveryCodes, ZSessionList, ZSessionsEnded, ZTwoFactorSetup } from '../../../contract';
import { apiRequest, getQueryFn } from '@/lib/api-client';
import { SESSION_QUERY_KEY } from '@/lib/query-keys';

/** GET /api/auth/sessions: the signed-in person's own sessions, this one marked `current`. */
export const OWN_SESSIONS_KEY = ['api', 'auth', 'sessions'] as const;

export function useOwnSessions(enabled: boolean) {
  return useQuery(queryOptions({ queryKey: OWN_SESSIONS_KEY, queryFn: getQueryFn({ schema: ZSessionList }), enabled, refetchOnMount: 'always' }));
}

/** DELETE /api/auth/sessions: every session of this person but this one ends. */
export function useEndOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest('DELETE', '/api/auth/sessions', undefined, { schema: ZSessionsEnded }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: OWN_SESSIONS_KEY, exact: true }),
  });
}

/** POST /api/auth/two-factor/setup: a new secret (QR code and key), not active until a code confirms it. */
export function useStartTwoFactorSetup() {
  return useMutation({
    mutationFn: () => apiRequest('POST', '/api/auth/two-factor/setup', undefined, { schema: ZTwoFactorSetup }),
  });
}

/** POST /api/auth/two-factor/enable: the first code proves the app has the secret; answers the recovery codes. */
export function useEnableTwoFactor() {
  return useMutation({
    mutationFn: (code: string) => apiRequest('POST', '/api/auth/two-factor/enable', { code }, { schema: ZRecoveryCodes }),
  });
}

/** DELETE /api/auth/two-factor: asks for the password again. */
export function useDisableTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (password: string) => {
      await apiRequest('DELETE', '/api/auth/two-factor', { password });
    },
    onSuccess: () => refreshAfterTwoFactorChange(queryClient),
  });
}

/** The person's record (its 2FA badge) and the session (an admin's setup requirement) change with two-step sign-in. */
export function refreshAfterTwoFactorChange(queryClient: QueryClient): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: ['api', 'users'] }),
    queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY, exact: true }),
  ]);
}
