import { describe, expect, it } from 'vitest';
import { addMonths, countingDocuments, dayText } from './eligibility';
import type { EligibilityDocumentRow, SeasonRuleRow } from './eligibility.repository';

const rule = (over: Partial<SeasonRuleRow>): SeasonRuleRow => ({
  seasonId: 'fall-2025',
  docType: 'medical',
  required: true,
  lasts: 'months',
  months: 12,
  documents: 1,
  groups: [],
  datedFrom: null,
  datedTo: null,
  ...over,
});
const doc = (id: string, over: Partial<EligibilityDocumentRow>): EligibilityDocumentRow => ({
  id,
  childKey: 'CB-0000a001',
  seasonId: 'fall-2025',
  seasonName: 'Fall Ball 2025',
  docType: 'medical',
  reviewedBy: 'Sam',
  reviewedAt: new Date('2025-09-02T09:00:00Z'),
  uploadedAt: new Date('2025-09-01T09:00:00Z'),
  documentDate: null,
  residencyGroup: null,
  ...over,
});

describe('eligibility packet', () => {
  it('adds months as PostgreSQL does, the last day of a shorter month', () => {
    expect(addMonths('2025-01-31', 1)).toBe('2025-02-28');
    expect(addMonths('2024-08-20', 12)).toBe('2025-08-20');
    expect(addMonths('2025-11-15', 3)).toBe('2026-02-15');
  });

  it('names days with short English month names', () => {
    expect(dayText('2025-09-02')).toBe('2 Sep 2025');
  });

  it('counts the medical form that lasts longest, and not one that has lapsed', () => {
    const old = doc('a', { seasonId: 'fall-2024', documentDate: '2024-08-01' });
    const recent = doc('b', { seasonId: 'fall-2024', documentDate: '2025-03-01' });
    expect(countingDocuments(rule({}), [old, recent], 'fall-2025', '2025-10-01').map((d) => d.id)).toEqual(['b']);
    expect(countingDocuments(rule({}), [old], 'fall-2025', '2025-10-01')).toEqual([]);
  });

  it('counts another season’s document only when the approval outlasts its season', () => {
    const earlier = doc('a', { seasonId: 'fall-2024', docType: 'waiver' });
    expect(countingDocuments(rule({ docType: 'waiver', lasts: 'season', months: null }), [earlier], 'fall-2025', '2025-10-01')).toEqual([]);
    expect(countingDocuments(rule({ docType: 'birth_certificate', lasts: 'forever', months: null }), [earlier], 'fall-2025', '2025-10-01')).toEqual([earlier]);
  });

  it('takes one document per group, as many as the rule needs', () => {
    const groups = ['I', 'II'];
    const docs = [doc('a', { residencyGroup: 'I' }), doc('b', { residencyGroup: 'I' }), doc('c', { residencyGroup: 'II' }), doc('d', { residencyGroup: 'III' })];
    const residency = rule({ docType: 'residency', lasts: 'season', months: null, documents: 2, groups });
    expect(countingDocuments(residency, docs, 'fall-2025', '2025-10-01').map((d) => d.residencyGroup)).toEqual(['I', 'II']);
  });
});
