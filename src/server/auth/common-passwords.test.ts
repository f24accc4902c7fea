import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isCommonPassword } from './common-passwords';

describe('isCommonPassword', () => {
  it('holds the 10,000 passwords of the list', () => {
    const lines = readFileSync(new URL('./common-passwords.txt', import.meta.url), 'utf8').split('\n').filter(Boolean);
    expect(lines).toHaveLength(10_000);
    expect(lines.slice(0, 3)).toEqual(['password', '123456', '12345678']);
  });

  it('refuses a listed password in any letter case', () => {
    expect(isCommonPassword('unbelievable')).toBe(true);
    expect(isCommonPassword('MasterBating')).toBe(true);
    expect(isCommonPassword('QWERTYUIOP')).toBe(true);
  });

  it('refuses a listed word padded with digits or symbols, or repeated, to reach the length rule', () => {
    expect(isCommonPassword('password1234')).toBe(true);
    expect(isCommonPassword('Password1234!')).toBe(true);
    expect(isCommonPassword('!!sunshine2024')).toBe(true);
    expect(isCommonPassword('123456789012')).toBe(true);
    expect(isCommonPassword('dragondragon')).toBe(true);
    expect(isCommonPassword('abc123abc123')).toBe(true);
    expect(isCommonPassword('iloveyou2025')).toBe(true);
  });

  it('accepts a strong password, and a passphrase that merely contains a common word', () => {
    expect(isCommonPassword('correct-Horse-battery-staple')).toBe(false);
    expect(isCommonPassword('v7#Qm2!pR9wz-Lk')).toBe(false);
    expect(isCommonPassword('password is not my password')).toBe(false);
  });
});
