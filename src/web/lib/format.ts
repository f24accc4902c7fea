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
