import {
  MAX_USER_SEARCH_LENGTH,
  USER_ROLE_FILTERS,
  USER_STATUS_FILTERS,
  type TUserListQuery,
  type TUserRoleFilter,
  type TUserStatusFilter,
} from '../../../contract';

/** The User Management screen's filters, as kept in the URL query string (`?search=…&role=…&status=…`). */
export interface UserFilters {
  search: string;
  role: TUserRoleFilter;
  status: TUserStatusFilter;
}

export const DEFAULT_USER_FILTERS: UserFilters = { search: '', role: 'all', status: 'all' };

export const USER_ROLE_FILTER_LABELS: Record<TUserRoleFilter, string> = {
  all: 'All roles',
  admin: 'Admin',
  moderator: 'Moderator',
  viewer: 'Viewer',
};

export const USER_STATUS_FILTER_LABELS: Record<TUserStatusFilter, string> = {
  all: 'All statuses',
  active: 'Active',
  inactive: 'Inactive',
  pending: 'Pending',
};

const isOneOf = <T extends string>(values: readonly T[], value: string | null): value is T =>
  value !== null && (values as readonly string[]).includes(value);

/** Filters from a query string; anything unknown falls back to its default, a search longer than the server takes is cut. */
export function parseUserFilters(search: string): UserFilters {
  const params = new URLSearchParams(search);
  const role = params.get('role');
  const status = params.get('status');
  return {
    search: (params.get('search') ?? '').slice(0, MAX_USER_SEARCH_LENGTH),
    role: isOneOf(USER_ROLE_FILTERS, role) ? role : 'all',
    status: isOneOf(USER_STATUS_FILTERS, status) ? status : 'all',
  };
}

/** The query string (without '?'), defaults left out so a plain /users stays plain. */
export function serializeUserFilters(filters: UserFilters): string {
  const params = new URLSearchParams();
  const search = filters.search.trim();
  if (search !== '') params.set('search', search);
  if (filters.role !== 'all') params.set('role', filters.role);
  if (filters.status !== 'all') params.set('status', filters.status);
  return params.toString();
}

export const hasActiveUserFilters = (filters: UserFilters): boolean =>
  filters.search.trim() !== '' || filters.role !== 'all' || filters.status !== 'all';

/** The query of GET /api/users for the filters: only what narrows the list. */
export function userListQuery(filters: UserFilters): TUserListQuery {
  const query: TUserListQuery = {};
  const search = filters.search.trim();
  if (search !== '') query.search = search;
  if (filters.role !== 'all') query.role = filters.role;
  if (filters.status !== 'all') query.status = filters.status;
  return query;
}
