import { describe, expect, it } from 'vitest';
import { listInWords, registrationRefusal } from './season-rules';

const FALL = { name: 'Fall Ball 2026', divisions: ['AAA', 'AA', 'A'] as const, closedAt: null };

describe('registrationRefusal', () => {
  it('takes a division the open season offers', () => {
    expect(registrationRefusal({ ...FALL, divisions: [...FALL.divisions] }, 'AA')).toBeUndefined();
  });

  it('refuses every registration into a closed season, in words a family understands', () => {
    expect(registrationRefusal({ ...FALL, divisions: [...FALL.divisions], closedAt: new Date('2026-10-01T00:00:00Z') }, 'AA')).toEqual({
      field: 'season',
      message: 'The Fall Ball 2026 season is closed to new registrations.',
    });
  });

  it('refuses a division the season does not offer, naming those it does', () => {
    expect(registrationRefusal({ ...FALL, divisions: [...FALL.divisions] }, 'Peewee')).toEqual({
      field: 'division',
      message: 'The Fall Ball 2026 season has no Peewee division. Choose one of AAA, AA and A.',
    });
    expect(registrationRefusal({ ...FALL, divisions: ['AAA'] }, 'A')?.message).toBe('The Fall Ball 2026 season has no A division. Choose AAA.');
  });
});

describe('listInWords', () => {
  it('joins with commas and a last "and"', () => {
    expect([[], ['A'], ['A', 'B'], ['A', 'B', 'C']].map(listInWords)).toEqual(['', 'A', 'A and B', 'A, B and C']);
  });
});
