import { keepPreviousData, queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ZSessionList,
  ZSessionsEnded,
  ZUserActivity,
  ZUserCreated,
  ZUserInvitation,
  ZUserList,
  ZUserResponse,
  type TCreateUser,
  type TUpdateUser,
} from '../../../contract';
import { apiRequest, getQueryFn, queryKeyToUrl } from '@/lib/api-client';
import { userListQuery, type UserFilters } from './user-filters';
import { activityQuery, type ActivityPerson } from './users-tabs';

/** Every users query starts with this key; each change invalidates it (the activity too: a change is an entry). */
export const USERS_KEY = ['api', 'users'] as const;

/** GET /api/users?search&role&status. */
export const userListQueryOptions = (filters: UserFilters) =>
  queryOptions({
    queryKey: [...USERS_KEY, { ...userListQuery(filters) }],
    queryFn: getQueryFn({ schema: ZUserList }),
    // A new filter keeps the last list on screen (dimmed) until its answer arrives, so the table does not jump.
    placeholderData: keepPreviousData,
  });

export function useUserList(filters: UserFilters) {
  return useQuery(userListQueryOptions(filters));
}

const userUrl = (id: string) => `/api/users/${encodeURIComponent(id)}`;

/** POST /api/users: the user (pending) and their invitation link. */
export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...USERS_KEY, 'create'],
    mutationFn: (user: TCreateUser) => apiRequest('POST', '/api/users', user, { schema: ZUserCreated }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: USERS_KEY }),
  });
}

/** PATCH /api/users/{id}; refreshed on failure too: a 404 means someone else deleted the user. */
export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...USERS_KEY, 'update'],
    mutationFn: ({ id, patch }: { id: string; patch: TUpdateUser }) => apiRequest('PATCH', userUrl(id), patch, { schema: ZUserResponse }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: USERS_KEY }),
  });
}

/** DELETE /api/users/{id} (204, no body). */
export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...USERS_KEY, 'delete'],
    mutationFn: async (id: string) => {
      await apiRequest('DELETE', userUrl(id));
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: USERS_KEY }),
  });
}

/** POST /api/users/{id}/invitation: a new invitation (pending) or a password-reset link (active); earlier links stop working. */
export function useNewInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...USERS_KEY, 'invitation'],
    mutationFn: (id: string) => apiRequest('POST', `${userUrl(id)}/invitation`, undefined, { schema: ZUserInvitation }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: USERS_KEY }),
  });
}

const sessionsKey = (id: string) => [...USERS_KEY, id, 'sessions'] as const;

/** GET /api/users/{id}/sessions, while the Sessions dialog is open. */
export function useUserSessions(id: string | null) {
  return useQuery({
    queryKey: sessionsKey(id ?? ''),
    queryFn: getQueryFn({ schema: ZSessionList }),
    enabled: id !== null,
    // Each opening shows where they are signed in now.
    refetchOnMount: 'always',
  });
}

/** DELETE /api/users/{id}/sessions: the person is signed out on every device. */
export function useEndUserSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...USERS_KEY, 'end-sessions'],
    mutationFn: (id: string) => apiRequest('DELETE', `${userUrl(id)}/sessions`, undefined, { schema: ZSessionsEnded }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: USERS_KEY }),
  });
}

/** DELETE /api/users/{id}/two-factor: they sign in with their password alone until they set it up again. */
export function useResetTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...USERS_KEY, 'reset-two-factor'],
    mutationFn: async (id: string) => {
      await apiRequest('DELETE', `${userUrl(id)}/two-factor`);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: USERS_KEY }),
  });
}

/** GET /api/users/activity, newest first, a page at a time: each next page is `before` the last one's oldest entry. */
export function useUserActivity(person: ActivityPerson) {
  return useInfiniteQuery({
    queryKey: [...USERS_KEY, 'activity', { person }],
    queryFn: ({ pageParam, signal }) =>
      apiRequest('GET', queryKeyToUrl(['api', 'users', 'activity', { ...activityQuery(person, pageParam) }]), undefined, { schema: ZUserActivity, signal }),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (page) => page.nextBefore ?? undefined,
  });
}
