import { describe, expect, it } from 'vitest';
import type { TNotificationSettings } from '../../../contract';
import { HIDDEN_FOR_ROLE_TEXT } from '@/components/read-only-text';
import { mailServerSummary, webhookSummary, type ShownNotificationSettings } from './settings-summary';

const FULL: TNotificationSettings = {
  email: { host: 'smtp.example.org', port: 587, secure: false, username: 'league', from: 'League <reg@example.org>', passwordSet: true, source: 'settings' },
  slackWebhook: { set: true, hint: '••••abcd' },
  teamsWebhook: { set: false, hint: null },
  switches: { email: true, slack: false, teams: false },
};

const values = (settings: ShownNotificationSettings) => Object.fromEntries(mailServerSummary(settings).map((row) => [row.label, row.value]));

describe('mailServerSummary', () => {
  it('shows every field the server sent, and never a secret itself', () => {
    expect(values(FULL)).toEqual({
      'E-mail goes through': 'The server saved here',
      Host: 'smtp.example.org',
      Port: '587',
      TLS: 'STARTTLS when offered',
      Username: 'league',
      Password: 'Saved',
      'From address': 'League <reg@example.org>',
    });
  });

  it('says a field the server left out for this role is hidden, absent or null alike', () => {
    const shown = values({ email: { host: null, port: 587, secure: true, from: 'League <reg@example.org>', source: 'environment' } });
    expect(shown.Host).toBe(HIDDEN_FOR_ROLE_TEXT);
    expect(shown.Username).toBe(HIDDEN_FOR_ROLE_TEXT);
    expect(shown.Password).toBe(HIDDEN_FOR_ROLE_TEXT);
    expect(shown.TLS).toBe('From the start (port 465)');
    expect(shown['E-mail goes through']).toBe('The server set by SMTP_URL');
  });

  it('tells a field that is simply not set from a hidden one', () => {
    const shown = values({ ...FULL, email: { ...FULL.email, host: '', username: '', passwordSet: false, source: 'none' } });
    expect(shown.Host).toBe('Not set');
    expect(shown.Username).toBe('None');
    expect(shown.Password).toBe('None');
  });
});

describe('webhookSummary', () => {
  it('says whether a webhook is saved, never its address or hint', () => {
    expect(webhookSummary(FULL.slackWebhook)).toBe('Saved');
    expect(webhookSummary(FULL.teamsWebhook)).toBe('Not set');
  });

  it('says it is hidden when the server left it out', () => {
    expect(webhookSummary(undefined)).toBe(HIDDEN_FOR_ROLE_TEXT);
    expect(webhookSummary(null)).toBe(HIDDEN_FOR_ROLE_TEXT);
    expect(webhookSummary({ hint: null })).toBe(HIDDEN_FOR_ROLE_TEXT);
  });
});
