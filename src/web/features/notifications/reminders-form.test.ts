import { describe, expect, it } from 'vitest';
import { AFTER_REJECTION_LIMITS, daysText, describeNextReminder, parseDays } from './reminders-form';

const schedule = {
  season: { id: 'fall-2026', name: 'Fall Ball 2026', registrationDeadline: '2026-12-19' },
  enabled: true,
  daysBeforeDeadline: [14, 7, 2],
  daysAfterRejection: [3],
  upcoming: [
    { on: '2026-12-12', reason: '7 days before the deadline' },
    { on: '2026-12-17', reason: '2 days before the deadline' },
  ],
};

describe('automatic reminders form', () => {
  it('reads a list of days typed with commas or spaces, largest first', () => {
    expect(parseDays('2, 14 7', 'Days before the deadline')).toEqual({ days: [14, 7, 2] });
    expect(parseDays('  ', 'Days before the deadline')).toEqual({ days: [] });
    expect(daysText([14, 7, 2])).toBe('14, 7, 2');
  });

  it('says in words what is wrong with a list', () => {
    expect(parseDays('7, two', 'Days before the deadline')).toEqual({ error: "Days before the deadline: 'two' is not a whole number of days." });
    expect(parseDays('0', 'Days after a rejection')).toEqual({ error: 'Days after a rejection: each must be at least 1 day.' });
    expect(parseDays('3, 3', 'Days after a rejection')).toEqual({ error: 'Days after a rejection: 3 is listed twice.' });
    expect(parseDays('31', 'Days after a rejection', AFTER_REJECTION_LIMITS)).toEqual({ error: 'Days after a rejection: each must be at most 30 days.' });
    expect(parseDays('1 2 3 4', 'Days after a rejection', AFTER_REJECTION_LIMITS)).toEqual({ error: 'Days after a rejection: at most 3 reminders.' });
  });

  it('says when the next reminders go out', () => {
    expect(describeNextReminder(schedule)).toBe('Next: 12 Dec (7 days before the deadline)');
    expect(describeNextReminder({ ...schedule, enabled: false })).toBe('Automatic reminders are off for this season.');
    expect(describeNextReminder({ ...schedule, upcoming: [] })).toMatch(/^No more reminders before the deadline/);
  });
});
