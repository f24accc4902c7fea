import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ZInstallation, ZSystemSettings, type TSystemSettingsPatch } from '../../../contract';
import { apiRequest, getErrorMessage, getQueryFn } from '@/lib/api-client';
import { SYSTEM_SETTINGS_QUERY_KEY, systemSettingsQueryOptions } from '@/lib/system-settings-query';
import { toast } from '@/lib/toast-store';
import { describeSettingsChange } from './settings-text';

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

/** PATCH /api/settings: saves at once and says so in a toast; a failure leaves the screen showing what is saved. */
export function useUpdateSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: TSystemSettingsPatch) => apiRequest('PATCH', '/api/settings', patch, { schema: ZSystemSettings }),
    onSuccess: (settings, patch) => {
      queryClient.setQueryData(SYSTEM_SETTINGS_QUERY_KEY, settings);
      void queryClient.invalidateQueries({ queryKey: installationQueryOptions.queryKey, exact: true });
      // Health reflects the antivirus switch.
      void queryClient.invalidateQueries({ queryKey: ['api', 'health'], exact: true });
      toast({ title: 'Settings saved', description: describeSettingsChange(patch) });
    },
    onError: (error) => {
      toast({ title: 'Settings not saved', description: getErrorMessage(error), variant: 'destructive' });
    },
  });
}
