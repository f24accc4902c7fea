import { afterAll, describe, expect, it } from 'vitest';
import { planReadingCorpus, renderCorpusDocument } from '../../../tests/support/reading-corpus';
import { isDifferentPerson, isReadable, readingChecks } from './checks';
import { extractFacts } from './facts';
import { createDocumentReader } from './reader';

/**
 * The reader, the facts and the checks together on one synthetic document of each type (two clean scans, two
 * photos). Every document is correct, so no check may be raised. A page takes OCR a few seconds of one core.
 */
const TODAY = '2026-06-01';
const plans = planReadingCorpus({ count: 8, seed: 11, today: TODAY }).filter((_plan, i) => [0, 2, 5, 7].includes(i));
const reader = createDocumentReader();

afterAll(async () => {
  await reader.close();
});

describe('reading synthetic documents', () => {
  it.each(plans.map((plan) => [plan.id, plan] as const))('%s: its type, date of birth and name, and no check', async (_id, plan) => {
    const document = await renderCorpusDocument(plan);
    const read = await reader.read({ bytes: document.bytes, mime: document.mime });
    const extracted = extractFacts(read);
    const { truth } = plan;
    const registration = { firstName: truth.firstName, lastName: truth.lastName, birthDate: truth.birthDate };

    expect(isReadable(read)).toBe(true);
    expect(extracted.docType).toBe(plan.docType);
    if (truth.dateOfBirth) expect(extracted.dateOfBirth).toBe(truth.dateOfBirth);
    if (plan.docType !== 'residency') {
      expect(extracted.fullName).not.toBeNull();
      expect(isDifferentPerson(extracted.fullName ?? '', registration, extracted.confidence)).toBe(false);
    }
    expect(readingChecks({ extracted, readable: true, declaredType: plan.docType, registration, today: TODAY })).toEqual([]);
  }, 60_000);
});
