import { describe, expect, it } from 'vitest';
import { containsPattern } from './search';

describe('containsPattern', () => {
  it('wraps the text in % and escapes LIKE wildcards and the escape character', () => {
    expect(containsPattern('50%_off\\')).toBe('%50\\%\\_off\\\\%');
    expect(containsPattern('Martínez')).toBe('%Martínez%');
  });
});
