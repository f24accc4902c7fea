import { describe, expect, it } from 'vitest';
import { NOTHING_EXTRACTED, type TExtracted } from '../../contract';
import { isDifferentPerson, isReadable, readingChecks } from './checks';
import type { CheckInput } from './types';

const REGISTRATION = { firstName: 'Ana', lastName: 'Lopez', birthDate: '2016-04-03' };

function input(extracted: Partial<TExtracted>, overrides: Partial<CheckInput> = {}): CheckInput {
  return {
    extracted: { ...NOTHING_EXTRACTED, confidence: 0.9, ...extracted },
    readable: true,
    declaredType: 'birth_certificate',
    registration: REGISTRATION,
    today: '2025-06-01',
    ...overrides,
  };
}

const kinds = (checkInput: CheckInput) => readingChecks(checkInput).map((check) => check.kind);

describe('readingChecks', () => {
  it('raises nothing on a correct document', () => {
    expect(readingChecks(input({ docType: 'birth_certificate', fullName: 'Ana Lopez', dateOfBirth: '2016-04-03' }))).toEqual([]);
  });

  it('type_mismatch: the content says another type than the sender', () => {
    expect(readingChecks(input({ docType: 'medical' }, { declaredType: 'waiver' }))).toEqual([
      { kind: 'type_mismatch', message: 'This reads as a medical form, but it was sent as a liability waiver.' },
    ]);
    expect(kinds(input({ docType: 'medical' }, { declaredType: 'medical' }))).toEqual([]);
    expect(kinds(input({ docType: null }, { declaredType: 'waiver' }))).toEqual([]);
    expect(kinds(input({ docType: 'medical' }, { declaredType: null }))).toEqual([]);
  });

  it('dob_mismatch: the date of birth printed is not the registration’s', () => {
    expect(readingChecks(input({ docType: 'birth_certificate', dateOfBirth: '2016-04-30' }))).toEqual([
      { kind: 'dob_mismatch', message: 'The certificate shows 30 Apr 2016 but the registration says 3 Apr 2016.' },
    ]);
    expect(kinds(input({ dateOfBirth: '2016-04-03' }))).toEqual([]);
    expect(kinds(input({ dateOfBirth: null }))).toEqual([]);
  });

  it('dob_mismatch: not when the day and month may only be read the other way round', () => {
    expect(kinds(input({ dateOfBirth: '2016-03-04' }))).toEqual([]);
  });

  it('name_mismatch: the name printed is someone else', () => {
    expect(readingChecks(input({ fullName: 'Ana Lopes', confidence: 1 }))).toEqual([
      { kind: 'name_mismatch', message: "The name on the document, Ana Lopes, is not the registered player's, Ana Lopez." },
    ]);
    expect(kinds(input({ fullName: 'Maria Lopez' }))).toEqual(['name_mismatch']);
    expect(kinds(input({ fullName: 'Ana Lopez' }))).toEqual([]);
  });

  it('name_mismatch: not for a residency proof, which names the parent', () => {
    expect(kinds(input({ docType: 'residency', fullName: 'Maria Lopez' }, { declaredType: 'residency' }))).toEqual([]);
  });

  it('unreadable: too little could be read, and nothing else is judged', () => {
    expect(readingChecks(input({ docType: 'medical', dateOfBirth: '2001-01-01' }, { readable: false }))).toEqual([
      { kind: 'unreadable', message: 'This is too blurred or dark to read; ask the family for a better photo.' },
    ]);
    expect(kinds(input({}, { readable: true }))).toEqual([]);
  });

  it('expired: a medical exam more than 12 months before today', () => {
    const medical = { declaredType: 'medical' as const, today: '2026-03-03' };
    expect(readingChecks(input({ docType: 'medical', documentDate: '2025-03-02' }, medical))).toEqual([
      { kind: 'expired', message: 'The exam was on 2 Mar 2025, more than 12 months ago.' },
    ]);
    expect(kinds(input({ docType: 'medical', documentDate: '2025-03-03' }, medical))).toEqual([]);
    expect(kinds(input({ docType: 'medical', documentDate: null }, medical))).toEqual([]);
    // A waiver's date is not an exam's.
    expect(kinds(input({ docType: 'waiver', documentDate: '2020-01-01' }, { declaredType: 'waiver', today: '2026-03-03' }))).toEqual([]);
  });

  it('expired: an exam on the 31st is valid to the end of the same month a year on', () => {
    const medical = { declaredType: 'medical' as const };
    expect(kinds(input({ docType: 'medical', documentDate: '2024-02-29' }, { ...medical, today: '2025-02-28' }))).toEqual([]);
    expect(kinds(input({ docType: 'medical', documentDate: '2024-02-29' }, { ...medical, today: '2025-03-01' }))).toEqual(['expired']);
  });
});

