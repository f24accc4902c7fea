import { queryOptions, useQuery } from '@tanstack/react-query';
import { ZInstallation, ZSystemSettings } from '../../contract';
import { getQueryFn } from './api-client';

/**
 * GET /api/settings. Read by the Settings screen, the User Guide and the live connection, which stays closed
 * while real-time updates are off.
 */
export const SYSTEM_SETTINGS_QUERY_KEY = ['api', 'settings'] as const;

/** While real-time updates are off nothing tells this tab they came back on: it asks again this often. */
export const REALTIME_OFF_RECHECK_MS = 60_000;

export const systemSettingsQueryOptions = queryOptions({
  queryKey: SYSTEM_SETTINGS_QUERY_KEY,
  queryFn: getQueryFn({ schema: ZSystemSettings }),
});

/** GET /api/settings: the switches and fields of System Settings. */
export function useSystemSettings() {
  return useQuery(systemSettingsQueryOptions);
}

export const installationQueryOptions = queryOptions({
  queryKey: [...SYSTEM_SETTINGS_QUERY_KEY, 'installation'],
  queryFn: getQueryFn({ schema: ZInstallation }),
});

/** GET /api/settings/installation: storage, scanner, limits and formats of this installation. */
export function useInstallation() {
  return useQuery(installationQueryOptions);
}
