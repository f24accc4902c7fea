import { describe, expect, it } from 'vitest';
import { formatBytes, formatDate, initials, lastFirst, shaPrefix } from './format';

describe('formatBytes', () => {
  it.each([
    [0, '0 Bytes'],
    [1023, '1023 Bytes'],
    [1024, '1.00 KB'],
    [1536, '1.50 KB'],
    [5 * 1024 * 1024, '5.00 MB'],
    [3.25 * 1024 ** 3, '3.25 GB'],
    [2048 * 1024 ** 3, '2048.00 GB'],
  ])('shows %d bytes as %s', (bytes, shown) => {
    expect(formatBytes(bytes)).toBe(shown);
  });
  it('shows a dash for a size that is not a size', () => {
    expect(formatBytes(-1)).toBe('—');
    expect(formatBytes(Number.NaN)).toBe('—');
  });
});

describe('shortened hashes', () => {
  it('keeps the first 16 characters of a SHA-256', () => {
    expect(shaPrefix('0123456789abcdef0123')).toBe('0123456789abcdef');
    expect(shaPrefix(null)).toBe('—');
  });
});

describe('names', () => {
  it('writes Last, First and takes initials from both parts', () => {
    expect(lastFirst('Ava', 'Smith')).toBe('Smith, Ava');
    expect(initials('ava', 'smith')).toBe('AS');
    expect(initials('Émile', 'Ødegaard')).toBe('ÉØ');
    expect(initials(' ', '')).toBe('?');
  });
  it('shows a calendar date without moving it across a time zone', () => {
    expect(formatDate('2014-05-03')).toContain('2014');
    expect(formatDate('2014-05-03')).toMatch(/3/);
    expect(formatDate('not a date')).toBe('not a date');
  });
});
