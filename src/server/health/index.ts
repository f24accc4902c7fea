export { registerHealthRoutes } from './health.routes';
export { checkHealth, databaseCheck, formWebhookCheck, notConfiguredCheck, storageCheck } from './health.service';
export { scanningHealthCheck, withFailedScanCount } from './scanning-check';
