import { describe, expect, it } from 'vitest';
import { derivePlayerId, normaliseName } from './player-id';

describe('derivePlayerId', () => {
  const base = { prefix: 'CB', year: 2025, firstName: 'José', lastName: 'García', birthDate: '2014-05-03' };

  it('has the form {prefix}-{year}-{8 hex}', () => {
    expect(derivePlayerId(base)).toMatch(/^CB-2025-[0-9a-f]{8}$/);
  });

  it('gives the same id whatever the case, accents or spacing of the names', () => {
    expect(derivePlayerId({ ...base, firstName: '  jose ', lastName: 'GARCIA' })).toBe(derivePlayerId(base));
  });

  it('gives different ids for a different birth date, name, year or prefix', () => {
    const id = derivePlayerId(base);
    expect(derivePlayerId({ ...base, birthDate: '2014-05-04' })).not.toBe(id);
    expect(derivePlayerId({ ...base, firstName: 'Josefa' })).not.toBe(id);
    expect(derivePlayerId({ ...base, year: 2024 })).toMatch(/^CB-2024-/);
    expect(derivePlayerId({ ...base, prefix: 'HL' })).toMatch(/^HL-2025-/);
  });

  it('matches the SHA-256 of the normalised fields', () => {
    // sha256('jose|garcia|2014-05-03') computed independently with `printf 'jose|garcia|2014-05-03' | sha256sum`
    expect(derivePlayerId(base)).toBe(`CB-2025-${EXPECTED_PREFIX}`);
  });
});

describe('normaliseName', () => {
  it('folds accents, case, punctuation and runs of spaces', () => {
    expect(normaliseName("  Zoë  O'Brien-Smith ")).toBe('zoe o brien smith');
  });
});

const EXPECTED_PREFIX = '5c11d1b2';
