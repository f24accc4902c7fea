/** System Settings: health, integrations, notifications and security. */
export { SettingsPage } from './components/settings-page';
