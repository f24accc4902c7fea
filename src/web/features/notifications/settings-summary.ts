import { shownOrHidden } from '@/components/read-only-text';

/**
 * The notification settings as a role without 'notifications.configure' may receive them: the server leaves the
 * mail server's host, user and secret hints and the webhooks' hints out (absent or null) for such a role. The
 * contract's full answer fits this shape too, so the read-only view takes either.
 */
export type ShownNotificationSettings = {
  email: {
    host?: string | null;
    port?: number | null;
    secure?: boolean | null;
    username?: string | null;
    from?: string | null;
    passwordSet?: boolean | null;
    source?: 'settings' | 'environment' | 'none' | null;
  };
  slackWebhook?: ShownSecret | null;
  teamsWebhook?: ShownSecret | null;
};
type ShownSecret = { set?: boolean | null; hint?: string | null };

export type SummaryRow = { label: string; value: string; testId: string };

const SOURCE_TEXT = {
  settings: 'The server saved here',
  environment: 'The server set by SMTP_URL',
  none: 'None yet: e-mail notifications fail until one is set',
} as const;

const savedText = (set: boolean | null | undefined, emptyText: string): string => (set === null || set === undefined ? shownOrHidden(null) : set ? 'Saved' : emptyText);

/** The mail server, one line each, as read-only text: a value the server left out says it is hidden. */
export function mailServerSummary(settings: ShownNotificationSettings): SummaryRow[] {
  const { email } = settings;
  return [
    { label: 'E-mail goes through', value: email.source ? SOURCE_TEXT[email.source] : shownOrHidden(null), testId: 'mail-source' },
    { label: 'Host', value: shownOrHidden(email.host), testId: 'mail-host' },
    { label: 'Port', value: shownOrHidden(email.port), testId: 'mail-port' },
    {
      label: 'TLS',
      value: email.secure === null || email.secure === undefined ? shownOrHidden(null) : email.secure ? 'From the start (port 465)' : 'STARTTLS when offered',
      testId: 'mail-tls',
    },
    { label: 'Username', value: shownOrHidden(email.username, 'None'), testId: 'mail-username' },
    { label: 'Password', value: savedText(email.passwordSet, 'None'), testId: 'mail-password' },
    { label: 'From address', value: shownOrHidden(email.from), testId: 'mail-from' },
  ];
}

/** A chat webhook as read-only text: saved or not (never its address), or hidden. */
export function webhookSummary(state: ShownSecret | null | undefined): string {
  return savedText(state?.set, 'Not set');
}
