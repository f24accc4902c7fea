import { z } from 'zod';
import { CHANNEL_LABELS, ZMailServerFields, type TDeliveryProblem, type TNotificationChannel, type TNotificationSettings, type TNotificationSettingsUpdate } from '../../contract';
import type { SmtpServer } from '../adapters/mail/port';
import type { CheckChatWebhook } from '../adapters/chat/port';
import { openSecret, sealSecret, ZSealedSecret, type SealedSecret } from '../platform/crypto/secret-box';
import type { Db } from '../platform/db/client';
import { recordAuditEvent, type Actor } from '../audit';
import { getSetting, putSetting, readSystemSettings } from '../settings';
import { AppError } from '../platform/errors';

/** The `settings` row of the Notifications screen's Settings tab. */
export const NOTIFICATION_SETTINGS_KEY = 'notifications';

const ZStoredNotificationSettings = z.object({
  email: ZMailServerFields.extend({ password: ZSealedSecret.nullable() }),
  slackWebhook: ZSealedSecret.nullable(),
  teamsWebhook: ZSealedSecret.nullable(),
});
type StoredNotificationSettings = z.infer<typeof ZStoredNotificationSettings>;

const EMPTY: StoredNotificationSettings = {
  email: { host: '', port: 587, secure: false, username: '', from: '', password: null },
  slackWebhook: null,
  teamsWebhook: null,
};

/** SMTP_URL and SMTP_FROM from the environment; the server saved on the Settings tab wins when it has a host. */
export type EnvironmentSmtp = { url: string | undefined; from: string | undefined };

export type NotificationSettingsDeps = {
  db: Db;
  masterKey: Buffer;
  environmentSmtp: EnvironmentSmtp;
  /** Which incoming-webhook addresses the chat poster accepts. */
  checkChatWebhook: CheckChatWebhook;
};

/** The saved mail password goes only where it was saved for: the same server, port, security and user name. */
type MailAccount = Pick<StoredNotificationSettings['email'], 'host' | 'port' | 'secure' | 'username'>;
const sameMailAccount = (a: MailAccount, b: MailAccount): boolean =>
  a.host.toLowerCase() === b.host.toLowerCase() && a.port === b.port && a.secure === b.secure && a.username === b.username;
export const MAIL_PASSWORD_AGAIN = 'Enter the password again: the saved one is used only with the server, port, security and user name it was saved with.';

/** Shows which webhook is set without giving it away: its last four characters. */
const webhookHint = (url: string) => `••••${url.slice(-4)}`;

async function readStored(db: Db): Promise<StoredNotificationSettings> {
  return (await getSetting(db, NOTIFICATION_SETTINGS_KEY, ZStoredNotificationSettings)) ?? EMPTY;
}

/** What the Settings tab shows: never a secret, only whether it is set (and a webhook's last four characters). */
export async function readNotificationSettings(deps: Pick<NotificationSettingsDeps, 'db' | 'environmentSmtp'>): Promise<TNotificationSettings> {
  const [stored, switches] = await Promise.all([readStored(deps.db), readSystemSettings(deps.db)]);
  const source = stored.email.host ? 'settings' : deps.environmentSmtp.url ? 'environment' : 'none';
  const secretState = (sealed: SealedSecret | null) => ({ set: sealed !== null, hint: sealed ? sealed.hint : null });
  return {
    email: {
      host: stored.email.host,
      port: stored.email.port,
      secure: stored.email.secure,
      username: stored.email.username,
      from: stored.email.from,
      passwordSet: stored.email.password !== null,
      source,
    },
    slackWebhook: secretState(stored.slackWebhook),
    teamsWebhook: secretState(stored.teamsWebhook),
    switches: { email: switches.emailNotifications, slack: switches.slackNotifications, teams: switches.teamsNotifications },
  };
}

/**
 * Why messages on a channel would not be delivered now, naming where it is fixed; null when they would. The
 * same settings the delivery reads: a mail server saved on the Settings tab or SMTP_URL, a webhook, the switch.
 */
export function deliveryProblemOf(settings: TNotificationSettings, channel: TNotificationChannel): TDeliveryProblem | null {
  const label = CHANNEL_LABELS[channel];
  if (channel === 'email' && settings.email.source === 'none') {
    return {
      reason: 'no_mail_server',
      message: 'No mail server is set up, so e-mail cannot be delivered. Set one up in Notifications → Settings → Mail Server.',
    };
  }
  if (channel !== 'email' && !(channel === 'slack' ? settings.slackWebhook : settings.teamsWebhook).set) {
    return {
      reason: 'no_webhook',
      message: `No ${label} webhook is set up, so the message cannot be posted. Add it in Notifications → Settings → Team Chat.`,
    };
  }
  if (!settings.switches[channel]) {
    return {
      reason: 'switched_off',
      message: `${label} notifications are turned off, so nothing goes out. Turn them on in Settings → Notifications.`,
    };
  }
  return null;
}

