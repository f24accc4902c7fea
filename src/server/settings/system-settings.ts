import { SYSTEM_SETTINGS_DEFAULTS, ZSystemSettings, type TSystemSettings, type TSystemSettingsPatch } from '../../contract/settings';
import type { Db } from '../platform/db/client';
import { recordAuditEvent, type AuditActor } from '../audit';
import { getSetting, putSetting } from './settings.repository';

/** The `settings` row that holds System Settings (contract/settings.ts). */
export const SYSTEM_SETTINGS_KEY = 'system';

/**
 * How long an instance trusts the settings it read before reading them again (like SESSION_RECHECK_MS):
 * the pipeline, the session check and the live connection ask on every job or request, and must not
 * each cost a query. The instance that saves a change uses it at once; every other one within this time.
 */
export const SETTINGS_RECHECK_MS = 5_000;

/** Partial on read, so a setting added later reads as its default in a database written before it. */
const ZStoredSystemSettings = ZSystemSettings.partial();

/**
 * The current System Settings: what was saved, and the defaults for the rest. `defaults` lets the
 * installation's own values stand in for what was never saved (CLEARBASE_SESSION_TIMEOUT_MINUTES).
 */
export async function readSystemSettings(db: Db, defaults: TSystemSettings = SYSTEM_SETTINGS_DEFAULTS): Promise<TSystemSettings> {
  const stored = await getSetting(db, SYSTEM_SETTINGS_KEY, ZStoredSystemSettings);
  return { ...defaults, ...stored };
}

/**
 * Applies a validated patch and records who changed what, in one transaction: the audit entry names
 * each changed field with its old and new value. Returns the settings as they now are.
 * Only fields someone saved are stored: the others keep following their defaults.
 */
export async function updateSystemSettings(
  db: Db,
  patch: TSystemSettingsPatch,
  actor: AuditActor,
  options: { defaults?: TSystemSettings; requestId?: string } = {},
): Promise<TSystemSettings> {
  const defaults = options.defaults ?? SYSTEM_SETTINGS_DEFAULTS;
  return db.transaction(async (tx) => {
    const stored = (await getSetting(tx, SYSTEM_SETTINGS_KEY, ZStoredSystemSettings)) ?? {};
    const before: TSystemSettings = { ...defaults, ...stored };
    const saved = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as Partial<TSystemSettings>;
    const after: TSystemSettings = { ...before, ...saved };
    const changes = Object.fromEntries(
      (Object.keys(saved) as Array<keyof TSystemSettings>)
        .filter((key) => !sameValue(before[key], after[key]))
        .map((key) => [key, { from: before[key], to: after[key] }]),
    );
    if (Object.keys(changes).length === 0) return before;
    await putSetting(tx, SYSTEM_SETTINGS_KEY, { ...stored, ...saved });
    await recordAuditEvent(tx, {
      actor,
      action: 'settings.updated',
      subjectType: 'settings',
      subjectId: SYSTEM_SETTINGS_KEY,
      detail: changes,
      requestId: options.requestId ?? null,
    });
    return after;
  });
}

/** Whether a setting kept its value: a list (the reject reasons) is the same when it holds the same items in the same order. */
function sameValue(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, index) => item === b[index]);
  return a === b;
}

/** This instance's view of System Settings, read at most once per SETTINGS_RECHECK_MS. */
export type SystemSettingsCache = {
  current(): Promise<TSystemSettings>;
  /** What this instance just saved: used at once, without waiting for the next read. */
  remember(settings: TSystemSettings): void;
};

export function createSystemSettingsCache(deps: {
  db: Db;
  defaults?: TSystemSettings;
  recheckMs?: number;
  now?: () => number;
}): SystemSettingsCache {
  const now = deps.now ?? Date.now;
  const recheckMs = deps.recheckMs ?? SETTINGS_RECHECK_MS;
  let known: { settings: TSystemSettings; readAt: number } | undefined;
  let reading: Promise<TSystemSettings> | undefined;
  /** Bumped by remember(): a read that started before a save must not overwrite what was saved. */
  let generation = 0;

  const read = (): Promise<TSystemSettings> => {
    const startedAt = generation;
    return readSystemSettings(deps.db, deps.defaults)
      .then(
        (settings) => {
          if (generation === startedAt) known = { settings, readAt: now() };
          return known?.settings ?? settings;
        },
        (error: unknown) => {
          // The database is briefly unreachable: keep working with the last settings read rather than
          // failing every request and job; the next call tries again.
          if (known) return known.settings;
          throw error;
        },
      )
      .finally(() => {
        reading = undefined;
      });
  };

  return {
    current() {
      if (known && now() - known.readAt < recheckMs) return Promise.resolve(known.settings);
      reading ??= read();
      return reading;
    },
    remember(settings) {
      generation += 1;
      known = { settings, readAt: now() };
    },
  };
}
