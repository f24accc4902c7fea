import { describe, expect, it } from 'vitest';
import { DEFAULT_DIVISION_AGES, DEFAULT_REQUIREMENT_RULES, ZSeasonRequirements, type TSeasonRequirements } from '../../../contract';
import { localRequirementProblems, requirementsBody, requirementsForm, serverRequirementErrors } from './requirements-form';

const DEFAULTS: TSeasonRequirements = {
  rules: [...DEFAULT_REQUIREMENT_RULES],
  ageDate: '2026-08-31',
  divisionAges: { AAA: DEFAULT_DIVISION_AGES.AAA, AA: DEFAULT_DIVISION_AGES.AA },
  removeVerifiedBirthCertificateFilesAfterDays: null,
};

describe('the requirements form', () => {
  it('sends back what it was filled with, unchanged', () => {
    const form = requirementsForm(DEFAULTS, ['AAA', 'AA']);
    expect(ZSeasonRequirements.parse(requirementsBody(form))).toEqual(DEFAULTS);
  });

  it('leaves out a division with both boxes blank, sends months only when an approval lasts months, and days only when files are deleted', () => {
    const form = requirementsForm(DEFAULTS, ['AAA', 'AA', 'A']);
    expect(form.divisionAges.A).toEqual({ min: '', max: '' });
    const body = requirementsBody({
      ...form,
      rules: form.rules.map((rule) => (rule.docType === 'medical' ? { ...rule, lasts: 'season', months: '12' } : rule)),
      divisionAges: { ...form.divisionAges, AA: { min: '9', max: '' } },
      removeFiles: true,
      removeAfterDays: '45',
    });
    expect(body.divisionAges).toEqual({ AAA: { min: 10, max: 12 }, AA: { min: 9, max: null } });
    expect(body.rules[2]).toMatchObject({ docType: 'medical', lasts: 'season', months: null });
    expect(body.removeVerifiedBirthCertificateFilesAfterDays).toBe(45);
  });

  it('finds what JSON could not carry before sending: numbers that are not whole, a blank count of documents or days', () => {
    const form = requirementsForm(DEFAULTS, ['AAA']);
    const problems = localRequirementProblems({
      ...form,
      rules: form.rules.map((rule) => (rule.docType === 'residency' ? { ...rule, documents: '' } : rule.docType === 'medical' ? { ...rule, months: '1.5' } : rule)),
      divisionAges: { AAA: { min: 'ten', max: '' } },
      removeFiles: true,
      removeAfterDays: ' ',
    });
    expect(problems).toEqual({
      'rules.1.documents': 'Documents needed must be a whole number',
      'rules.2.months': 'Months must be a whole number',
      'divisionAges.AAA.min': 'Youngest age must be a whole number',
      removeVerifiedBirthCertificateFilesAfterDays: 'Days must be a whole number',
    });
    expect(localRequirementProblems(form)).toEqual({});
  });

  it('places the server’s messages under their fields, and shows its message when one has no field', () => {
    const form = requirementsForm(DEFAULTS, ['AAA']);
    const placed = serverRequirementErrors(
      { code: 'VALIDATION_FAILED', message: 'Invalid', details: [{ path: 'body.rules.1.documents', message: 'Too many' }, { path: 'body.divisionAges.AAA.max', message: 'Too young' }] },
      'fallback',
      form,
    );
    expect(placed).toEqual({ fields: { 'rules.1.documents': 'Too many', 'divisionAges.AAA.max': 'Too young' }, message: null });
    const unplaced = serverRequirementErrors({ code: 'VALIDATION_FAILED', message: 'Fall Ball has no Peewee division.', details: [{ path: 'body.divisionAges.Peewee', message: 'x' }] }, 'fallback', form);
    expect(unplaced.message).toBe('Fall Ball has no Peewee division.');
    expect(serverRequirementErrors(undefined, 'Please try again.', form)).toEqual({ fields: {}, message: 'Please try again.' });
  });
});
