export { type FormIntakeDeps } from './form-intake.service';
export { createIntakeThreads } from './intake-threads';
export { registerIntakeRoutes } from './intake.routes';
export { stageUpload } from './stage-file';
