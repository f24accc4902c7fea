import { queryOptions } from '@tanstack/react-query';
import { ZSystemSettings } from '../../contract';
import { getQueryFn } from './api-client';

/** GET /api/settings. Shared by the Settings screen and the live connection, which stays closed while real-time updates are off. */
export const SYSTEM_SETTINGS_QUERY_KEY = ['api', 'settings'] as const;

/** While real-time updates are off nothing tells this tab they came back on: it asks again this often. */
export const REALTIME_OFF_RECHECK_MS = 60_000;

export const systemSettingsQueryOptions = queryOptions({
  queryKey: SYSTEM_SETTINGS_QUERY_KEY,
  queryFn: getQueryFn({ schema: ZSystemSettings }),
});
