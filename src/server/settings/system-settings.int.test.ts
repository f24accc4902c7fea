import { expect, it } from 'vitest';
import { SYSTEM_SETTINGS_DEFAULTS } from '../../contract';
import { describeEachDatabase } from '../../../tests/support/databases';
import { createSystemSettingsCache, readSystemSettings, SETTINGS_RECHECK_MS, updateSystemSettings } from './system-settings';

describeEachDatabase('System Settings store', ({ getDb }) => {
  it('keeps following the defaults for what was never saved, the installation’s own included', async () => {
    const defaults = { ...SYSTEM_SETTINGS_DEFAULTS, sessionTimeoutMinutes: 120 };
    await updateSystemSettings(getDb(), { teamsNotifications: true }, 'system', { defaults });
    expect(await readSystemSettings(getDb(), defaults)).toEqual({ ...defaults, teamsNotifications: true });
    // Another environment value later: still not frozen by the earlier save.
    expect((await readSystemSettings(getDb(), { ...defaults, sessionTimeoutMinutes: 30 })).sessionTimeoutMinutes).toBe(30);
    expect((await readSystemSettings(getDb())).sessionTimeoutMinutes).toBe(SYSTEM_SETTINGS_DEFAULTS.sessionTimeoutMinutes);
  });

  it('is read by each instance at most once per SETTINGS_RECHECK_MS, and at once by the instance that saved', async () => {
    let clock = 1_000_000;
    const cache = createSystemSettingsCache({ db: getDb(), now: () => clock });
    const elsewhere = createSystemSettingsCache({ db: getDb(), now: () => clock });
    expect((await cache.current()).antivirusScanning).toBe(true);
    expect((await elsewhere.current()).antivirusScanning).toBe(true);

    const saved = await updateSystemSettings(getDb(), { antivirusScanning: false }, 'system');
    cache.remember(saved);
    expect((await cache.current()).antivirusScanning).toBe(false);
    expect((await elsewhere.current()).antivirusScanning).toBe(true);
    clock += SETTINGS_RECHECK_MS;
    expect((await elsewhere.current()).antivirusScanning).toBe(false);

    await updateSystemSettings(getDb(), { antivirusScanning: true }, 'system');
  });
});
