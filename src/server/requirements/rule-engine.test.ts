import { describe, expect, it } from 'vitest';
import { DEFAULT_REQUIREMENT_RULES, littleLeagueResidencyRule, type TDocType, type TRequirementRule } from '../../contract';
import { addMonths, judgeRegistration, judgeType, judgingDay, type RuleDocument, type RuleRegistration } from './rule-engine';

const rulesWith = (...changes: Array<Partial<TRequirementRule> & { docType: TDocType }>): TRequirementRule[] =>
  DEFAULT_REQUIREMENT_RULES.map((rule) => ({ ...rule, ...changes.find((change) => change.docType === rule.docType) }));

const SEASONS = {
  'fall-2024': { endsOn: '2024-11-30' },
  'spring-2025': { endsOn: '2025-06-15' },
  'fall-2025': { endsOn: '2025-11-30' },
  'spring-2026': { endsOn: '2026-06-15' },
  'fall-2026': { endsOn: '2026-11-30' },
} as const;
type SeasonId = keyof typeof SEASONS;

const registration = (seasonId: SeasonId, rules: readonly TRequirementRule[] = DEFAULT_REQUIREMENT_RULES): RuleRegistration => ({
  playerId: `CB-${seasonId.slice(-4)}-0badf00d`,
  seasonId,
  seasonEndsOn: SEASONS[seasonId].endsOn,
  registeredAt: new Date(`${seasonId.slice(-4)}-01-10T12:00:00Z`),
  rules,
});

let nextId = 0;
/** A document of the child, verified on `on` unless another status is given. */
const doc = (seasonId: SeasonId, docType: TDocType, on: string, extra: Partial<RuleDocument> = {}): RuleDocument => ({
  id: `d${++nextId}`,
  playerId: `CB-${seasonId.slice(-4)}-0badf00d`,
  seasonId,
  docType,
  status: 'verified',
  uploadedAt: new Date(`${on}T09:00:00Z`),
  reviewedAt: new Date(`${on}T15:00:00Z`),
  documentDate: null,
  residencyGroup: null,
  purged: false,
  ...extra,
});

const allFour = (seasonId: SeasonId, on: string, medicalExam: string | null = null): RuleDocument[] => [
  doc(seasonId, 'birth_certificate', on),
  doc(seasonId, 'residency', on),
  doc(seasonId, 'medical', on, { documentDate: medicalExam }),
  doc(seasonId, 'waiver', on),
];

describe('addMonths: as PostgreSQL adds months to a date', () => {
  it.each([
    ['2025-09-01', 12, '2026-09-01'],
    ['2025-01-31', 1, '2025-02-28'],
    ['2024-01-31', 1, '2024-02-29'],
    ['2025-03-31', 1, '2025-04-30'],
    ['2025-08-31', 12, '2026-08-31'],
    ['2024-02-29', 12, '2025-02-28'],
    ['2024-02-29', 48, '2028-02-29'],
    ['2025-12-15', 1, '2026-01-15'],
    ['2025-11-30', 3, '2026-02-28'],
  ])('%s + %i months = %s', (day, months, expected) => {
    expect(addMonths(day, months)).toBe(expected);
  });
});

describe('judgingDay', () => {
  it.each([
    ['2026-03-01', '2026-06-15', '2026-03-01'],
    ['2026-06-15', '2026-06-15', '2026-06-15'],
    ['2026-11-26', '2026-06-15', '2026-06-15'],
  ])('on %s a season ending %s is judged on %s', (today, endsOn, expected) => {
    expect(judgingDay(today, endsOn)).toBe(expected);
  });
});

