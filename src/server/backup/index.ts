export { ArchiveError, MIN_PASSPHRASE_LENGTH, passphraseProblem } from './archive';
export { createBackup, type BackupProgress, type BackupSummary } from './backup';
export { recordRestore, restoreBackup, RestoreRefused, verifyDocuments, type RestoreProgress, type RestoreSummary, type VerifyResult } from './restore';
export { ARCHIVE_NAME, archiveName, pruneArchives, writeBackup, type WrittenArchive } from './retention';
export { describeFailure } from './describe-failure';
export { DestinationError, openDestination, readArchiveAt, type BackupDestination, type OpenBucket } from './destination';
export { registerBackupRoutes } from './backup.routes';
export { BACKUP_CHECK_MS, createNightlyBackups, megabytes, type NightlyBackups } from './nightly-backup';
