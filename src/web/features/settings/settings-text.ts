import {
  SYSTEM_SETTING_LABELS,
  SESSION_TIMEOUT_MINUTES,
  SIGN_IN_MODE_LABELS,
  UPLOAD_LINK_DAYS,
  ZSystemSettings,
  type TInstallation,
  type TSignInMode,
  type TSystemSettings,
  type TSystemSettingsPatch,
} from '../../../contract';

export type SettingKey = keyof TSystemSettings;

/** The name of each setting as the Settings screen shows it. */
export const SETTING_LABELS: Record<SettingKey, string> = SYSTEM_SETTING_LABELS;

/**
 * The toast after a save: 'Antivirus scanning turned off.', 'Session timeout set to 30 minutes.',
 * 'Sign-in set to Personal accounts only.', 'Upload links work for 14 days.'
 */
export function describeSettingsChange(patch: TSystemSettingsPatch): string {
  const parts = (Object.keys(patch) as SettingKey[]).flatMap((key) => {
    const value = patch[key];
    if (value === undefined) return [];
    if (key === 'signInMode' && patch.signInMode !== undefined) return [`${SETTING_LABELS[key]} set to ${SIGN_IN_MODE_LABELS[patch.signInMode]}.`];
    if (key === 'uploadLinkDays') return [`${SETTING_LABELS[key]} ${daysWord(Number(value))}.`];
    if (Array.isArray(value)) return [`${SETTING_LABELS[key]} saved: ${value.length} ${value.length === 1 ? 'reason' : 'reasons'}.`];
    if (typeof value === 'number') return [`${SETTING_LABELS[key]} set to ${value} minutes.`];
    if (typeof value === 'boolean') return [`${SETTING_LABELS[key]} turned ${value ? 'on' : 'off'}.`];
    return [`${SETTING_LABELS[key]} set to ${value}.`];
  });
  return parts.join(' ');
}

/** A line under each sign-in mode in Settings → Security: who signs in how. */
export const SIGN_IN_MODE_DESCRIPTIONS: Record<TSignInMode, string> = {
  shared: 'Everyone signs in with the one system password, which acts as an admin. The audit cannot tell people apart.',
  personal:
    'Each person signs in with their own e-mail and password, and their role decides what they may do. The shared password stops working.',
  both: 'Personal accounts, and the shared password for staff who have no account yet. Useful while moving everyone over.',
};

/** What switching to personal accounts only does, asked before it is saved. */
export const PERSONAL_ONLY_WARNING =
  'Everyone signed in with the shared password is signed out at once, and it stops working. Make sure the staff have accounts, and that you can sign in with yours: the switch is refused until an admin has a password.';

/** The System Settings that are a whole number typed in a field. */
export type WholeNumberSetting = 'sessionTimeoutMinutes' | 'uploadLinkDays';

export type WholeNumberInput = { ok: true; value: number } | { ok: false; message: string };

/** What a whole-number field says when it is empty or not a whole number, and the name its limits are said with. */
type WholeNumberWords = { empty: string; notWhole: string; name: string };

/** A whole-number setting's field, checked with the contract's own rule so the screen and the server agree. */
function parseWholeNumber(setting: WholeNumberSetting, input: string, words: WholeNumberWords): WholeNumberInput {
  const text = input.trim();
  if (text === '') return { ok: false, message: words.empty };
  if (!/^-?\d+$/.test(text)) return { ok: false, message: words.notWhole };
  const parsed = ZSystemSettings.shape[setting].safeParse(Number(text));
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, message: `${words.name} ${parsed.error.issues[0]?.message ?? 'is not valid'}.` };
}

export const parseSessionTimeout = (input: string): WholeNumberInput =>
  parseWholeNumber('sessionTimeoutMinutes', input, {
    empty: 'Enter the session timeout in minutes.',
    notWhole: 'Session timeout must be a whole number of minutes.',
    name: 'Session timeout',
  });

