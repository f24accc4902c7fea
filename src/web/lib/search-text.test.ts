import { describe, expect, it } from 'vitest';
import { foldForSearch, matchesSearch } from './search-text';

describe('foldForSearch', () => {
  it('takes accents off and lowercases', () => {
    expect(foldForSearch('MARTÍNEZ Françoise Zoë Núñez Côté')).toBe('martinez francoise zoe nunez cote');
    expect(foldForSearch('Straße Ærø Łódź Œuvre')).toBe('strasse aero lodz oeuvre');
  });
});

describe('matchesSearch', () => {
  it('finds accented text typed without accents, and the other way round, in any case', () => {
    expect(matchesSearch('Sofía Martínez', 'martinez')).toBe(true);
    expect(matchesSearch('Ana Martinez', 'MARTÍNEZ')).toBe(true);
    expect(matchesSearch('Françoise', ' francoise ')).toBe(true);
    expect(matchesSearch('Martin', 'martinez')).toBe(false);
    expect(matchesSearch('anything', '   ')).toBe(true);
  });
});
