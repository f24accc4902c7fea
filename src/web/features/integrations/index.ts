/** The form webhook and the form builders' settings and deliveries: cards of System Settings → Integrations (no screen of their own). */
export { FormBuildersCard } from './components/form-builders-card';
export { FormWebhookCard } from './components/form-webhook-card';
