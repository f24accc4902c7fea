import { describe, expect, it } from 'vitest';
import { expiringText, formatShortDay, leagueAgeText } from './league-age';

const ages = { AA: { min: 8, max: 10 }, AAA: { min: 10, max: 12 } };

describe('league age in words', () => {
  it('gives the age, and a flag naming the division and its ages when it is outside them', () => {
    expect(leagueAgeText({ leagueAge: 9, ageFitsDivision: true, division: 'AA' }, ages)).toEqual({ age: 'Age 9', flag: null });
    expect(leagueAgeText({ leagueAge: 12, ageFitsDivision: false, division: 'AA' }, ages)).toEqual({
      age: 'Age 12',
      flag: { text: 'Age 12 · outside AA (ages 8–10)', label: 'League age 12 is outside AA, which takes ages 8–10' },
    });
    // The season's ages not known here: the flag still says so, without them.
    expect(leagueAgeText({ leagueAge: 12, ageFitsDivision: false, division: 'AA' }, undefined).flag?.text).toBe('Age 12 · outside AA');
    expect(leagueAgeText({ leagueAge: null, ageFitsDivision: null, division: 'AA' }, ages)).toEqual({ age: null, flag: null });
  });

  it('names the approvals that run out and the day', () => {
    const status = { birth_certificate: 'complete', residency: 'complete', medical: 'complete', waiver: 'complete' } as const;
    expect(formatShortDay('2026-09-01')).toBe('1 Sep 2026');
    expect(expiringText({ expiresOn: '2026-09-01', documentsStatus: status })).toBe('Medical Form expires on 1 Sep 2026');
    expect(expiringText({ expiresOn: '2026-09-01', documentsStatus: status }, ['medical', 'residency'])).toBe(
      'Residency Proof and Medical Form expire on 1 Sep 2026',
    );
    expect(expiringText({ expiresOn: null, documentsStatus: status })).toBeNull();
  });
});
