import { describe, expect, it } from 'vitest';
import { findPlaceholders, parseRecipientList, placeholderProblem, ZNotificationSend, ZNotificationTemplatePatch } from './notifications';

describe('parseRecipientList', () => {
  it('splits on commas, semicolons and new lines, trims, and keeps each address once (ignoring case)', () => {
    expect(parseRecipientList(' a@example.org,b@example.org\nc@example.org ;\r\n\nA@Example.org, ')).toEqual({
      addresses: ['a@example.org', 'b@example.org', 'c@example.org'],
      invalid: [],
    });
  });

  it('lists every entry that is not an e-mail address', () => {
    expect(parseRecipientList('ok@example.org, not-an-address, @example.org, x@, two words@example.org')).toEqual({
      addresses: ['ok@example.org'],
      invalid: ['not-an-address', '@example.org', 'x@', 'two words@example.org'],
    });
  });

  it('gives nothing for an empty list', () => {
    expect(parseRecipientList(' \n , ')).toEqual({ addresses: [], invalid: [] });
  });
});

describe('placeholders', () => {
  it('finds the placeholder names in order, once each', () => {
    expect(findPlaceholders('{{season}} {{ playerName }} {{season}} {{}}')).toEqual(['season', 'playerName', '']);
  });

  it('accepts the known placeholders on e-mail', () => {
    expect(placeholderProblem('{{guardianName}} {{playerName}} {{missingDocuments}} {{season}} {{deadline}}', 'email')).toBeUndefined();
  });

  it('names an unknown placeholder', () => {
    expect(placeholderProblem('Hello {{parentName}}', 'email')).toMatch(/^Unknown placeholder \{\{parentName\}\}\. Use \{\{guardianName\}\}/);
  });

  it('refuses person placeholders in a chat message, which goes to one channel', () => {
    expect(placeholderProblem('{{season}}: {{playerName}}', 'slack')).toBe(
      '{{playerName}} cannot be used in a Slack message: it goes to one channel, not to a family.',
    );
    expect(placeholderProblem('{{season}} {{received}}', 'teams')).toBeUndefined();
  });
});

describe('ZNotificationSend', () => {
  const custom = { templateId: null, subject: 'Hi', message: 'Hello {{guardianName}}', recipients: 'custom' as const };

  it('refuses a custom list with invalid addresses, naming them', () => {
    const result = ZNotificationSend.safeParse({ ...custom, customRecipients: 'good@example.org, bad-one\nworse@' });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([
      expect.objectContaining({ path: ['customRecipients'], message: "These are not e-mail addresses: 'bad-one', 'worse@'" }),
    ]);
  });

  it('refuses an empty custom list and a custom message without text', () => {
    const result = ZNotificationSend.safeParse({ templateId: null, recipients: 'custom', customRecipients: ' , ' });
    expect(result.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['message', 'Message is required for a custom message'],
      ['subject', 'Subject is required for a custom e-mail'],
      ['customRecipients', 'Enter at least one e-mail address'],
    ]);
  });

  it('refuses an unknown placeholder in a custom message', () => {
    const result = ZNotificationSend.safeParse({ ...custom, message: 'Dear {{parent}}', customRecipients: 'a@example.org' });
    expect(result.error?.issues[0]?.message).toMatch(/^Unknown placeholder \{\{parent\}\}/);
  });

  it('fills the defaults of a template send', () => {
    expect(ZNotificationSend.parse({ templateId: '6f1c1e59-2d7c-4f73-9d3e-1b2a3c4d5e6f' })).toMatchObject({
      channel: 'email',
      recipients: 'all_parents',
      customRecipients: '',
      subject: '',
      message: '',
    });
  });
});

describe('ZNotificationTemplatePatch', () => {
  it('needs at least one field and refuses unknown ones', () => {
    expect(ZNotificationTemplatePatch.safeParse({}).success).toBe(false);
    expect(ZNotificationTemplatePatch.safeParse({ type: 'slack' }).success).toBe(false);
    expect(ZNotificationTemplatePatch.parse({ enabled: false })).toEqual({ enabled: false });
  });
});
