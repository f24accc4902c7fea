import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ZSystemSettings, type TSystemSettingsPatch } from '../../../contract';
import { apiRequest, getErrorMessage } from '@/lib/api-client';
import { installationQueryOptions, SYSTEM_SETTINGS_QUERY_KEY } from '@/lib/system-settings-query';
import { toast } from '@/lib/toast-store';
import { describeSettingsChange } from './settings-text';

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
