import { describe, expect, it } from 'vitest';
import type { TNotificationTemplate } from '../../../contract';
import { DEFAULT_PLAYER_FILTERS } from './player-filters';
import { defaultReminderTemplate, describeReach, playersListFilter, reminderTemplates } from './remind-families';

const template = (name: string, overrides: Partial<TNotificationTemplate> = {}): TNotificationTemplate => ({
  id: name,
  name,
  type: 'email',
  subject: 'Subject',
  content: 'Hello',
  enabled: true,
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

describe('reminder templates', () => {
  it('offers the e-mail templates that are turned on', () => {
    const list = [template('A'), template('Off', { enabled: false }), template('Slack', { type: 'slack' })];
    expect(reminderTemplates(list).map((t) => t.name)).toEqual(['A']);
  });

  it('starts with the missing-documents reminder, else one naming the missing documents, else the first', () => {
    expect(defaultReminderTemplate([template('Deadline Reminder'), template('Missing Documents Reminder')])?.name).toBe('Missing Documents Reminder');
    expect(defaultReminderTemplate([template('Other'), template('Renamed', { content: 'Send {{missingDocuments}}' })])?.name).toBe('Renamed');
    expect(defaultReminderTemplate([template('Other')])?.name).toBe('Other');
    expect(defaultReminderTemplate([])).toBeUndefined();
  });
});

describe('playersListFilter', () => {
  it("carries the list's filters, not its order or page, and leaves out what does not narrow", () => {
    expect(playersListFilter({ ...DEFAULT_PLAYER_FILTERS, division: 'AA', missing: 'birth_certificate', search: '  ' }, 'fall-2025')).toEqual({
      season: 'fall-2025',
      division: 'AA',
      status: 'all',
      missing: 'birth_certificate',
    });
    expect(playersListFilter({ ...DEFAULT_PLAYER_FILTERS, search: ' Kim ' }, undefined)).toEqual({ division: 'all', status: 'all', search: 'Kim' });
  });
});

describe('describeReach', () => {
  it('counts the players with a guardian e-mail out of the whole list', () => {
    expect(describeReach({ count: 97, withoutEmail: 61 })).toBe('97 of 158 players in this list have a guardian e-mail.');
    expect(describeReach({ count: 1, withoutEmail: 1 })).toBe('1 of 2 players in this list has a guardian e-mail.');
    expect(describeReach({ count: 12, withoutEmail: 0 })).toBe('All 12 players in this list have a guardian e-mail.');
    expect(describeReach({ count: 0, withoutEmail: 3 })).toBe('None of the 3 players in this list has a guardian e-mail.');
    expect(describeReach({ count: 0, withoutEmail: 0 })).toBe('No players are in this list.');
  });
});
