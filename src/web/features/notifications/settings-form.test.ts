import { describe, expect, it } from 'vitest';
import type { TNotificationSettings } from '../../../contract';
import { settingsFormValues, toSettingsUpdate, validateSettingsForm } from './settings-form';

const SAVED: TNotificationSettings = {
  email: { host: 'smtp.example.org', port: 587, secure: false, username: 'league', from: 'League <reg@example.org>', passwordSet: true, source: 'settings' },
  slackWebhook: { set: true, hint: '••••abcd' },
  teamsWebhook: { set: false, hint: null },
  switches: { email: true, slack: false, teams: false },
};

describe('notification settings form', () => {
  it('starts from the saved settings with every secret box empty', () => {
    expect(settingsFormValues(SAVED)).toMatchObject({ host: 'smtp.example.org', port: '587', password: '', slack: '', teams: '' });
  });

  it('leaves untouched secrets out, so the server keeps them', () => {
    expect(toSettingsUpdate(settingsFormValues(SAVED))).toEqual({
      email: { host: 'smtp.example.org', port: 587, secure: false, username: 'league', from: 'League <reg@example.org>' },
    });
  });

  it('sends a new secret, and null for a removed one', () => {
    const update = toSettingsUpdate({ ...settingsFormValues(SAVED), password: 'new pass', slack: ' https://hooks.slack.com/x ', removeTeams: true });
    expect(update).toMatchObject({ email: { password: 'new pass' }, slackWebhookUrl: 'https://hooks.slack.com/x', teamsWebhookUrl: null });
    expect(toSettingsUpdate({ ...settingsFormValues(SAVED), removePassword: true }).email.password).toBeNull();
  });

  it('names each bad field', () => {
    const result = validateSettingsForm({ ...settingsFormValues(SAVED), port: '70000', from: 'not an address', slack: 'ftp://x' });
    expect(result.ok).toBe(false);
    expect(result.ok ? {} : result.errors).toEqual({
      port: 'Port must be 1 to 65535',
      from: "From address must be an e-mail address, or a name with one: 'League <registrations@example.org>'",
      slack: 'Slack webhook must be an https:// address',
    });
  });
});
