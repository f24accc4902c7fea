export { getSetting, insertSettingIfAbsent, putSetting } from './settings.repository';
export { registerSettingsRoutes } from './settings.routes';
export { createSettingsService, type SettingsService } from './settings.service';
export { SETTINGS_RECHECK_MS, createSystemSettingsCache, readSystemSettings } from './system-settings';