describe('carry-over across three seasons under the default rules', () => {
  // The child hands in all four in fall 2024 (exam 2024-08-20), then only the yearly documents.
  const documents = [
    ...allFour('fall-2024', '2024-09-05', '2024-08-20'),
    doc('spring-2025', 'residency', '2025-02-10'),
    doc('spring-2025', 'waiver', '2025-02-10'),
    doc('fall-2025', 'residency', '2025-08-25'),
    doc('fall-2025', 'waiver', '2025-08-25'),
    doc('fall-2025', 'medical', '2025-08-25', { documentDate: '2025-08-18' }),
  ];

  it.each([
    // season, today, birth certificate, residency, medical, waiver, complete, expires on
    ['fall-2024', '2024-10-01', 'complete', 'complete', 'complete', 'complete', true, null],
    ['spring-2025', '2025-03-01', 'complete', 'complete', 'complete', 'complete', true, null],
    // Judged on the season's last day once it is over; the 2024 exam lapses on 2025-08-20, after it.
    ['spring-2025', '2025-07-01', 'complete', 'complete', 'complete', 'complete', true, null],
    ['fall-2025', '2025-09-01', 'complete', 'complete', 'complete', 'complete', true, null],
  ] as const)('%s on %s', (seasonId, today, bc, residency, medical, waiver, complete, expiresOn) => {
    const judged = judgeRegistration(registration(seasonId), documents, today);
    expect(judged.statuses).toEqual({ birth_certificate: bc, residency, medical, waiver });
    expect(judged.completeTypes === 4).toBe(complete);
    expect(judged.expiresOn).toBe(expiresOn);
  });

  it('a new season with no yearly documents yet keeps the birth certificate and a medical form still valid', () => {
    const judged = judgeRegistration(registration('spring-2026'), documents, '2026-02-01');
    expect(judged.statuses).toEqual({ birth_certificate: 'complete', residency: 'missing', medical: 'complete', waiver: 'missing' });
    // The 2025 exam (2025-08-18) lapses on 2026-08-18, after spring 2026 ends: no expiry within the season.
    expect(judged.expiresOn).toBeNull();
    const fall = judgeRegistration(registration('fall-2026'), documents, '2026-08-01');
    expect(fall.statuses.medical).toBe('complete');
    expect(fall.expiresOn).toBe('2026-08-18');
  });

  it('an approval made after the judging day does not reach back into an ended season', () => {
    const late = [doc('fall-2025', 'birth_certificate', '2025-09-01')];
    expect(judgeRegistration(registration('spring-2025'), late, '2025-12-01').statuses.birth_certificate).toBe('missing');
    expect(judgeRegistration(registration('spring-2026'), late, '2026-02-01').statuses.birth_certificate).toBe('complete');
  });

  it('with "this season only" the birth certificate does not carry over', () => {
    const rules = rulesWith({ docType: 'birth_certificate', lasts: 'season' });
    expect(judgeRegistration(registration('spring-2025', rules), documents, '2025-03-01').statuses.birth_certificate).toBe('missing');
  });

  it('a rejected or pending document of another season carries nothing, a purged one counts for nothing', () => {
    const others = [
      doc('fall-2024', 'birth_certificate', '2024-09-05', { status: 'rejected' }),
      doc('fall-2024', 'birth_certificate', '2024-09-06', { status: 'pending' }),
      doc('fall-2024', 'birth_certificate', '2024-09-07', { purged: true }),
    ];
    expect(judgeRegistration(registration('spring-2025'), others, '2025-03-01').statuses.birth_certificate).toBe('missing');
  });
});

describe('a medical form valid 12 months from the exam', () => {
  const medical = (exam: string | null, on = '2025-09-10') => [doc('fall-2026', 'medical', on, { documentDate: exam })];
  it.each([
    // exam date, today, status, expires on (within fall 2026, ends 2026-11-30)
    ['2025-09-01', '2026-08-31', 'complete', '2026-09-01'],
    ['2025-09-01', '2026-09-01', 'expired', null],
    ['2025-10-31', '2026-10-30', 'complete', '2026-10-31'],
    ['2025-10-31', '2026-10-31', 'expired', null],
    ['2025-10-31', '2026-11-01', 'expired', null],
    ['2025-12-31', '2026-11-30', 'complete', null],
  ] as const)('examined %s, on %s: %s', (exam, today, status, expiresOn) => {
    const judged = judgeType(DEFAULT_REQUIREMENT_RULES[2] as TRequirementRule, registration('fall-2026'), medical(exam), judgingDay(today, '2026-11-30'));
    expect(judged.status).toBe(status);
    expect(judged.expiresOn).toBe(expiresOn);
  });

  it('counts from the day it was received when no exam date was recorded', () => {
    const judged = judgeRegistration(registration('fall-2026'), medical(null, '2025-10-15'), '2026-10-14');
    expect(judged.statuses.medical).toBe('complete');
    expect(judged.expiresOn).toBe('2026-10-15');
    expect(judgeRegistration(registration('fall-2026'), medical(null, '2025-10-15'), '2026-10-15').statuses.medical).toBe('expired');
  });

  it('a renewal under review shows as pending, not expired; approved, it counts from its own exam', () => {
    const renewal = doc('fall-2026', 'medical', '2026-08-20', { status: 'pending', documentDate: '2026-08-15' });
    expect(judgeRegistration(registration('fall-2026'), [...medical('2025-09-01'), renewal], '2026-09-02').statuses.medical).toBe('pending');
    const approved = { ...renewal, status: 'verified' as const };
    const judged = judgeRegistration(registration('fall-2026'), [...medical('2025-09-01'), approved], '2026-09-02');
    expect(judged.statuses.medical).toBe('complete');
    expect(judged.expiresOn).toBeNull();
  });

  it('a season that ended is judged on its last day', () => {
    const judged = judgeRegistration(registration('fall-2025'), [doc('fall-2025', 'medical', '2025-09-10', { documentDate: '2025-09-01' })], '2026-11-26');
    expect(judged.statuses.medical).toBe('complete');
  });
});

