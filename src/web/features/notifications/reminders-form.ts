import type { TReminderSchedule } from '../../../contract';

/** The limits the server holds a schedule to (ZReminderScheduleUpdate): largest day, and how many. */
export const BEFORE_DEADLINE_LIMITS = { max: 120, most: 6 } as const;
export const AFTER_REJECTION_LIMITS = { max: 30, most: 3 } as const;

/** '14, 7, 2' from [14, 7, 2]: how a list of days is edited. */
export const daysText = (days: readonly number[]): string => days.join(', ');

/**
 * A list of days typed as '14, 7, 2' (commas or spaces): the numbers, or why not in words. An empty field is
 * an empty list (no reminders of that kind).
 */
export function parseDays(text: string, what: string, limits: { max: number; most: number } = { max: 120, most: 6 }): { days: number[] } | { error: string } {
  const parts = text.split(/[\s,;]+/).filter((part) => part !== '');
  const days: number[] = [];
  for (const part of parts) {
    if (!/^\d+$/.test(part)) return { error: `${what}: '${part}' is not a whole number of days.` };
    const day = Number.parseInt(part, 10);
    if (day < 1) return { error: `${what}: each must be at least 1 day.` };
    if (day > limits.max) return { error: `${what}: each must be at most ${limits.max} days.` };
    if (days.includes(day)) return { error: `${what}: ${day} is listed twice.` };
    days.push(day);
  }
  if (days.length > limits.most) return { error: `${what}: at most ${limits.most} reminders.` };
  return { days: days.sort((a, b) => b - a) };
}

const SHORT_DATE = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });

/** 'Next: 12 Dec (7 days before the deadline)', or why none are coming. */
export function describeNextReminder(schedule: TReminderSchedule): string {
  if (!schedule.enabled) return 'Automatic reminders are off for this season.';
  const next = schedule.upcoming[0];
  if (!next) return 'No more reminders before the deadline; reminders after a rejection still go out.';
  return `Next: ${SHORT_DATE.format(new Date(`${next.on}T00:00:00Z`))} (${next.reason})`;
}
