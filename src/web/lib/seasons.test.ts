import { describe, expect, it } from 'vitest';
import type { TSeason } from '../../contract';
import { currentSeason, resolveSeason } from './seasons';

const season = (id: string, isCurrent = false): TSeason => {
  const [kind, year] = id.split('-') as [string, string];
  const fall = kind === 'fall';
  return {
    id,
    name: `${fall ? 'Fall' : 'Spring'} Ball ${year}`,
    kind: fall ? 'Fall Ball' : 'Spring Ball',
    year: Number(year),
    startsOn: fall ? `${year}-08-15` : `${year}-03-01`,
    endsOn: fall ? `${year}-11-30` : `${year}-06-30`,
    registrationDeadline: fall ? `${year}-09-15` : `${year}-03-31`,
    divisions: ['AAA', 'AA', 'A'],
    isCurrent,
    closed: false,
    closedAt: null,
  };
};
// Newest first, as GET /api/seasons answers.
const SEASONS = [season('fall-2025', true), season('spring-2025'), season('fall-2024'), season('spring-2024')];

describe('resolveSeason', () => {
  it('reads no season as the current one', () => {
    expect(resolveSeason(SEASONS, undefined)?.id).toBe('fall-2025');
    expect(resolveSeason(SEASONS, '')?.id).toBe('fall-2025');
  });

  it("reads a year as that year's latest season", () => {
    expect(resolveSeason(SEASONS, 2024)?.id).toBe('fall-2024');
    expect(resolveSeason(SEASONS, '2025')?.id).toBe('fall-2025');
  });

  it('reads an id as itself, and nothing for an unknown one', () => {
    expect(resolveSeason(SEASONS, 'spring-2024')?.id).toBe('spring-2024');
    expect(resolveSeason(SEASONS, 'fall-1999')).toBeUndefined();
  });
});

describe('currentSeason', () => {
  it('falls back to the newest season when none is marked current', () => {
    expect(currentSeason([season('fall-2024'), season('spring-2024')])?.id).toBe('fall-2024');
    expect(currentSeason([])).toBeUndefined();
  });
});