describe('isDifferentPerson', () => {
  const ana = { firstName: 'Ana María', lastName: 'López-García', birthDate: '2016-04-03' };
  it.each([
    ['ANA MARIA LOPEZ-GARCIA', 1],
    ['Ana López García', 1],
    ['López-García, Ana', 1],
    ['Ana M. Lopez', 1],
    ['A. Lopez Garcia', 1],
    ['Ana Maria Lopcz-Garcia', 1],
    ['Ana Lopes-Garcia', 0.8],
    ['Ana Lopez-Garcla', 0.8],
    ['Ana', 1],
    ['Ana Maria Lop', 0.93],
  ])('%s is the registered player', (printed, confidence) => {
    expect(isDifferentPerson(printed, ana, confidence)).toBe(false);
  });

  it('reads "fi" as the "ñ" OCR took it for', () => {
    expect(isDifferentPerson('Emma Lee Pefia', { firstName: 'Emma', lastName: 'Peña', birthDate: '2011-01-07' }, 0.99)).toBe(false);
  });

  it('reads "fi" as "ñ" in OCR text too, where one slip alone is tolerated, and an initial glued to the first name', () => {
    expect(isDifferentPerson('Lucas Ibafiez', { firstName: 'Lucas', lastName: 'Ibáñez', birthDate: '2011-01-07' }, 0.94)).toBe(false);
    expect(isDifferentPerson('Diego E. Pefia', { firstName: 'Diego', lastName: 'Peña', birthDate: '2011-01-07' }, 0.95)).toBe(false);
    expect(isDifferentPerson("O'CONNOR, ANAE", { firstName: 'Ana', lastName: "O'Connor", birthDate: '2011-01-07' }, 0.92)).toBe(false);
    // A PDF's own text is taken as printed: a glued letter there is another name.
    expect(isDifferentPerson("O'CONNOR, ANAE", { firstName: 'Ana', lastName: "O'Connor", birthDate: '2011-01-07' }, 1)).toBe(true);
  });

  it.each([
    ['Maria Lopez', 1],
    ['Ana Smith', 0.8],
    ['Pedro García', 0.8],
  ])('%s is someone else', (printed, confidence) => {
    expect(isDifferentPerson(printed, { firstName: 'Ana', lastName: 'Lopez', birthDate: '2016-04-03' }, confidence)).toBe(true);
  });
});

describe('isReadable', () => {
  const text = 'CERTIFICATE OF LIVE BIRTH Name of child: Ana Lopez Date of birth 04/03/2016';
  it('is readable with enough confident text', () => {
    expect(isReadable({ text, confidence: 0.82 })).toBe(true);
    expect(isReadable({ text, confidence: null })).toBe(true);
  });
  it('is not with too little text or confidence', () => {
    expect(isReadable({ text: 'ii ., l1 ~~', confidence: 0.9 })).toBe(false);
    expect(isReadable({ text, confidence: 0.2 })).toBe(false);
  });
});
