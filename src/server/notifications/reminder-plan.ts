import { DOC_TYPES, type TDocType, type TPlayerDocStatus } from '../../contract';
import type { NeededDocuments } from './notification-render';

/** Reminders go out from this hour (UTC) of their day, never at night: the first sweep from then sends them. */
export const REMINDER_SEND_FROM_HOUR_UTC = 9;

const DAY_MS = 24 * 60 * 60_000;

/** A date (YYYY-MM-DD) moved by whole days. */
export const addDays = (isoDate: string, days: number): string => new Date(Date.parse(`${isoDate}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

export type ReminderRules = { daysBeforeDeadline: readonly number[]; daysAfterRejection: readonly number[] };

/** A season's expiring approvals: the last day a lapse counts as soon (judging day + EXPIRING_WITHIN_DAYS) and the types that lapse. */
export type ExpiringRules = { until: string; lapsingTypes: readonly TDocType[] };

/** The summary statuses the family must send a document for: none came, or the approval that counted lapsed. */
const needsDocument = (status: TPlayerDocStatus) => status === 'missing' || status === 'expired';

/**
 * What the family of a registration has to send: the types missing or expired, and, when the registration's
 * first lapse (`expiresOn`) is soon, the met types of the season that lapse, with that day.
 */
export function neededDocuments(statuses: Record<TDocType, TPlayerDocStatus>, expiresOn: string | null, rules: ExpiringRules): NeededDocuments {
  const missing = DOC_TYPES.filter((type) => needsDocument(statuses[type]));
  if (expiresOn === null || expiresOn > rules.until) return { missing, expiring: [] };
  const on = expiresOn;
  return { missing, expiring: rules.lapsingTypes.filter((type) => statuses[type] === 'complete').map((docType) => ({ docType, on })) };
}

export type PlayerState = NeededDocuments & {
  playerId: string;
  guardianEmail: string;
  rejections: ReadonlyArray<{ docType: TDocType; on: string }>;
};

/**
 * Why a reminder is due today for this player: 'deadline:7' when today is 7 days before the deadline,
 * 'rejection:3' when a document of a type still missing was not accepted 3 days ago. None when nothing is
 * missing or expiring soon (an approval lapsing within EXPIRING_WITHIN_DAYS days is reminded before the deadline too).
 */
export function reasonsDue(player: PlayerState, today: string, deadline: string, rules: ReminderRules): string[] {
  if (player.missing.length === 0 && player.expiring.length === 0) return [];
  const reasons: string[] = [];
  for (const days of rules.daysBeforeDeadline) if (addDays(deadline, -days) === today) reasons.push(`deadline:${days}`);
  for (const days of rules.daysAfterRejection) {
    const due = player.rejections.some((rejection) => player.missing.includes(rejection.docType) && addDays(rejection.on, days) === today);
    if (due) reasons.push(`rejection:${days}`);
  }
  return reasons;
}

export type FamilyReminder<P extends PlayerState> = { recipient: string; players: P[]; reason: string };

/**
 * Today's reminders, one per family (a guardian e-mail, lower-cased), naming each of its players that has one
 * due; the reason is every distinct reason of them, in order ('deadline:7,rejection:3').
 */
export function planReminders<P extends PlayerState>(players: readonly P[], today: string, deadline: string, rules: ReminderRules): Array<FamilyReminder<P>> {
  const families = new Map<string, FamilyReminder<P> & { reasons: string[] }>();
  for (const player of players) {
    const reasons = reasonsDue(player, today, deadline, rules);
    if (reasons.length === 0) continue;
    const recipient = player.guardianEmail.trim().toLowerCase();
    const family = families.get(recipient) ?? { recipient, players: [], reason: '', reasons: [] };
    family.players.push(player);
    for (const reason of reasons) if (!family.reasons.includes(reason)) family.reasons.push(reason);
    families.set(recipient, family);
  }
  return [...families.values()].map(({ reasons, ...family }) => ({ ...family, reason: reasons.join(',') }));
}

/**
 * The days the next reminders before the deadline go out, from `now` on (today's while its sweep has not yet
 * sent them), nearest first. Reminders after a rejection depend on rejections still to come, so are not listed.
 */
export function upcomingReminders(now: Date, deadline: string, rules: ReminderRules): Array<{ on: string; reason: string }> {
  const today = now.toISOString().slice(0, 10);
  const firstDay = now.getUTCHours() < REMINDER_SEND_FROM_HOUR_UTC ? today : addDays(today, 1);
  return [...rules.daysBeforeDeadline]
    .sort((a, b) => b - a)
    .map((days) => ({ on: addDays(deadline, -days), reason: `${days} day${days === 1 ? '' : 's'} before the deadline` }))
    .filter((item) => item.on >= firstDay);
}
