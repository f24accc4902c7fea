import { ZUserActivityQuery, type TUserActivityQuery } from '../../../contract';

/** The User Management tabs, in the query string as ?tab= (the list is the default, without one). */
export const USERS_TABS = [
  { value: 'users', label: 'Users' },
  { value: 'activity', label: 'Activity' },
] as const;
export type UsersTab = (typeof USERS_TABS)[number]['value'];

export function parseUsersTab(search: string): UsersTab {
  const tab = new URLSearchParams(search).get('tab');
  return USERS_TABS.find((entry) => entry.value === tab)?.value ?? 'users';
}

/** Whose activity the Activity tab shows: everyone, the shared password, or one person (their id). */
export type ActivityPerson = 'all' | 'shared' | (string & {});

/** Entries asked for at a time; 'Load more' asks for the next as many before the oldest shown. */
export const ACTIVITY_PAGE_SIZE = 50;

/** The person in ?person=, checked with the contract's rule for userId; anything else is everyone. */
export function parseActivityPerson(search: string): ActivityPerson {
  const person = new URLSearchParams(search).get('person');
  if (person === null) return 'all';
  return ZUserActivityQuery.shape.userId.safeParse(person).success ? person : 'all';
}

/** The query string of the Activity tab (without '?'): the tab, and the person unless everyone. */
export function activitySearch(person: ActivityPerson): string {
  const params = new URLSearchParams({ tab: 'activity' });
  if (person !== 'all') params.set('person', person);
  return params.toString();
}

/** GET /api/users/activity for one page: `before` the oldest entry shown so far, absent for the first. */
export function activityQuery(person: ActivityPerson, before: number | undefined): TUserActivityQuery {
  const query: TUserActivityQuery = { limit: ACTIVITY_PAGE_SIZE };
  if (person !== 'all') query.userId = person;
  if (before !== undefined) query.before = before;
  return query;
}
