import { describe, expect, it } from 'vitest';
import { DEFAULT_USER_FILTERS, hasActiveUserFilters, parseUserFilters, serializeUserFilters, userListQuery } from './user-filters';

describe('parseUserFilters', () => {
  it('reads search, role and status from the query string', () => {
    expect(parseUserFilters('?search=reyes&role=admin&status=pending')).toEqual({ search: 'reyes', role: 'admin', status: 'pending' });
    expect(parseUserFilters('role=viewer')).toEqual({ search: '', role: 'viewer', status: 'all' });
  });

  it('falls back to the defaults for anything unknown and cuts a search longer than the server takes', () => {
    expect(parseUserFilters('')).toEqual(DEFAULT_USER_FILTERS);
    expect(parseUserFilters('?role=owner&status=Active&page=3')).toEqual(DEFAULT_USER_FILTERS);
    expect(parseUserFilters(`?search=${'x'.repeat(150)}`).search).toBe('x'.repeat(100));
  });
});

describe('serializeUserFilters', () => {
  it('leaves out every default, so a plain /users stays plain', () => {
    expect(serializeUserFilters(DEFAULT_USER_FILTERS)).toBe('');
    expect(serializeUserFilters({ search: '   ', role: 'all', status: 'all' })).toBe('');
  });

  it('writes what narrows the list, the search trimmed and encoded', () => {
    expect(serializeUserFilters({ search: ' Ann Lee ', role: 'moderator', status: 'inactive' })).toBe('search=Ann+Lee&role=moderator&status=inactive');
    expect(serializeUserFilters({ search: 'a&b@x.org', role: 'all', status: 'active' })).toBe('search=a%26b%40x.org&status=active');
  });

  it('round-trips through parseUserFilters', () => {
    const filters = { search: '100% sure', role: 'viewer', status: 'pending' } as const;
    expect(parseUserFilters(serializeUserFilters(filters))).toEqual(filters);
  });
});

describe('hasActiveUserFilters and userListQuery', () => {
  it('counts a blank search as no filter', () => {
    expect(hasActiveUserFilters({ ...DEFAULT_USER_FILTERS, search: '  ' })).toBe(false);
    expect(hasActiveUserFilters({ ...DEFAULT_USER_FILTERS, status: 'inactive' })).toBe(true);
  });

  it('sends only what narrows the list to GET /api/users', () => {
    expect(userListQuery(DEFAULT_USER_FILTERS)).toEqual({});
    expect(userListQuery({ search: ' okafor ', role: 'viewer', status: 'all' })).toEqual({ search: 'okafor', role: 'viewer' });
  });
});
