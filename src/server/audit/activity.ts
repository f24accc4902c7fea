import { z } from 'zod';
import { FORM_PROVIDER_NAMES, SYSTEM_SETTING_LABELS, ZFormProvider, type TAuditAction } from '../../contract';

/** An audit record as the activity list words it. */
export type ActivityEvent = { action: TAuditAction; detail: Record<string, unknown> };

const ZStatusChange = z.object({ from: z.string(), to: z.string() });
const ZUserNamed = z.object({ firstName: z.string(), lastName: z.string() });
const ZChangedFields = z.record(z.string(), z.unknown());
const ZPurpose = z.object({ purpose: z.enum(['invitation', 'reset']) });
const ZCount = (key: string) => z.object({ [key]: z.number() });
const ZSecondFactorBy = z.object({ by: z.enum(['self', 'admin']) });
const ZSeasonNamed = z.object({ name: z.string() });
const ZSeasonChange = z.object({
  name: z.string(),
  changes: z.object({ closed: z.object({ to: z.boolean() }).optional(), isCurrent: z.object({ to: z.boolean() }).optional() }),
});

const userName = (detail: Record<string, unknown>, fallback: string) => {
  const named = ZUserNamed.safeParse(detail);
  return named.success ? `${named.data.firstName} ${named.data.lastName}` : fallback;
};

const FIELD_NAMES: Record<string, string> = {
  email: 'e-mail',
  firstName: 'first name',
  lastName: 'last name',
  role: 'role',
  status: 'status',
  divisions: 'divisions',
};

/**
 * One short sentence per audited action, for the activity list of User Management: what was done, never the
 * detail's sensitive parts (review notes, addresses, player names). The record type demands a sentence for
 * every action in AUDIT_ACTIONS.
 */
const SENTENCES: Record<TAuditAction, (detail: Record<string, unknown>) => string> = {
  'auth.login': () => 'Signed in',
  'auth.login_failed': () => 'A sign-in failed',
  'auth.password_set': (detail) => (ZPurpose.safeParse(detail).data?.purpose === 'reset' ? 'Chose a new password' : 'Accepted the invitation and chose a password'),
  'auth.sessions_ended': (detail) => {
    const ended = ZCount('ended').safeParse(detail).data?.ended;
    return ended === undefined ? 'Signed sessions out' : `Signed out ${ended} session${ended === 1 ? '' : 's'}`;
  },
  'auth.two_factor_disabled': (detail) => (ZSecondFactorBy.safeParse(detail).data?.by === 'admin' ? "Reset a person's two-step sign-in" : 'Turned two-step sign-in off'),
  'auth.two_factor_enabled': () => 'Turned two-step sign-in on',
  'backup.created': () => 'Made a backup of the data',
  'backup.failed': () => 'A backup could not be made',
  'backup.restored': () => 'Restored the data from a backup',
  'demo.seeded': () => 'Loaded the demo data',
  'document.downloaded': () => 'Downloaded a document',
  'document.file_removed': () => "Removed a verified document's file; the verification stays",
  'document.moved_to_storage': () => 'Moved a document to another storage',
  'document.purged': () => 'Removed a document after the retention period',
  'document.reopened': () => 'Reopened a document for review',
  'document.rejected_virus': () => 'Rejected a document: a virus was found',
  'document.scan_failed': () => "A document's virus scan could not be made",
  'document.scan_retries_stopped': () => "Stopped retrying a document's virus scan",
  'document.scan_retry_requested': () => "Retried a document's virus scan",
  'document.status_changed': (detail) => {
    const change = ZStatusChange.safeParse(detail);
    if (!change.success) return "Changed a document's status";
    if (change.data.to === 'verified') return 'Approved a document';
    if (change.data.to === 'rejected') return 'Rejected a document';
    return `Changed a document from ${change.data.from} to ${change.data.to}`;
  },
  'document.stored': () => 'Stored a document',
  'document.read': () => "Read a document's text on this server",
  'intake.delivery_replayed': () => 'Replayed a delivery from a form builder',
  'integration.form_secret_revealed': () => 'Revealed the form webhook secret',
  'integration.form_secret_rotated': () => 'Replaced the form webhook secret with a new one',
  'integration.mailbox_updated': () => 'Changed the mailbox settings',
  'integration.updated': (detail) => {
    const provider = ZFormProvider.safeParse(detail.provider);
    return provider.success ? `Changed the ${FORM_PROVIDER_NAMES[provider.data]} form builder settings` : 'Changed a form builder’s settings';
  },
  'master_key.backup_confirmed': () => 'Confirmed the master key is kept safe',
  'master_key.recovery_sheet_downloaded': () => "Downloaded the master key's recovery sheet",
  'master_key.rotated': () => 'Replaced the master key; every file key was wrapped again',
  'notification_template.updated': () => 'Changed a notification template',
  'notifications.scheduled': () => 'Scheduled notifications',
  'notifications.sent': () => 'Sent notifications',
  'notifications.settings_updated': () => 'Changed the notification settings',
  'player.created': () => 'Added a player',
  'player.erased': () => 'Erased a player and everything held about them',
  'player.exported': () => "Exported a player's data for their family",
  'reminders.sent': () => 'Sent automatic reminders',
  'reminders.updated': () => 'Changed the automatic reminders',
  'season.created': (detail) => {
    const name = ZSeasonNamed.safeParse(detail).data?.name;
    return name ? `Created the season ${name}` : 'Created a season';
  },
  'season.requirements_updated': (detail) => {
    const name = ZSeasonNamed.safeParse(detail).data?.name;
    return name ? `Changed the requirements of ${name}` : "Changed a season's requirements";
  },
  'season.updated': (detail) => {
    const change = ZSeasonChange.safeParse(detail).data;
    const name = change?.name ?? 'a season';
    if (change?.changes.closed?.to === true) return `Closed ${name} to new registrations`;
    if (change?.changes.closed?.to === false) return `Reopened ${name}`;
    if (change?.changes.isCurrent?.to === true) return `Made ${name} the current season`;
    return `Changed ${name}`;
  },
  'settings.updated': (detail) => {
    const labels: Record<string, string | undefined> = SYSTEM_SETTING_LABELS;
    const changed = Object.keys(ZChangedFields.safeParse(detail).data ?? {}).map((key) => labels[key] ?? key);
    return changed.length > 0 ? `Changed the settings: ${changed.join(', ')}` : 'Changed the settings';
  },
  'submission.failed': () => 'A submission could not be processed',
  'submission.received': () => 'Received a submission',
  'submission.refusal_notified': () => 'Told a family which files could not be accepted',
  'upload_link.issued': () => 'Made an upload link for a family',
  'upload_link.revoked': () => "Stopped a family's upload links",
  'upload_link.used': () => 'A family sent a document through their upload link',
  'user.created': (detail) => `Invited ${userName(detail, 'a user')}`,
  'user.deleted': (detail) => `Deleted the user ${userName(detail, '')}`.trim(),
  'user.invitation_issued': (detail) =>
    ZPurpose.safeParse(detail).data?.purpose === 'reset' ? 'Sent a password reset link' : 'Sent an invitation link',
  'user.updated': (detail) => {
    const fields = Object.keys(detail).map((field) => FIELD_NAMES[field] ?? field);
    return fields.length > 0 ? `Changed a user's ${fields.join(', ')}` : 'Changed a user';
  },
};

export function summarizeActivity(event: ActivityEvent): string {
  return SENTENCES[event.action](event.detail);
}
