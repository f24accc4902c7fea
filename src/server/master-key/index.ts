export { registerMasterKeyRoutes } from './master-key.routes';
export { createMasterKeyBackupService, type MasterKeyBackupService } from './master-key.service';
