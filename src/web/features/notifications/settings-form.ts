import { ZNotificationSettingsUpdate, type TNotificationSettings, type TNotificationSettingsUpdate } from '../../../contract';

export type SettingsFormValues = {
  host: string;
  port: string;
  secure: boolean;
  username: string;
  /** A new password; empty keeps the saved one. */
  password: string;
  removePassword: boolean;
  from: string;
  /** A new address; empty keeps the saved one. */
  slack: string;
  removeSlack: boolean;
  teams: string;
  removeTeams: boolean;
};
export type SettingsField = 'host' | 'port' | 'username' | 'password' | 'from' | 'slack' | 'teams';
export type SettingsErrors = Partial<Record<SettingsField, string>>;

/** The form as the server's settings fill it: secrets are never sent to the browser, so their boxes start empty. */
export function settingsFormValues(settings: TNotificationSettings): SettingsFormValues {
  // Only a role that may configure notifications gets this form, and the server sends it every field; `??` keeps
  // the form whole should one be left out all the same.
  return {
    host: settings.email.host ?? '',
    port: settings.email.port === undefined ? '' : String(settings.email.port),
    secure: settings.email.secure ?? false,
    username: settings.email.username ?? '',
    password: '',
    removePassword: false,
    from: settings.email.from ?? '',
    slack: '',
    removeSlack: false,
    teams: '',
    removeTeams: false,
  };
}

const secret = (value: string, remove: boolean): string | null | undefined => (remove ? null : value.trim() === '' ? undefined : value.trim());

/** The PUT body: an untouched secret is left out (kept), a removed one is null. */
export function toSettingsUpdate(values: SettingsFormValues): TNotificationSettingsUpdate {
  const password = values.removePassword ? null : values.password === '' ? undefined : values.password;
  return {
    email: {
      host: values.host.trim(),
      port: /^\d+$/.test(values.port.trim()) ? Number(values.port.trim()) : Number.NaN,
      secure: values.secure,
      username: values.username.trim(),
      ...(password !== undefined ? { password } : {}),
      from: values.from.trim(),
    },
    ...(secret(values.slack, values.removeSlack) !== undefined ? { slackWebhookUrl: secret(values.slack, values.removeSlack) } : {}),
    ...(secret(values.teams, values.removeTeams) !== undefined ? { teamsWebhookUrl: secret(values.teams, values.removeTeams) } : {}),
  };
}

const FIELD_OF_PATH: Record<string, SettingsField> = {
  'email.host': 'host',
  'email.port': 'port',
  'email.username': 'username',
  'email.password': 'password',
  'email.from': 'from',
  slackWebhookUrl: 'slack',
  teamsWebhookUrl: 'teams',
};

/** Checks the form with the contract's schema; the server also checks that webhooks are https. */
export function validateSettingsForm(values: SettingsFormValues): { ok: true; update: TNotificationSettingsUpdate } | { ok: false; errors: SettingsErrors } {
  const update = toSettingsUpdate(values);
  const parsed = ZNotificationSettingsUpdate.safeParse(update);
  if (parsed.success) return { ok: true, update: parsed.data };
  const errors: SettingsErrors = {};
  for (const issue of parsed.error.issues) {
    const field = FIELD_OF_PATH[issue.path.join('.')];
    if (field && !errors[field]) errors[field] = issue.message;
  }
  return { ok: false, errors };
}
