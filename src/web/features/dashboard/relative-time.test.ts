import { describe, expect, it } from 'vitest';
import { formatRelativeTime } from './relative-time';

const NOW = new Date('2025-10-10T12:00:00.000Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();

describe('formatRelativeTime', () => {
  it('reads under a minute, and a time slightly ahead, as just now', () => {
    expect(formatRelativeTime(ago(59_000), NOW)).toBe('just now');
    expect(formatRelativeTime(ago(-5_000), NOW)).toBe('just now');
  });

  it('counts whole minutes, hours and days', () => {
    expect(formatRelativeTime(ago(5 * 60_000 + 30_000), NOW)).toBe('5 min ago');
    expect(formatRelativeTime(ago(3 * 3_600_000 + 59 * 60_000), NOW)).toBe('3 h ago');
    expect(formatRelativeTime(ago(26 * 3_600_000), NOW)).toBe('1 day ago');
    expect(formatRelativeTime(ago(6 * 86_400_000), NOW)).toBe('6 days ago');
  });

  it('gives the date from a week on, and the text itself when it is not a date', () => {
    expect(formatRelativeTime(ago(8 * 86_400_000), NOW)).not.toMatch(/ago/);
    expect(formatRelativeTime('not a date', NOW)).toBe('not a date');
  });
});