/**
 * Saves the tab, all or nothing, with its audit event in the same transaction. A secret left out keeps the
 * stored one, `null` removes it, a value replaces it (encrypted with the master key). Webhook addresses must be
 * https (http to loopback only with the test setting); a refused one leaves everything as it was.
 */
export async function saveNotificationSettings(
  deps: NotificationSettingsDeps,
  update: TNotificationSettingsUpdate,
  actor: Actor,
): Promise<TNotificationSettings> {
  const problems: Array<{ path: string; message: string }> = [];
  for (const [service, field] of [['slack', 'slackWebhookUrl'], ['teams', 'teamsWebhookUrl']] as const) {
    const url = update[field];
    const problem = url ? deps.checkChatWebhook(service, url) : undefined;
    if (problem) problems.push({ path: `body.${field}`, message: problem });
  }
  if (problems.length > 0) throw new AppError('VALIDATION_FAILED', problems.map((p) => p.message).join('; '), problems);

  await deps.db.transaction(async (tx) => {
    const before = await readStored(tx);
    const nextSecret = (current: SealedSecret | null, value: string | null | undefined, hint: (secret: string) => string) => {
      if (value === undefined) return current;
      if (value === null || value === '') return null;
      return sealSecret(deps.masterKey, value, hint(value));
    };
    // A password left out keeps the saved one only for the same account; a cleared host (the environment's
    // server takes over) drops it, since nothing may use it any more.
    const keepsPassword = update.email.password === undefined && before.email.password !== null;
    if (keepsPassword && update.email.host !== '' && !sameMailAccount(before.email, update.email)) {
      throw new AppError('VALIDATION_FAILED', MAIL_PASSWORD_AGAIN, [{ path: 'body.email.password', message: MAIL_PASSWORD_AGAIN }]);
    }
    const emailPassword = keepsPassword && update.email.host === '' ? null : update.email.password;
    const after: StoredNotificationSettings = {
      email: {
        host: update.email.host,
        port: update.email.port,
        secure: update.email.secure,
        username: update.email.username,
        from: update.email.from,
        password: nextSecret(before.email.password, emailPassword, () => ''),
      },
      slackWebhook: nextSecret(before.slackWebhook, update.slackWebhookUrl, webhookHint),
      teamsWebhook: nextSecret(before.teamsWebhook, update.teamsWebhookUrl, webhookHint),
    };
    await putSetting(tx, NOTIFICATION_SETTINGS_KEY, after);
    const changed = [
      ...(['host', 'port', 'secure', 'username', 'from'] as const).filter((key) => before.email[key] !== after.email[key]).map((key) => `email.${key}`),
      ...(before.email.password !== after.email.password ? ['email.password'] : []),
      ...(update.slackWebhookUrl !== undefined ? ['slackWebhook'] : []),
      ...(update.teamsWebhookUrl !== undefined ? ['teamsWebhook'] : []),
    ];
    // Names of what changed only: secrets and addresses stay out of the audit trail.
    await recordAuditEvent(tx, {
      actor: actor.principal,
      action: 'notifications.settings_updated',
      subjectType: 'settings',
      subjectId: NOTIFICATION_SETTINGS_KEY,
      detail: { changed },
      requestId: actor.requestId,
    });
  });
  return readNotificationSettings(deps);
}

/** Where each channel's messages go right now, secrets decrypted; a channel without a destination says why. */
export type Destinations = {
  email: { server: SmtpServer; from: string } | { problem: string };
  slack: { url: string } | { problem: string };
  teams: { url: string } | { problem: string };
};

export async function resolveDestinations(deps: NotificationSettingsDeps): Promise<Destinations> {
  const stored = await readStored(deps.db);
  const open = async (sealed: SealedSecret, what: string): Promise<{ value: string } | { problem: string }> => {
    try {
      return { value: await openSecret(deps.masterKey, sealed) };
    } catch {
      return { problem: `The saved ${what} cannot be decrypted with this master key: save it again on the Settings tab` };
    }
  };

  let email: Destinations['email'];
  if (stored.email.host) {
    const password = stored.email.password ? await open(stored.email.password, 'mail password') : { value: undefined };
    email =
      'problem' in password
        ? password
        : {
            server: { kind: 'fields', host: stored.email.host, port: stored.email.port, secure: stored.email.secure, username: stored.email.username, password: password.value },
            from: stored.email.from,
          };
  } else if (deps.environmentSmtp.url && deps.environmentSmtp.from) {
    email = { server: { kind: 'url', url: deps.environmentSmtp.url }, from: deps.environmentSmtp.from };
  } else {
    email = { problem: 'No mail server is set: fill in the Settings tab, or set SMTP_URL and SMTP_FROM' };
  }

  const webhook = async (sealed: SealedSecret | null, name: string): Promise<{ url: string } | { problem: string }> => {
    if (!sealed) return { problem: `No ${name} webhook address is set on the Settings tab` };
    const opened = await open(sealed, `${name} webhook address`);
    return 'problem' in opened ? opened : { url: opened.value };
  };
  return { email, slack: await webhook(stored.slackWebhook, 'Slack'), teams: await webhook(stored.teamsWebhook, 'Microsoft Teams') };
}
