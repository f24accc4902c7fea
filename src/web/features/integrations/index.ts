/** The form builders' settings and deliveries: a card of System Settings → Integrations (no screen of its own). */
export { FormBuildersCard } from './components/form-builders-card';
