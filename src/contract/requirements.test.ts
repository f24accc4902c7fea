import { describe, expect, it } from 'vitest';
import {
  ageDateFor,
  ageFitsDivision,
  DEFAULT_REQUIREMENT_RULES,
  divisionAgesText,
  leagueAge,
  littleLeagueResidencyRule,
  ZRequirementRule,
  ZSeasonRequirements,
} from './requirements';

describe('league age under each sport', () => {
  it.each([
    // sport, season year, birth date, league age
    ['baseball', 2026, '2016-08-31', 10],
    ['baseball', 2026, '2016-09-01', 9],
    ['softball', 2026, '2016-01-01', 10],
    ['softball', 2026, '2016-01-02', 9],
    ['hockey', 2026, '2016-12-31', 10],
    ['hockey', 2026, '2017-01-01', 9],
    // Born on a leap day: a year older on 1 March in other years.
    ['baseball', 2026, '2016-02-29', 10],
    ['softball', 2026, '2016-02-29', 9],
    ['hockey', 2026, '2016-02-29', 10],
    ['softball', 2028, '2016-02-29', 11],
    ['baseball', 2028, '2020-02-29', 8],
  ] as const)('%s %i, born %s: %i', (sport, year, born, age) => {
    expect(leagueAge(born, ageDateFor(sport, year))).toBe(age);
  });

  it('a leap-day child on a 28 February age date is not a year older yet, on 29 February and 1 March they are', () => {
    expect(leagueAge('2016-02-29', '2027-02-28')).toBe(10);
    expect(leagueAge('2016-02-29', '2027-03-01')).toBe(11);
    expect(leagueAge('2016-02-29', '2028-02-29')).toBe(12);
  });

  it('age dates of the sports', () => {
    expect([ageDateFor('baseball', 2026), ageDateFor('softball', 2026), ageDateFor('hockey', 2026)]).toEqual(['2026-08-31', '2026-01-01', '2026-12-31']);
  });
});

describe('division ages', () => {
  it.each([
    [9, { min: 8, max: 10 }, true],
    [8, { min: 8, max: 10 }, true],
    [10, { min: 8, max: 10 }, true],
    [7, { min: 8, max: 10 }, false],
    [11, { min: 8, max: 10 }, false],
    [15, { min: 10, max: null }, true],
    [5, { min: null, max: 6 }, true],
    [12, undefined, true],
  ] as const)('age %i in %o fits: %s', (age, ages, fits) => {
    expect(ageFitsDivision(age, ages)).toBe(fits);
  });

  it('in words', () => {
    expect(divisionAgesText({ min: 8, max: 10 })).toBe('ages 8–10');
    expect(divisionAgesText({ min: 10, max: null })).toBe('ages 10 and over');
    expect(divisionAgesText({ min: null, max: 6 })).toBe('ages 6 and under');
    expect(divisionAgesText({ min: 9, max: 9 })).toBe('age 9');
    expect(divisionAgesText(undefined)).toBe('any age');
  });
});

describe('the rules as the API takes them', () => {
  it('the defaults and the Little League residency rule are valid', () => {
    for (const rule of [...DEFAULT_REQUIREMENT_RULES, littleLeagueResidencyRule(2026)]) expect(ZRequirementRule.safeParse(rule).success).toBe(true);
  });

  it.each([
    [{ lasts: 'months', months: null }, 'Say how many months an approval lasts'],
    [{ documents: 4, groups: ['A', 'B', 'C'] }, 'Documents needed cannot be more than the 3 groups they come from'],
    [{ groups: ['Bills', 'bills'] }, 'Each group needs a different name'],
    [{ datedFrom: '2026-02-01', datedTo: '2025-02-01' }, 'Dated to must be on or after 2026-02-01'],
    [{ months: 61, lasts: 'months' }, 'Months must be at most 60'],
  ] as const)('refuses %o: %s', (change, message) => {
    const result = ZRequirementRule.safeParse({ ...DEFAULT_REQUIREMENT_RULES[1], ...change });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toContain(message);
  });

  it('a season needs one rule per type and puts them in order', () => {
    const body = { rules: [...DEFAULT_REQUIREMENT_RULES].reverse(), ageDate: '2026-08-31', divisionAges: { AA: { min: 8, max: 10 } }, removeVerifiedBirthCertificateFilesAfterDays: null };
    expect(ZSeasonRequirements.parse(body).rules.map((rule) => rule.docType)).toEqual(['birth_certificate', 'residency', 'medical', 'waiver']);
    const missingOne = ZSeasonRequirements.safeParse({ ...body, rules: DEFAULT_REQUIREMENT_RULES.slice(1) });
    expect(missingOne.error?.issues[0]?.message).toBe('Send one rule for each of the 4 document types');
  });
});
