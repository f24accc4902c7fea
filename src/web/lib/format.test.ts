import { describe, expect, it } from 'vitest';
import { formatBytes, formatCount, formatDate, initials, lastFirst, roundEstimate, shaPrefix } from './format';

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

describe('formatCount', () => {
  it('writes an exact count in full, with thousands separators', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(12_437)).toBe('12,437');
    expect(formatCount(12_437, false)).toBe('12,437');
  });
  it.each([
    [42, 'about 42'],
    [1_001, 'about 1,000'],
    [1_234, 'about 1,200'],
    [12_437, 'about 12,400'],
    [12_450, 'about 12,500'],
    [99_960, 'about 100,000'],
    [123_456, 'about 123,000'],
    [2_345_678, 'about 2,350,000'],
  ])('says an estimate of %d as %s', (n, said) => {
    expect(formatCount(n, true)).toBe(said);
  });
  it('rounds an estimate to the precision it has', () => {
    expect(roundEstimate(987)).toBe(990);
    expect(roundEstimate(45_678_901)).toBe(45_700_000);
  });
});