const daysWord = (days: number): string => `${days} ${days === 1 ? 'day' : 'days'}`;

export const parseUploadLinkDays = (input: string): WholeNumberInput =>
  parseWholeNumber('uploadLinkDays', input, {
    empty: 'Enter how many days an upload link works.',
    notWhole: 'Upload links must work for a whole number of days.',
    name: 'Upload link days',
  });

export const UPLOAD_LINK_DAYS_HINT = `Between ${UPLOAD_LINK_DAYS.min} and ${UPLOAD_LINK_DAYS.max} days. A new link works this long from when it is made; links already given keep their date.`;

export const SESSION_TIMEOUT_HINT = `Between ${SESSION_TIMEOUT_MINUTES.min} and ${SESSION_TIMEOUT_MINUTES.max} minutes (24 hours).`;

/** How the settings screen words a service's health: ok Connected, warning Degraded, error Error, anything else Unknown. */
export function settingsHealthLabel(status: string | null | undefined): string {
  if (status === 'ok') return 'Connected';
  if (status === 'warning') return 'Degraded';
  if (status === 'error') return 'Error';
  return 'Unknown';
}

export const STORAGE_DRIVER_LABELS: Record<TInstallation['storage']['driver'], string> = {
  local: 'Local encrypted storage',
  s3: 'Amazon S3 (or S3-compatible)',
};

/** The usage of the driver in use, and a note for documents still kept with another driver. */
export function storageUsage(storage: TInstallation['storage']): {
  documents: number;
  bytes: number;
  elsewhere: { driver: TInstallation['storage']['driver']; documents: number } | undefined;
} {
  const current = storage.usage.find((row) => row.driver === storage.driver);
  const other = storage.usage.find((row) => row.driver !== storage.driver && row.documents > 0);
  return {
    documents: current?.documents ?? 0,
    bytes: current?.bytes ?? 0,
    elsewhere: other ? { driver: other.driver, documents: other.documents } : undefined,
  };
}

/** What the antivirus switch means on this installation, under the switch. */
export function scanningNote(antivirus: TInstallation['antivirus'] | undefined, scanningOn: boolean): string {
  if (!scanningOn) return 'Off: new files are stored without a virus scan, and System Status shows a warning.';
  if (antivirus && !antivirus.clamdConfigured) {
    return 'On, but no virus scanner is connected: files are stored unscanned until whoever runs the server connects one.';
  }
  return `Every file is scanned by ClamAV${antivirus?.clamdLocation ? ` at ${antivirus.clamdLocation}` : ''} before it is stored; an infected file is rejected.`;
}

/** The Settings tabs, in the query string as ?tab=. */
export const SETTINGS_TABS = [
  { value: 'system', label: 'System' },
  { value: 'seasons', label: 'Seasons' },
  { value: 'integrations', label: 'Integrations' },
  { value: 'notifications', label: 'Notifications' },
  { value: 'security', label: 'Security' },
] as const;
export type SettingsTab = (typeof SETTINGS_TABS)[number]['value'];

export function parseSettingsTab(search: string): SettingsTab {
  const tab = new URLSearchParams(search).get('tab');
  return SETTINGS_TABS.find((entry) => entry.value === tab)?.value ?? 'system';
}

/**
 * The reject reasons as typed, checked with the contract's own rule (each trimmed, none empty, none twice, at
 * most MAX_REJECT_REASONS): the list to save, or the first problem in words.
 */
export function parseRejectReasons(drafts: readonly string[]): { ok: true; value: string[] } | { ok: false; message: string } {
  const parsed = ZSystemSettings.shape.rejectReasons.safeParse(drafts);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0];
  const index = typeof issue?.path[0] === 'number' ? issue.path[0] : undefined;
  const message = issue?.message ?? 'The list is not valid';
  return { ok: false, message: index === undefined ? `${message}.` : `Reason ${index + 1}: ${message}.` };
}
