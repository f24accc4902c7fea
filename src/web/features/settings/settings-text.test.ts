import { describe, expect, it } from 'vitest';
import { describeSettingsChange, parseRejectReasons, parseSessionTimeout, parseUploadLinkDays, parseSettingsTab, scanningNote, settingsHealthLabel, storageUsage } from './settings-text';

describe('Settings screen text', () => {
  it('says what a save changed', () => {
    expect(describeSettingsChange({ antivirusScanning: false })).toBe('Antivirus scanning turned off.');
    expect(describeSettingsChange({ slackNotifications: true, sessionTimeoutMinutes: 30 })).toBe(
      'Slack notifications turned on. Session timeout set to 30 minutes.',
    );
    expect(describeSettingsChange({ signInMode: 'personal' })).toBe('Sign-in set to Personal accounts only.');
    expect(describeSettingsChange({ signInMode: 'both', requireTwoFactorForAdmins: true })).toBe(
      'Sign-in set to Personal accounts and the shared password. Two-step sign-in for admins turned on.',
    );
  });

  it('says how long upload links now work', () => {
    expect(describeSettingsChange({ uploadLinkDays: 14 })).toBe('Upload links work for 14 days.');
    expect(describeSettingsChange({ uploadLinkDays: 1 })).toBe('Upload links work for 1 day.');
  });

  it('checks the reject reasons with the contract’s rule, naming the reason at fault', () => {
    expect(parseRejectReasons([' Blurry ', 'Wrong document'])).toEqual({ ok: true, value: ['Blurry', 'Wrong document'] });
    expect(parseRejectReasons(['Blurry', '  '])).toEqual({ ok: false, message: 'Reason 2: A reason cannot be empty.' });
    expect(parseRejectReasons(['Blurry', 'blurry'])).toEqual({ ok: false, message: 'Each reason must be different.' });
    expect(parseRejectReasons([])).toEqual({ ok: false, message: 'Keep at least one reason.' });
    expect(describeSettingsChange({ rejectReasons: ['Blurry', 'Wrong document'] })).toBe('Reasons for not accepting a document saved: 2 reasons.');
  });

  it('checks the upload link days with the contract’s rule', () => {
    expect(parseUploadLinkDays(' 14 ')).toEqual({ ok: true, value: 14 });
    expect(parseUploadLinkDays('')).toEqual({ ok: false, message: 'Enter how many days an upload link works.' });
    expect(parseUploadLinkDays('0')).toEqual({ ok: false, message: 'Upload link days must be at least 1 day.' });
    expect(parseUploadLinkDays('181')).toEqual({ ok: false, message: 'Upload link days must be at most 180 days.' });
    expect(parseUploadLinkDays('2.5')).toEqual({ ok: false, message: 'Upload links must work for a whole number of days.' });
    expect(parseUploadLinkDays('ten')).toEqual({ ok: false, message: 'Upload links must work for a whole number of days.' });
  });

  it('checks the session timeout with the contract’s rule', () => {
    expect(parseSessionTimeout(' 45 ')).toEqual({ ok: true, value: 45 });
    expect(parseSessionTimeout('')).toEqual({ ok: false, message: 'Enter the session timeout in minutes.' });
    expect(parseSessionTimeout('4')).toEqual({ ok: false, message: 'Session timeout must be at least 5 minutes.' });
    expect(parseSessionTimeout('1441')).toEqual({ ok: false, message: 'Session timeout must be at most 1440 minutes (24 hours).' });
    expect(parseSessionTimeout('7.5')).toEqual({ ok: false, message: 'Session timeout must be a whole number of minutes.' });
    expect(parseSessionTimeout('abc')).toEqual({ ok: false, message: 'Session timeout must be a whole number of minutes.' });
  });

  it('labels health as the settings screen words it', () => {
    expect(['ok', 'warning', 'error', 'odd', undefined].map(settingsHealthLabel)).toEqual(['Connected', 'Degraded', 'Error', 'Unknown', 'Unknown']);
  });

  it('shows the usage of the driver in use, and notes documents left with another', () => {
    expect(storageUsage({ driver: 's3', location: 's3://b', usage: [] })).toEqual({ documents: 0, bytes: 0, elsewhere: undefined });
    expect(
      storageUsage({
        driver: 's3',
        location: 's3://b',
        usage: [
          { driver: 'local', documents: 3, bytes: 300 },
          { driver: 's3', documents: 10, bytes: 5000 },
        ],
      }),
    ).toEqual({ documents: 10, bytes: 5000, elsewhere: { driver: 'local', documents: 3 } });
  });

  it('explains the scanning switch for this installation', () => {
    expect(scanningNote(undefined, false)).toMatch(/^Off: new files are stored without a virus scan/);
    expect(scanningNote({ scanningOn: true, clamdConfigured: false, clamdLocation: null }, true)).toMatch(/no virus scanner is connected/);
    expect(scanningNote({ scanningOn: true, clamdConfigured: true, clamdLocation: 'tcp://av:3310' }, true)).toContain('at tcp://av:3310');
  });

  it('reads the tab from the query string, System by default', () => {
    expect(parseSettingsTab('')).toBe('system');
    expect(parseSettingsTab('?tab=security')).toBe('security');
    expect(parseSettingsTab('tab=nope')).toBe('system');
  });
});
