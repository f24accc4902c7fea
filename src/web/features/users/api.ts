import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ZUserList, ZUserResponse, type TCreateUser, type TUpdateUser } from '../../../contract';
import { apiRequest, getQueryFn } from '@/lib/api-client';
import { userListQuery, type UserFilters } from './user-filters';

/** Every users query starts with this key; each change invalidates it. */
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

/** POST /api/users. */
export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: [...USERS_KEY, 'create'],
    mutationFn: (user: TCreateUser) => apiRequest('POST', '/api/users', user, { schema: ZUserResponse }),
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
