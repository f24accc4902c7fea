import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  BACKUP_RUN_PATH,
  BACKUP_SCHEDULE_PATH,
  MASTER_KEY_CONFIRM_PATH,
  MASTER_KEY_SHEET_PATH,
  masterKeySheetFileName,
  ZBackupState,
  ZMasterKeyBackup,
  ZSystemSettings,
  type TBackupScheduleInput,
  type TMasterKeyConfirm,
  type TSystemSettingsPatch,
} from '../../../contract';
import { apiRequest, fetchApiFile, getErrorMessage, getQueryFn } from '@/lib/api-client';
import { saveBlobAs } from '@/lib/download';
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

/** GET /api/settings/master-key: whether the master key has been backed up (admins). */
export const masterKeyQueryOptions = queryOptions({
  queryKey: ['api', 'settings', 'master-key'],
  queryFn: getQueryFn({ schema: ZMasterKeyBackup }),
});

export function useMasterKeyBackup(enabled: boolean) {
  return useQuery({ ...masterKeyQueryOptions, enabled });
}

/**
 * POST /api/settings/master-key/recovery-sheet: the sheet, saved through the browser's download. It is handed
 * out once, so the state is read again whether it worked or not (another admin may have taken it).
 */
export function useDownloadRecoverySheet() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const file = await fetchApiFile(MASTER_KEY_SHEET_PATH, undefined, 'POST');
      saveBlobAs(file.blob, file.fileName ?? masterKeySheetFileName(new Date().toISOString().slice(0, 10)));
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: masterKeyQueryOptions.queryKey, exact: true }),
  });
}

/** POST /api/settings/master-key/confirm: the characters typed from the sheet; health drops its warning once they match. */
export function useConfirmMasterKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TMasterKeyConfirm) => apiRequest('POST', MASTER_KEY_CONFIRM_PATH, body, { schema: ZMasterKeyBackup }),
    onSuccess: (state) => {
      queryClient.setQueryData(masterKeyQueryOptions.queryKey, state);
      void queryClient.invalidateQueries({ queryKey: ['api', 'health'], exact: true });
    },
  });
}

/** While a backup runs, its state is read again this often until it has ended. */
export const BACKUP_POLL_MS = 2_000;

/** GET /api/backups: the nightly backup's schedule and last result (admins); read again every 2 s while one runs. */
export const backupsQueryOptions = queryOptions({
  queryKey: ['api', 'backups'],
  queryFn: getQueryFn({ schema: ZBackupState }),
});

export function useBackups(enabled: boolean) {
  return useQuery({ ...backupsQueryOptions, enabled, refetchInterval: (query) => (query.state.data?.running ? BACKUP_POLL_MS : false) });
}

/** PUT /api/backups/schedule: the folder, hour and number kept, or null to stop the nightly backup. */
export function useSaveBackupSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TBackupScheduleInput) => apiRequest('PUT', BACKUP_SCHEDULE_PATH, body, { schema: ZBackupState }),
    onSuccess: (state) => {
      queryClient.setQueryData(backupsQueryOptions.queryKey, state);
      void queryClient.invalidateQueries({ queryKey: ['api', 'health'], exact: true });
    },
  });
}

/** POST /api/backups/run: starts a backup now; the answer says it runs, and the card polls until it has ended. */
export function useRunBackup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest('POST', BACKUP_RUN_PATH, undefined, { schema: ZBackupState }),
    onSuccess: (state) => queryClient.setQueryData(backupsQueryOptions.queryKey, state),
    // A refusal (one already runs, another admin changed the schedule) is best explained by the state as it is now.
    onError: () => void queryClient.invalidateQueries({ queryKey: backupsQueryOptions.queryKey, exact: true }),
  });
}
