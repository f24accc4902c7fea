import { describe, expect, it } from 'vitest';
import { groupSecret, recoveryCodesText } from './recovery-codes';

describe('recoveryCodesText', () => {
  it('names the account and the day, then one code a line', () => {
    const text = recoveryCodesText(['aaaa-bbbb', 'cccc-dddd'], 'dana@example.org', new Date('2026-11-20T10:00:00Z'));
    const lines = text.split('\n');
    expect(lines[0]).toBe('Clearbase recovery codes for dana@example.org');
    expect(lines[1]).toMatch(/^Made on 2026-11-20\. Each code works once/);
    expect(lines.slice(3, 5)).toEqual(['aaaa-bbbb', 'cccc-dddd']);
    expect(text.endsWith('\n')).toBe(true);
  });
});

describe('groupSecret', () => {
  it('writes the key in groups of four', () => {
    expect(groupSecret('JBSWY3DPEHPK3PXP')).toBe('JBSW Y3DP EHPK 3PXP');
    expect(groupSecret('ABCDEF')).toBe('ABCD EF');
    expect(groupSecret('')).toBe('');
  });
});
