import { describe, expect, it } from 'vitest';
import { MAPPED_FIELD_LABELS } from '../../../contract';
import { labelFromFieldName, namePartLabel, sameSecret } from './delivery-body';

/** Labels as the mapper compares them: without case, spaces or punctuation. */
const loose = (label: string) => label.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');

describe('sameSecret', () => {
  it('matches the same secret only', () => {
    expect(sameSecret('a-secret-of-some-length', 'a-secret-of-some-length')).toBe(true);
    expect(sameSecret('a-secret-of-some-length', 'a-secret-of-some-lengtH')).toBe(false);
    expect(sameSecret('a-secret', 'a-secret-of-some-length')).toBe(false);
  });

  it('never matches when either side is missing or empty', () => {
    expect(sameSecret(undefined, 'a-secret-of-some-length')).toBe(false);
    expect(sameSecret('', '')).toBe(false);
    expect(sameSecret('a-secret-of-some-length', '')).toBe(false);
  });
});

describe('labelFromFieldName', () => {
  it('writes a PascalCase field name back as words', () => {
    expect(labelFromFieldName('PlayerDateOfBirth')).toBe('Player date of birth');
    expect(labelFromFieldName('ParentGuardianEmail')).toBe('Parent guardian email');
    expect(labelFromFieldName('PlayerDOB')).toBe('Player DOB');
    expect(labelFromFieldName('DOBOfPlayer')).toBe('DOB of player');
    expect(labelFromFieldName('Address2')).toBe('Address 2');
    expect(labelFromFieldName('Season')).toBe('Season');
  });

  it('gives back, for the PascalCase name of each default label, a label the mapper finds the field by', () => {
    const pascal = (label: string) => label.split(/[^A-Za-z0-9]+/).filter((w) => w !== '').map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
    for (const label of Object.values(MAPPED_FIELD_LABELS)) {
      expect(loose(labelFromFieldName(pascal(label))), label).toBe(loose(label));
    }
  });
});

describe('namePartLabel', () => {
  it('names the parts of a name question as the form fields are labelled', () => {
    expect(namePartLabel('Player name', 'first')).toBe('Player first name');
    expect(namePartLabel('Player Name', 'last')).toBe('Player last name');
    expect(namePartLabel('Player', 'first')).toBe('Player first name');
    expect(namePartLabel('Name', 'last')).toBe('Last name');
    expect(namePartLabel('Parent/guardian name', 'first')).toBe('Parent/guardian first name');
  });
});
