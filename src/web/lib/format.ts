/** File sizes in Bytes, KB, MB or GB with 2 decimals (1 KB = 1024 bytes). */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '—';
  if (bytes < 1024) return `${bytes} Bytes`;
  const units = ['KB', 'MB', 'GB'] as const;
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(2)} ${units[unit]}`;
}

/** A SHA-256 is shown as its first 16 characters. */
export const shaPrefix = (sha: string | null | undefined): string => (sha ? sha.slice(0, 16) : '—');

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/** An ISO instant in the reader's locale and time zone, e.g. 'Nov 22, 2026, 11:24 AM'. */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date);
}

/** A calendar date (YYYY-MM-DD) as written, without shifting it through a time zone. */
export function formatDate(isoDate: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDate);
  if (!match) return isoDate;
  return dateOnly.format(new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
}

/** 'Last, First' as the player tables show names. */
export const lastFirst = (firstName: string, lastName: string): string => `${lastName}, ${firstName}`;

/** Initials from both parts of a name: 'Ava', 'Smith' → 'AS'. */
export function initials(firstName: string, lastName: string): string {
  const first = [...firstName.trim()][0] ?? '';
  const last = [...lastName.trim()][0] ?? '';
  return `${first}${last}`.toUpperCase() || '?';
}

const wholeNumber = new Intl.NumberFormat('en-US');

/**
 * An estimate to the precision it has: 1,234 → 1,200, 12,437 → 12,400, 123,456 → 123,000, then three
 * significant figures; below 100 as it is.
 */
export function roundEstimate(n: number): number {
  if (!Number.isFinite(n) || n < 100) return Math.round(n);
  if (n < 1_000) return Math.round(n / 10) * 10;
  if (n < 100_000) return Math.round(n / 100) * 100;
  if (n < 1_000_000) return Math.round(n / 1_000) * 1_000;
  const step = 10 ** (Math.floor(Math.log10(n)) - 2);
  return Math.round(n / step) * step;
}

/** A count as screens write it, '12,437'; an estimate rounded and said to be one: 'about 12,400'. */
export const formatCount = (n: number, isEstimate = false): string =>
  isEstimate ? `about ${wholeNumber.format(roundEstimate(n))}` : wholeNumber.format(n);
