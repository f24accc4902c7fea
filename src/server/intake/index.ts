export { type FormIntakeDeps } from './form/form-intake.service';
export { createIntakeThreads } from './intake-threads';
export { registerIntakeRoutes } from './intake.routes';
export { stageUpload } from './stage-file';
export { registerMailboxRoutes, createMailboxService, type MailboxService } from './mailbox';
export { registerIntegrationRoutes } from './providers/integrations.routes';
export { createIntegrationsService, type IntegrationsService } from './providers/integrations.service';
