export { registerHealthRoutes } from './health.routes';
export { checkHealth, databaseCheck, formWebhookCheck, notConfiguredCheck, storageCheck, VIRUS_SCANNER_NOT_SET_UP } from './health.service';
export { scanningHealthCheck, withFailedScanCount } from './scanning-check';
