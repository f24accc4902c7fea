import { describe, expect, it } from 'vitest';
import { ACTIVITY_PAGE_SIZE, activityQuery, activitySearch, parseActivityPerson, parseUsersTab } from './users-tabs';

const ID = '3f2b8c1e-4d5a-4b6c-8d7e-9f0a1b2c3d4e';

describe('parseUsersTab', () => {
  it('reads ?tab=, the list by default', () => {
    expect(parseUsersTab('')).toBe('users');
    expect(parseUsersTab('?tab=activity')).toBe('activity');
    expect(parseUsersTab('?tab=other&role=admin')).toBe('users');
  });
});

describe('the Activity person', () => {
  it('reads a user id or shared from ?person=, anything else as everyone', () => {
    expect(parseActivityPerson(`?tab=activity&person=${ID}`)).toBe(ID);
    expect(parseActivityPerson('?person=shared')).toBe('shared');
    expect(parseActivityPerson('?person=robert')).toBe('all');
    expect(parseActivityPerson('?tab=activity')).toBe('all');
  });

  it('writes the tab and the person, leaving out everyone', () => {
    expect(activitySearch('all')).toBe('tab=activity');
    expect(activitySearch(ID)).toBe(`tab=activity&person=${ID}`);
    expect(parseActivityPerson(activitySearch('shared'))).toBe('shared');
  });
});

describe('activityQuery', () => {
  it('asks for a page, for one person, before the oldest entry shown', () => {
    expect(activityQuery('all', undefined)).toEqual({ limit: ACTIVITY_PAGE_SIZE });
    expect(activityQuery(ID, 120)).toEqual({ userId: ID, before: 120, limit: ACTIVITY_PAGE_SIZE });
    expect(activityQuery('shared', undefined)).toEqual({ userId: 'shared', limit: ACTIVITY_PAGE_SIZE });
  });
});
