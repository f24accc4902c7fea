import { describe, expect, it } from 'vitest';
import { NOTIFICATION_STATUSES, placeholderProblem } from '../../contract';
import { data } from './demo-data.fixture';

describe('generateDemoData: notifications', () => {
  it('creates the default notification templates and a chat summary, the reminder with every placeholder, none with an unknown one', () => {
    expect(data.notificationTemplates.map((t) => [t.name, t.type])).toEqual([
      ['Missing Documents Reminder', 'email'],
      ['Deadline Reminder', 'email'],
      ['Document Rejected', 'email'],
      ['File Not Accepted', 'email'],
      ['Upload Link', 'email'],
      ['Automatic Reminder', 'email'],
      ['Weekly Processing Summary', 'slack'],
    ]);
    for (const template of data.notificationTemplates) {
      expect(placeholderProblem(`${template.subject ?? ''}\n${template.content}`, template.type), template.name).toBeUndefined();
    }
    const reminder = data.notificationTemplates[0];
    for (const placeholder of ['{{guardianName}}', '{{playerName}}', '{{missingDocuments}}', '{{uploadLink}}', '{{season}}', '{{deadline}}']) {
      expect(`${reminder?.subject} ${reminder?.content}`).toContain(placeholder);
    }
  });

  it('creates about ten notification history rows in every status, failures explained, linked to templates', () => {
    expect(data.notificationHistory.length).toBeGreaterThanOrEqual(8);
    expect(data.notificationHistory.length).toBeLessThanOrEqual(12);
    expect(new Set(data.notificationHistory.map((n) => n.status))).toEqual(new Set(NOTIFICATION_STATUSES));
    const templateIds = new Set(data.notificationTemplates.map((t) => t.id));
    for (const row of data.notificationHistory) {
      expect(templateIds.has(row.templateId ?? '')).toBe(true);
      expect(row.errorMessage === null).toBe(row.status !== 'failed');
      expect(row.sentAt === null).toBe(row.status !== 'sent');
    }
  });
});
