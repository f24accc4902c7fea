import { describe, expect, it } from 'vitest';
import type { TNotificationTemplate } from '../../../contract';
import {
  CUSTOM_MESSAGE,
  dateAfter,
  describeSendResult,
  emptySendForm,
  describeIncompleteReminder,
  previewRequest,
  quickActionValues,
  sendChannel,
  toSendRequest,
  validateSendForm,
  WEEKLY_SUMMARY_MESSAGE,
} from './send-form';

const NOW = new Date(2025, 9, 15, 9, 30);
const TEMPLATE_ID = '6f1c1e59-2d7c-4f73-9d3e-1b2a3c4d5e6f';
const templates: TNotificationTemplate[] = [
  { id: TEMPLATE_ID, name: 'Missing Documents Reminder', type: 'email', subject: 's', content: 'c', enabled: true, updatedAt: '' },
  { id: '7f1c1e59-2d7c-4f73-9d3e-1b2a3c4d5e6f', name: 'Weekly', type: 'slack', subject: 's', content: 'c', enabled: true, updatedAt: '' },
];

describe('send form', () => {
  it('starts with the deadline 7 days ahead and a scheduled time an hour ahead', () => {
    expect(emptySendForm(NOW)).toMatchObject({ template: '', recipients: 'all_parents', deadline: '2025-10-22', schedule: false, scheduledAt: '2025-10-15T10:30' });
    expect(dateAfter(new Date(2025, 11, 28), 7)).toBe('2026-01-04');
  });

  it('sends a template without subject and message, and a custom message with them', () => {
    const form = { ...emptySendForm(NOW), template: TEMPLATE_ID, subject: 'ignored', message: 'ignored' };
    expect(toSendRequest(form, 'fall-2025')).toEqual({ templateId: TEMPLATE_ID, recipients: 'all_parents', season: 'fall-2025', deadline: '2025-10-22' });
    const custom = { ...form, template: CUSTOM_MESSAGE, subject: 'Hi', message: 'Hello', recipients: 'custom' as const, customRecipients: 'a@example.org' };
    expect(toSendRequest(custom, undefined)).toEqual({
      templateId: null,
      channel: 'email',
      subject: 'Hi',
      message: 'Hello',
      recipients: 'custom',
      customRecipients: 'a@example.org',
      deadline: '2025-10-22',
    });
  });

  it('adds the scheduled time as an instant only when scheduling', () => {
    const form = { ...emptySendForm(NOW), template: TEMPLATE_ID, schedule: true, scheduledAt: '2025-10-16T08:00' };
    expect(toSendRequest(form, undefined).scheduledAt).toBe(new Date(2025, 9, 16, 8, 0).toISOString());
  });

  it('reports each bad field, with the contract’s messages', () => {
    const result = validateSendForm(
      { ...emptySendForm(NOW), template: CUSTOM_MESSAGE, recipients: 'custom', customRecipients: 'ok@example.org, nope', schedule: true, scheduledAt: '2025-10-15T09:00' },
      undefined,
      NOW,
    );
    expect(result).toEqual({
      ok: false,
      errors: {
        scheduledAt: 'Choose a time in the future',
        message: 'Message is required for a custom message',
        subject: 'Subject is required for a custom e-mail',
        customRecipients: "This is not an e-mail address: 'nope'",
      },
    });
    expect(validateSendForm(emptySendForm(NOW), undefined, NOW)).toEqual({ ok: false, errors: { template: 'Choose a template or Custom Message' } });
  });

  it('asks for a preview only of a form the server would accept; the message text once it is written', () => {
    expect(previewRequest(emptySendForm(NOW), undefined)).toBeNull();
    expect(previewRequest({ ...emptySendForm(NOW), template: CUSTOM_MESSAGE, recipients: 'custom', customRecipients: 'bad' }, undefined)).toBeNull();
    const typing = { ...emptySendForm(NOW), template: CUSTOM_MESSAGE, message: 'typing…', recipients: 'administrators' as const };
    expect(previewRequest(typing, '2025')).toEqual({
      request: { templateId: null, channel: 'email', subject: 'Preview', message: 'Preview', recipients: 'administrators', season: '2025', deadline: '2025-10-22' },
      withText: false,
    });
    expect(previewRequest({ ...typing, subject: 'Hello {{guardianName}}' }, '2025')).toEqual({
      request: { templateId: null, channel: 'email', subject: 'Hello {{guardianName}}', message: 'typing…', recipients: 'administrators', season: '2025', deadline: '2025-10-22' },
      withText: true,
    });
    expect(previewRequest({ ...emptySendForm(NOW), template: TEMPLATE_ID, recipients: 'missing_documents' }, undefined)).toEqual({
      request: { templateId: TEMPLATE_ID, recipients: 'missing_documents', deadline: '2025-10-22' },
      withText: true,
    });
  });

  it('says what the incomplete-players reminder counts, with figures that add up', () => {
    const counts = { season: null, administrators: 1, lastWeek: { received: 0, approved: 0, rejected: 0, pending: 0 } };
    expect(describeIncompleteReminder({ ...counts, incompletePlayers: 158, missingDocuments: { players: 98, withEmail: 97 } })).toEqual({
      label: 'Notify incomplete players — 97 of 158 get the reminder',
      detail: '98 are missing a document; 1 of them has no guardian e-mail; 60 have sent everything and wait for review. Missing Documents Reminder to their guardians.',
    });
    expect(describeIncompleteReminder({ ...counts, incompletePlayers: 1, missingDocuments: { players: 1, withEmail: 1 } })).toEqual({
      label: 'Notify incomplete players — 1 of 1 gets the reminder',
      detail: '1 is missing a document. Missing Documents Reminder to their guardians.',
    });
  });

  it('takes the channel from the template, or the custom choice', () => {
    expect(sendChannel({ ...emptySendForm(NOW), template: templates[1]?.id ?? '' }, templates)).toBe('slack');
    expect(sendChannel({ ...emptySendForm(NOW), template: CUSTOM_MESSAGE, channel: 'teams' }, templates)).toBe('teams');
  });

  it('fills the form for each quick action', () => {
    expect(quickActionValues('incomplete', templates, NOW)).toMatchObject({ template: TEMPLATE_ID, recipients: 'missing_documents' });
    expect(quickActionValues('deadline', templates, NOW)).toMatchObject({ template: CUSTOM_MESSAGE, deadline: '2025-10-22' });
    expect(quickActionValues('weekly', templates, NOW)).toMatchObject({ recipients: 'administrators', message: WEEKLY_SUMMARY_MESSAGE });
    expect(quickActionValues('maintenance', templates, NOW)).toMatchObject({ template: CUSTOM_MESSAGE, subject: 'Scheduled maintenance' });
  });

  it('words the result toast', () => {
    expect(describeSendResult({ sent: 3, failed: 0, pending: 0 })).toEqual({ title: 'Notifications Sent', description: '3 messages sent successfully.', variant: 'default' });
    expect(describeSendResult({ sent: 2, failed: 1, pending: 0 })).toMatchObject({ title: 'Some Notifications Failed', variant: 'destructive' });
    expect(describeSendResult({ sent: 0, failed: 1, pending: 0 })).toMatchObject({ description: '1 message could not be sent. History shows why.' });
    expect(describeSendResult({ sent: 0, failed: 0, pending: 4 }, 'on Oct 16, 8:00 AM')).toMatchObject({
      title: 'Notifications Scheduled',
      description: '4 messages will be sent on Oct 16, 8:00 AM.',
    });
  });
});
