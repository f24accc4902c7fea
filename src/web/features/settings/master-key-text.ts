import type { TMasterKeyBackup } from '../../../contract';

/** The panel's badge for each state. */
export const MASTER_KEY_STATE_LABELS: Record<TMasterKeyBackup['state'], string> = {
  not_downloaded: 'Not backed up',
  awaiting_confirmation: 'Waiting for confirmation',
  backed_up: 'Backed up',
};

export const MASTER_KEY_DESCRIPTION =
  'Every stored document is encrypted, and one master key opens them all. Without it no document can be opened, not even from a backup.';

export const MASTER_KEY_DOWNLOAD_WARNING =
  'The sheet can be downloaded only once. Print it straight away, keep the paper locked away apart from the backups, and delete the downloaded file.';

/** One sentence on where things stand, with who did what when (`when` writes an instant for people). */
export function masterKeyStatusText(backup: TMasterKeyBackup, when: (iso: string) => string): string {
  if (backup.state === 'backed_up' && backup.confirmed) {
    return `Backed up: ${backup.confirmed.by} confirmed holding the recovery sheet on ${when(backup.confirmed.at)}.`;
  }
  if (backup.state === 'awaiting_confirmation' && backup.sheetDownloaded) {
    return `${backup.sheetDownloaded.by} downloaded the recovery sheet on ${when(backup.sheetDownloaded.at)}. Type the first characters of the key from the sheet to confirm it is kept.`;
  }
  if (backup.keyReplaced) {
    return 'The master key was replaced since the last recovery sheet, and the old sheet no longer opens the documents. Download the new key’s sheet.';
  }
  return 'The master key has never been backed up. Download its recovery sheet, print it and keep it somewhere safe.';
}
