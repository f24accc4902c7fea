export { ArchiveError, MIN_PASSPHRASE_LENGTH, passphraseProblem } from './archive';
export { createBackup, type BackupProgress, type BackupSummary } from './backup';
export { recordRestore, restoreBackup, RestoreRefused, verifyDocuments, type RestoreProgress, type RestoreSummary, type VerifyResult } from './restore';
export { ARCHIVE_NAME, archiveName, pruneArchives } from './retention';
export { describeFailure } from './describe-failure';
