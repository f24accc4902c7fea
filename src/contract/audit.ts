import { z } from 'zod';

/**
 * Every action the audit log records, and nothing else: a record names one of these, so the History
 * screens and any report over the log can rely on the list being complete.
 */
export const AUDIT_ACTIONS = [
  'auth.login',
  'auth.login_failed',
  'auth.password_set',
  'auth.sessions_ended',
  'auth.two_factor_disabled',
  'auth.two_factor_enabled',
  'backup.created',
  'backup.failed',
  'backup.restored',
  'demo.seeded',
  'document.downloaded',
  'document.file_removed',
  'document.moved_to_storage',
  'document.purged',
  'document.read',
  'document.reopened',
  'document.rejected_virus',
  'document.scan_failed',
  'document.scan_retries_stopped',
  'document.scan_retry_requested',
  'document.status_changed',
  'document.stored',
  'intake.delivery_replayed',
  'integration.form_secret_revealed',
  'integration.form_secret_rotated',
  'integration.mailbox_updated',
  'integration.updated',
  'master_key.backup_confirmed',
  'master_key.recovery_sheet_downloaded',
  'master_key.rotated',
  'notification_template.updated',
  'notifications.scheduled',
  'notifications.sent',
  'notifications.settings_updated',
  'player.created',
  'player.erased',
  'player.exported',
  'season.created',
  'season.requirements_updated',
  'season.updated',
  'settings.updated',
  'submission.failed',
  'submission.received',
  'submission.refusal_notified',
  'upload_link.issued',
  'upload_link.revoked',
  'upload_link.used',
  'reminders.updated',
  'reminders.sent',
  'user.created',
  'user.deleted',
  'user.invitation_issued',
  'user.updated',
] as const;
export const ZAuditAction = z.enum(AUDIT_ACTIONS);
export type TAuditAction = z.infer<typeof ZAuditAction>;

/** What an audit record is about. */
export const AUDIT_SUBJECTS = ['database', 'document', 'intake_delivery', 'notification_template', 'player', 'season', 'session', 'settings', 'submission', 'user'] as const;
export type TAuditSubject = (typeof AUDIT_SUBJECTS)[number];

/** Who an audit record says acted: a person, the shared password, or the system and its intake channels. */
export const AUDIT_ACTOR_KINDS = ['user', 'shared-password', 'system', 'form', 'mailbox', 'upload', 'test', 'family'] as const;
export type TAuditActorKind = (typeof AUDIT_ACTOR_KINDS)[number];

/** The name shown for an actor that is not a person. */
export const AUDIT_ACTOR_NAMES: Record<Exclude<TAuditActorKind, 'user'>, string> = {
  'shared-password': 'Shared password',
  system: 'System',
  form: 'Registration form',
  mailbox: 'Mailbox',
  upload: 'Staff upload',
  test: 'Test submission',
  family: 'Family upload link',
};