describe('residency: documents from groups, dated in a window', () => {
  const rules = rulesWith(littleLeagueResidencyRule(2026));
  const [groupI, groupII, groupIII] = littleLeagueResidencyRule(2026).groups as [string, string, string];
  const residency = (group: string | null, dated: string | null, extra: Partial<RuleDocument> = {}) =>
    doc('spring-2026', 'residency', '2026-02-20', { residencyGroup: group, documentDate: dated, ...extra });

  it.each([
    ['one from each of the three groups', [[groupI, '2025-06-01'], [groupII, '2025-09-01'], [groupIII, '2026-01-15']], 'complete'],
    ['two of one group are one', [[groupI, '2025-06-01'], [groupI, '2025-07-01'], [groupII, '2025-09-01']], 'missing'],
    ['dated the first day of the window', [[groupI, '2025-02-01'], [groupII, '2025-09-01'], [groupIII, '2026-01-15']], 'complete'],
    ['dated the last day of the window', [[groupI, '2026-02-01'], [groupII, '2025-09-01'], [groupIII, '2026-01-15']], 'complete'],
    ['dated a day before the window', [[groupI, '2025-01-31'], [groupII, '2025-09-01'], [groupIII, '2026-01-15']], 'missing'],
    ['dated a day after the window', [[groupI, '2026-02-02'], [groupII, '2025-09-01'], [groupIII, '2026-01-15']], 'missing'],
    ['no date recorded', [[groupI, null], [groupII, '2025-09-01'], [groupIII, '2026-01-15']], 'missing'],
    ['a group the season does not name', [['Group IV', '2025-06-01'], [groupII, '2025-09-01'], [groupIII, '2026-01-15']], 'missing'],
    ['no group recorded', [[null, '2025-06-01'], [groupII, '2025-09-01'], [groupIII, '2026-01-15']], 'missing'],
  ] as const)('%s: %s', (_case, documents, status) => {
    const judged = judgeRegistration(registration('spring-2026', rules), documents.map(([group, dated]) => residency(group, dated)), '2026-03-01');
    expect(judged.statuses.residency).toBe(status);
  });

  it('a missing group under review shows the type as pending', () => {
    const documents = [residency(groupI, '2025-06-01'), residency(groupII, '2025-09-01'), residency(null, null, { status: 'pending' })];
    expect(judgeRegistration(registration('spring-2026', rules), documents, '2026-03-01').statuses.residency).toBe('pending');
  });

  it('residency proved last season does not count this season', () => {
    const last = [doc('fall-2025', 'residency', '2025-08-20')];
    expect(judgeRegistration(registration('spring-2026'), last, '2026-03-01').statuses.residency).toBe('missing');
  });
});

describe('types a season does not require', () => {
  it('count as met, and a player with the others complete is complete', () => {
    const rules = rulesWith({ docType: 'medical', required: false });
    const documents = [doc('spring-2026', 'birth_certificate', '2026-02-01'), doc('spring-2026', 'residency', '2026-02-02'), doc('spring-2026', 'waiver', '2026-02-03')];
    const judged = judgeRegistration(registration('spring-2026', rules), documents, '2026-03-01');
    expect(judged.statuses.medical).toBe('not_required');
    expect(judged.completeTypes).toBe(4);
    expect(judged.completedAt).toEqual(new Date('2026-02-03T15:00:00Z'));
  });

  it('nothing required: complete since registration', () => {
    const rules = DEFAULT_REQUIREMENT_RULES.map((rule) => ({ ...rule, required: false }));
    const judged = judgeRegistration(registration('spring-2026', rules), [], '2026-03-01');
    expect(judged.completeTypes).toBe(4);
    expect(judged.completedAt).toEqual(new Date('2026-01-10T12:00:00Z'));
  });
});
