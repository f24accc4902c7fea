import { SYSTEM_SETTINGS_DEFAULTS, ZSystemSettings, type TSystemSettings, type TSystemSettingsPatch } from '../../contract/settings';
import type { Db } from '../db/client';
import { recordAuditEvent } from '../db/audit-events.repository';
import { getSetting, putSetting } from '../db/settings.repository';

/** The `settings` row that holds System Settings (contract/settings.ts). */
export const SYSTEM_SETTINGS_KEY = 'system';

/** Partial on read, so a setting added later reads as its default in a database written before it. */
const ZStoredSystemSettings = ZSystemSettings.partial();

/** The current System Settings: what was saved, and the defaults for the rest. */
export async function readSystemSettings(db: Db): Promise<TSystemSettings> {
  const stored = await getSetting(db, SYSTEM_SETTINGS_KEY, ZStoredSystemSettings);
  return { ...SYSTEM_SETTINGS_DEFAULTS, ...stored };
}

/**
 * Applies a validated patch and records who changed what, in one transaction: the audit entry names
 * each changed field with its old and new value. Returns the settings as they now are.
 */
export async function updateSystemSettings(db: Db, patch: TSystemSettingsPatch, actor: string): Promise<TSystemSettings> {
  return db.transaction(async (tx) => {
    const before = await readSystemSettings(tx);
    const after: TSystemSettings = { ...before, ...patch };
    const changes = Object.fromEntries(
      (Object.keys(patch) as Array<keyof TSystemSettings>)
        .filter((key) => before[key] !== after[key])
        .map((key) => [key, { from: before[key], to: after[key] }]),
    );
    if (Object.keys(changes).length === 0) return before;
    await putSetting(tx, SYSTEM_SETTINGS_KEY, after);
    await recordAuditEvent(tx, { actor, action: 'settings.updated', subjectType: 'settings', subjectId: SYSTEM_SETTINGS_KEY, detail: changes });
    return after;
  });
}
