import { describe, expect, it } from 'vitest';
import { createdText, invitationMailText, lastActionText, lastLoginText, userFullName, userInitials } from './user-display';

describe('userInitials', () => {
  it('takes the first letter of the first and last name, upper case', () => {
    expect(userInitials({ firstName: 'morgan', lastName: 'reyes', email: 'm@example.org' })).toBe('MR');
    expect(userInitials({ firstName: 'Émile', lastName: 'Ødegaard', email: 'e@example.org' })).toBe('ÉØ');
  });

  it('uses one name when the other is blank, and the e-mail when both are', () => {
    expect(userInitials({ firstName: 'Priya', lastName: ' ', email: 'p@example.org' })).toBe('P');
    expect(userInitials({ firstName: '', lastName: '', email: 'sam@example.org' })).toBe('S');
    expect(userInitials({ firstName: '', lastName: '', email: '' })).toBe('?');
  });
});

describe('userFullName', () => {
  it("writes 'First Last', or the e-mail without a name", () => {
    expect(userFullName({ firstName: 'Sam', lastName: 'Okafor', email: 'sam@example.org' })).toBe('Sam Okafor');
    expect(userFullName({ firstName: ' ', lastName: '', email: 'sam@example.org' })).toBe('sam@example.org');
  });
});

describe('lastLoginText', () => {
  it("says 'Never' for a user who never signed in", () => {
    expect(lastLoginText(null)).toBe('Never');
  });

  it('shows the date and time of the last sign-in', () => {
    expect(lastLoginText('2026-11-20T09:30:00.000Z', (iso) => `at ${iso.slice(0, 16)}`)).toBe('at 2026-11-20T09:30');
    const utc = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
    expect(lastLoginText('2026-11-20T09:30:00.000Z', (iso) => utc.format(new Date(iso)))).toBe('Nov 20, 2026, 9:30 AM');
    expect(lastLoginText('2026-11-20T09:30:00.000Z')).toMatch(/2026/);
  });
});

describe('createdText', () => {
  it('shows the day the account was created, and an unreadable value as it came', () => {
    const utc = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });
    expect(createdText('2024-03-05T23:10:00.000Z', (date) => utc.format(date))).toBe('Mar 5, 2024');
    expect(createdText('not a date')).toBe('not a date');
  });
});

describe('lastActionText and invitationMailText', () => {
  it("says 'None yet' before the first action, else its date and time", () => {
    expect(lastActionText(null)).toBe('None yet');
    expect(lastActionText('2026-11-20T09:30:00.000Z', (iso) => `at ${iso.slice(0, 10)}`)).toBe('at 2026-11-20');
  });

  it('says whether the link was e-mailed, or must be passed on by hand', () => {
    expect(invitationMailText(true, 'dana@example.org')).toBe('We e-mailed it to dana@example.org.');
    expect(invitationMailText(false, 'dana@example.org')).toBe('Mail is not set up: send this link yourself.');
  });
});
