const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

const shortDate = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/**
 * How long ago an ISO instant was, as a feed reads: 'just now', '5 min ago', '3 h ago', '2 days ago',
 * then the date from a week on. A time slightly in the future (clock skew) reads 'just now'.
 */
export function formatRelativeTime(iso: string, now: Date = new Date()): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const elapsed = now.getTime() - at.getTime();
  if (elapsed < MINUTE_MS) return 'just now';
  if (elapsed < HOUR_MS) return `${Math.floor(elapsed / MINUTE_MS)} min ago`;
  if (elapsed < DAY_MS) return `${Math.floor(elapsed / HOUR_MS)} h ago`;
  const days = Math.floor(elapsed / DAY_MS);
  if (days < 7) return days === 1 ? '1 day ago' : `${days} days ago`;
  return shortDate.format(at);
}
