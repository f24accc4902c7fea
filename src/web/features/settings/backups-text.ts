import type { TBackupResult, TBackupState } from '../../../contract';

export const BACKUPS_DESCRIPTION =
  'Every night the server writes an encrypted copy of everything (database and documents) into a folder on the server or in an S3 bucket. Choose a folder on another disk, or a bucket, so one broken disk cannot take both.';

export const BACKUPS_RESTORE_HINT =
  'A backup opens only with both the backup passphrase and the master key; keep them apart. Whoever runs the server restores one with npm run restore.';

export const PASSPHRASE_MISSING =
  'No backup can be made yet: whoever runs the server must set CLEARBASE_BACKUP_PASSPHRASE when starting it. The folder, hour and number kept can be saved already.';

export const NO_BACKUP_YET = 'No backup has been made yet.';

/** What the nightly backup's form starts from when none is set. */
export const BACKUP_DEFAULTS = { folder: '', hour: 2, keep: 14 } as const;

/** An hour of the day as a clock time: 2 → "02:00". */
export const hourLabel = (hour: number): string => `${String(hour).padStart(2, '0')}:00`;

/** Every hour of the day, 0 to 23. */
export const HOURS: readonly number[] = Array.from({ length: 24 }, (_, hour) => hour);

/** A size in megabytes with one decimal, as the server's own messages write it (1 MB = 1,000,000 bytes); at least "0.1 MB" for a non-empty file. */
export function megabytes(bytes: number): string {
  const mb = bytes / 1e6;
  const shown = bytes > 0 && mb < 0.1 ? 0.1 : Math.round(mb * 10) / 10;
  return `${shown.toLocaleString('en', { minimumFractionDigits: 1, maximumFractionDigits: 1 })} MB`;
}

/** The last archive's particulars, e.g. "14.4 MB, 2,878 files"; null when nothing was written. */
export function lastResultFigures(last: TBackupResult): string | null {
  const parts: string[] = [];
  if (last.bytes !== null) parts.push(megabytes(last.bytes));
  if (last.files !== null) parts.push(`${last.files.toLocaleString('en')} ${last.files === 1 ? 'file' : 'files'}`);
  return parts.length > 0 ? parts.join(', ') : null;
}

/** When the next nightly backup starts, or why none will. */
export function nextBackupText(state: TBackupState, when: (iso: string) => string): string {
  if (state.nextAt) return `Next backup: ${when(state.nextAt)}`;
  if (!state.schedule) return 'No nightly backup is set: choose a folder and save.';
  if (!state.passphraseSet) return 'No nightly backup will run until the server has its backup passphrase.';
  return 'No nightly backup is planned.';
}

/** Why "Back up now" cannot be used at the moment; null when it can. */
export function runBlockedReason(state: TBackupState): string | null {
  if (state.running) return 'A backup is being made now.';
  if (!state.passphraseSet) return 'The server has no backup passphrase yet.';
  if (!state.schedule) return 'Choose a folder and save first.';
  return null;
}

/** The words said once a backup started here has ended. */
export function finishedText(last: TBackupResult | null): string {
  if (!last) return 'The backup ended without a result. Please try again.';
  return last.ok ? `Backup finished. ${last.message}` : `Backup failed. ${last.message}`;
}
