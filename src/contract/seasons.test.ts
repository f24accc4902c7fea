import { describe, expect, it } from 'vitest';
import { isCalendarDate, seasonDateProblems, seasonIdFor, ZCreateSeason, ZUpdateSeason } from './seasons';

const FALL = { year: 2026, startsOn: '2026-08-15', endsOn: '2026-11-30', registrationDeadline: '2026-09-15' };

describe('seasons contract', () => {
  it('makes the id from the kind and the year', () => {
    expect(seasonIdFor('Fall Ball', 2026)).toBe('fall-2026');
    expect(seasonIdFor('Spring Ball', 2027)).toBe('spring-2027');
  });

  it('takes only calendar dates as YYYY-MM-DD', () => {
    expect(['2026-02-28', '2028-02-29'].map(isCalendarDate)).toEqual([true, true]);
    expect(['2026-02-29', '2026-13-01', '26-01-01', '2026-1-1', ''].map(isCalendarDate)).toEqual([false, false, false, false, false]);
  });

  it('checks the dates together: end after start, deadline by the end, a year the season runs in', () => {
    expect(seasonDateProblems(FALL)).toEqual([]);
    // The deadline may fall before the season starts (families register ahead) and on its last day.
    expect(seasonDateProblems({ ...FALL, registrationDeadline: '2026-06-01' })).toEqual([]);
    expect(seasonDateProblems({ ...FALL, registrationDeadline: '2026-11-30' })).toEqual([]);
    expect(seasonDateProblems({ ...FALL, endsOn: '2026-08-15', registrationDeadline: '2026-08-01' })).toEqual([
      { field: 'endsOn', message: 'End date must be after the start date (2026-08-15)' },
    ]);
    expect(seasonDateProblems({ ...FALL, registrationDeadline: '2026-12-01' })).toEqual([
      { field: 'registrationDeadline', message: 'Registration deadline must be on or before the end date (2026-11-30)' },
    ]);
    // A season over the new year belongs to either year.
    const winter = { year: 2027, startsOn: '2026-12-01', endsOn: '2027-02-28', registrationDeadline: '2026-11-15' };
    expect(seasonDateProblems(winter)).toEqual([]);
    expect(seasonDateProblems({ ...winter, year: 2025 })).toEqual([{ field: 'year', message: 'Year must be one the season runs in (2026 or 2027)' }]);
  });

  it('puts divisions in the league’s order, once each', () => {
    const parsed = ZCreateSeason.parse({ name: ' Fall Ball 2026 ', kind: 'Fall Ball', ...FALL, divisions: ['A', 'AAA', 'A'] });
    expect(parsed).toMatchObject({ name: 'Fall Ball 2026', divisions: ['AAA', 'A'] });
  });

  it('takes a patch of any field, refuses an empty one and isCurrent false', () => {
    expect(ZUpdateSeason.parse({ closed: true })).toEqual({ closed: true });
    expect(ZUpdateSeason.safeParse({}).success).toBe(false);
    expect(ZUpdateSeason.safeParse({ isCurrent: false }).success).toBe(false);
    expect(ZUpdateSeason.safeParse({ id: 'x' }).success).toBe(false);
  });
});
