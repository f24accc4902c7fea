/** Notification templates and the history of what was sent with them. */
import { REMINDER_SCHEDULE_DEFAULTS } from '../../contract';
import { DEFAULT_NOTIFICATION_TEMPLATES, type NewNotificationHistory, type NewNotificationTemplate, type NewReminderSchedule } from '../notifications';
import { DAY_MS, HOUR_MS, MINUTE_MS, type Generation } from './generation-state';

/** The default templates plus a chat summary, switched off. */
export function generateNotificationTemplates(generation: Generation): NewNotificationTemplate[] {
  const { random, nowMs } = generation;
  const createdAt = new Date(nowMs - 400 * DAY_MS);
  return [
    // The templates every installation starts with (DEFAULT_NOTIFICATION_TEMPLATES); the reject flow sends one.
    ...DEFAULT_NOTIFICATION_TEMPLATES.map((template, index) => ({
      ...template,
      id: random.nextUuid(),
      createdAt,
      // The first one was edited last month, so the list shows an update.
      updatedAt: index === 0 ? new Date(nowMs - 30 * DAY_MS) : createdAt,
    })),
    {
      id: random.nextUuid(),
      name: 'Weekly Processing Summary',
      type: 'slack',
      subject: 'Weekly processing summary',
      content:
        'Weekly processing summary: {{season}}\nReceived: {{received}}  Approved: {{approved}}  Rejected: {{rejected}}  Awaiting review: {{pending}}',
      // Chat notifications are off until an administrator turns them on in Settings, so the demo shows a disabled one.
      enabled: false,
      createdAt,
      updatedAt: createdAt,
    },
  ];
}

/** About ten sent, pending and failed notifications from the last two weeks, to current-season guardians. */
export function generateNotificationHistory(generation: Generation): NewNotificationHistory[] {
  const { random, nowMs } = generation;
  const named = (name: string) => generation.data.notificationTemplates.find((template) => template.name === name);
  const [missingReminder, deadlineReminder, weeklySummary] = [named('Missing Documents Reminder'), named('Deadline Reminder'), named('Weekly Processing Summary')];
  const guardianEmails = generation.currentSample
    .map((ref) => ref.player.child.guardianEmail)
    .filter((email): email is string => email !== null);
  const pickRecipient = () => (guardianEmails.length > 0 ? random.pickOne(guardianEmails) : 'parents@example.org');
  const rows: NewNotificationHistory[] = [];
  const addRow = (row: Omit<NewNotificationHistory, 'id' | 'createdAt' | 'sentAt'>, hoursAgo: number) => {
    const createdAt = new Date(nowMs - hoursAgo * HOUR_MS - random.nextInt(0, 59) * MINUTE_MS);
    rows.push({
      id: random.nextUuid(),
      ...row,
      createdAt,
      sentAt: row.status === 'sent' ? new Date(createdAt.getTime() + random.nextInt(1, 30) * 1000) : null,
    });
  };
  const reminderSubject = 'Documents still missing for your player (Fall Ball 2025)';
  for (let i = 0; i < 5; i += 1) {
    addRow({ templateId: missingReminder?.id ?? null, type: 'email', recipient: pickRecipient(), subject: reminderSubject, status: 'sent', errorMessage: null }, 2 + i * 20);
  }
  addRow({
    templateId: missingReminder?.id ?? null,
    type: 'email',
    recipient: 'no-such-parent@example.net',
    subject: reminderSubject,
    status: 'failed',
    errorMessage: 'SMTP 550 5.1.1: recipient address rejected (mailbox does not exist); check the guardian e-mail',
  }, 30);
  addRow({ templateId: deadlineReminder?.id ?? null, type: 'email', recipient: pickRecipient(), subject: 'Registration closes Nov 30: Fall Ball 2025', status: 'sent', errorMessage: null }, 50);
  addRow({ templateId: deadlineReminder?.id ?? null, type: 'email', recipient: pickRecipient(), subject: 'Registration closes Nov 30: Fall Ball 2025', status: 'pending', errorMessage: null }, 0);
  addRow({ templateId: weeklySummary?.id ?? null, type: 'slack', recipient: '#registrations', subject: 'Weekly processing summary', status: 'sent', errorMessage: null }, 7 * 24);
  addRow({
    templateId: weeklySummary?.id ?? null,
    type: 'slack',
    recipient: '#registrations',
    subject: 'Weekly processing summary',
    status: 'failed',
    errorMessage: 'Slack webhook answered 404 no_service: the webhook address in Settings is no longer valid',
  }, 14 * 24);
  return rows;
}

/** The current season's automatic reminders, switched on with the usual days, so the demo shows them at work. */
export function generateReminderSchedules(seasons: ReadonlyArray<{ id: string; isCurrent?: boolean | null }>): NewReminderSchedule[] {
  return seasons
    .filter((season) => season.isCurrent === true)
    .map((season) => ({
      seasonId: season.id,
      enabled: true,
      daysBeforeDeadline: [...REMINDER_SCHEDULE_DEFAULTS.daysBeforeDeadline],
      daysAfterRejection: [...REMINDER_SCHEDULE_DEFAULTS.daysAfterRejection],
    }));
}
