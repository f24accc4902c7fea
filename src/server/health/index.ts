export { registerHealthRoutes } from './health.routes';
export { checkHealth, databaseCheck, formWebhookCheck, notConfiguredCheck, storageCheck, VIRUS_SCANNER_NOT_SET_UP } from './health.service';
export { scanningHealthCheck, withFailedScanCount } from './scanning-check';
export { MASTER_KEY_NOT_BACKED_UP, withMasterKeyBackup } from './master-key-check';
export { BACKUP_STALE_MS, withLastBackup } from './backup-check';
