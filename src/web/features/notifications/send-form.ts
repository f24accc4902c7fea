import {
  ZNotificationSend,
  type TNotificationChannel,
  type TNotificationSend,
  type TNotificationSendResult,
  type TNotificationTemplate,
  type TQuickActions,
  type TRecipientGroup,
} from '../../../contract';

/** The template select's value for 'Custom Message'. */
export const CUSTOM_MESSAGE = 'custom';
export const DEADLINE_DAYS = 7;

export type SendFormValues = {
  /** A template id, or CUSTOM_MESSAGE. */
  template: string;
  /** Custom Message only: which channel it goes to. */
  channel: TNotificationChannel;
  subject: string;
  message: string;
  recipients: TRecipientGroup;
  customRecipients: string;
  /** YYYY-MM-DD, {{deadline}}. */
  deadline: string;
  schedule: boolean;
  /** A datetime-local value (YYYY-MM-DDTHH:mm, the browser's time zone). */
  scheduledAt: string;
};
export type SendFormField = keyof SendFormValues;
export type SendFormErrors = Partial<Record<SendFormField, string>>;

const pad = (n: number) => String(n).padStart(2, '0');
const localDate = (date: Date) => `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
const localDateTime = (date: Date) => `${localDate(date)}T${pad(date.getHours())}:${pad(date.getMinutes())}`;

/** The day `days` after `today`, in the browser's calendar. */
export function dateAfter(today: Date, days: number): string {
  const date = new Date(today);
  date.setDate(date.getDate() + days);
  return localDate(date);
}

export function emptySendForm(now: Date): SendFormValues {
  const inAnHour = new Date(now.getTime() + 60 * 60_000);
  return {
    template: '',
    channel: 'email',
    subject: '',
    message: '',
    recipients: 'all_parents',
    customRecipients: '',
    deadline: dateAfter(now, DEADLINE_DAYS),
    schedule: false,
    scheduledAt: localDateTime(inAnHour),
  };
}

/** The channel the form sends on: the template's type, or the custom message's choice. */
export function sendChannel(values: SendFormValues, templates: readonly TNotificationTemplate[]): TNotificationChannel {
  if (values.template === CUSTOM_MESSAGE) return values.channel;
  return templates.find((t) => t.id === values.template)?.type ?? 'email';
}

/** The request the form makes (POST /api/notifications/send). */
export function toSendRequest(values: SendFormValues, season: string | undefined): TNotificationSend {
  const custom = values.template === CUSTOM_MESSAGE;
  return {
    templateId: custom ? null : values.template,
    ...(custom ? { channel: values.channel, subject: values.subject, message: values.message } : {}),
    recipients: values.recipients,
    ...(values.recipients === 'custom' ? { customRecipients: values.customRecipients } : {}),
    ...(season ? { season } : {}),
    ...(values.deadline ? { deadline: values.deadline } : {}),
    ...(values.schedule && values.scheduledAt ? { scheduledAt: new Date(values.scheduledAt).toISOString() } : {}),
  };
}

const FIELD_OF_PATH: Record<string, SendFormField> = {
  templateId: 'template',
  channel: 'channel',
  subject: 'subject',
  message: 'message',
  recipients: 'recipients',
  customRecipients: 'customRecipients',
  deadline: 'deadline',
  scheduledAt: 'scheduledAt',
};

/** Checks the form with the contract's own schema (the server checks the same), plus what only the form knows. */
export function validateSendForm(values: SendFormValues, season: string | undefined, now: Date): { ok: true; request: TNotificationSend } | { ok: false; errors: SendFormErrors } {
  const errors: SendFormErrors = {};
  if (!values.template) errors.template = 'Choose a template or Custom Message';
  if (values.schedule) {
    const at = new Date(values.scheduledAt);
    if (!values.scheduledAt || Number.isNaN(at.getTime())) errors.scheduledAt = 'Choose the date and time to send';
    else if (at.getTime() <= now.getTime()) errors.scheduledAt = 'Choose a time in the future';
  }
  if (values.template) {
    const parsed = ZNotificationSend.safeParse(toSendRequest(values, season));
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = FIELD_OF_PATH[String(issue.path[0] ?? '')];
        if (field && !errors[field]) errors[field] = issue.message;
      }
    }
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, request: toSendRequest(values, season) };
}

/**
 * What the preview asks the server about: the recipients, the deadline and, once it is written, the message
 * itself. Null while no template is chosen or the custom list does not parse, so the preview only asks about a
 * form the server would accept. `withText` is false while a custom message is not written yet: the count still
 * shows (asked with a stand-in text), the message preview waits.
 */
export function previewRequest(values: SendFormValues, season: string | undefined): { request: TNotificationSend; withText: boolean } | null {
  if (!values.template) return null;
  const base: TNotificationSend = {
    templateId: values.template === CUSTOM_MESSAGE ? null : values.template,
    recipients: values.recipients,
    ...(values.recipients === 'custom' ? { customRecipients: values.customRecipients } : {}),
    ...(season ? { season } : {}),
    ...(values.deadline ? { deadline: values.deadline } : {}),
  };
  const accepted = (request: TNotificationSend) => ZNotificationSend.safeParse(request).success;
  if (values.template !== CUSTOM_MESSAGE) return accepted(base) ? { request: base, withText: true } : null;
  const written: TNotificationSend = { ...base, channel: values.channel, subject: values.subject, message: values.message };
  if (accepted(written)) return { request: written, withText: true };
  const counting: TNotificationSend = { ...base, channel: values.channel, subject: 'Preview', message: 'Preview' };
  return accepted(counting) ? { request: counting, withText: false } : null;
}

export type QuickAction = 'incomplete' | 'deadline' | 'weekly' | 'maintenance';

export const WEEKLY_SUMMARY_SUBJECT = 'Weekly processing summary: {{season}}';
export const WEEKLY_SUMMARY_MESSAGE = [
  'Documents in the last 7 days:',
  'Received: {{received}}',
  'Approved: {{approved}}',
  'Rejected: {{rejected}}',
  'Still waiting for review: {{pending}}',
].join('\n');
export const MAINTENANCE_SUBJECT = 'Scheduled maintenance';
export const MAINTENANCE_MESSAGE = [
  'Hello {{guardianName}},',
  '',
  'Clearbase will be unavailable for maintenance on {{deadline}} from 8 pm to 10 pm.',
  'Documents sent by e-mail or through the form during that time are processed afterwards; nothing is lost.',
].join('\n');

/** The form a quick action fills in; Send still asks the staff member to press it. */
export function quickActionValues(action: QuickAction, templates: readonly TNotificationTemplate[], now: Date): Partial<SendFormValues> {
  const templateId = (name: string) => templates.find((t) => t.name === name)?.id ?? CUSTOM_MESSAGE;
  switch (action) {
    case 'incomplete':
      return { template: templateId('Missing Documents Reminder'), recipients: 'missing_documents', schedule: false };
    case 'deadline':
      return { template: templateId('Deadline Reminder'), recipients: 'missing_documents', deadline: dateAfter(now, DEADLINE_DAYS), schedule: false };
    case 'weekly':
      return { template: CUSTOM_MESSAGE, channel: 'email', subject: WEEKLY_SUMMARY_SUBJECT, message: WEEKLY_SUMMARY_MESSAGE, recipients: 'administrators', schedule: false };
    case 'maintenance':
      return { template: CUSTOM_MESSAGE, channel: 'email', subject: MAINTENANCE_SUBJECT, message: MAINTENANCE_MESSAGE, recipients: 'administrators', schedule: false };
  }
}

/**
 * What 'Notify incomplete players' counts, in one sentence whose figures add up: the reminder goes to the
 * families of players missing a document who have a guardian e-mail; the other incomplete players have sent
 * everything and wait for review.
 */
export function describeIncompleteReminder(counts: TQuickActions): { label: string; detail: string } {
  const { incompletePlayers } = counts;
  const { players: missing, withEmail } = counts.missingDocuments;
  const label = `Notify incomplete players — ${withEmail} of ${incompletePlayers} ${withEmail === 1 ? 'gets' : 'get'} the reminder`;
  const parts = [`${missing} ${missing === 1 ? 'is' : 'are'} missing a document`];
  const noEmail = missing - withEmail;
  if (noEmail > 0) parts.push(`${noEmail} of them ${noEmail === 1 ? 'has' : 'have'} no guardian e-mail`);
  const waiting = incompletePlayers - missing;
  if (waiting > 0) parts.push(`${waiting} ${waiting === 1 ? 'has' : 'have'} sent everything and ${waiting === 1 ? 'waits' : 'wait'} for review`);
  return { label, detail: `${parts.join('; ')}. Missing Documents Reminder to their guardians.` };
}

const messages = (n: number) => `${n} ${n === 1 ? 'message' : 'messages'}`;

/** The toast after a send (like the others: a title and one sentence; destructive when anything failed). */
export function describeSendResult(result: TNotificationSendResult, scheduledFor?: string): { title: string; description: string; variant: 'default' | 'destructive' } {
  if (result.pending > 0) {
    return { title: 'Notifications Scheduled', description: `${messages(result.pending)} will be sent ${scheduledFor ?? 'at the chosen time'}.`, variant: 'default' };
  }
  if (result.failed === 0) return { title: 'Notifications Sent', description: `${messages(result.sent)} sent successfully.`, variant: 'default' };
  if (result.sent === 0) {
    return { title: 'Notifications Failed', description: `${messages(result.failed)} could not be sent. History shows why.`, variant: 'destructive' };
  }
  return { title: 'Some Notifications Failed', description: `${result.sent} sent, ${result.failed} failed. History shows why.`, variant: 'destructive' };
}
