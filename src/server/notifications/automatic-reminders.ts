import { type TJobPayload, type TJobQueue } from '../../contract';
import { recordAuditEvent } from '../audit';
import type { Db } from '../platform/db/client';
import type { JobHandler } from '../platform/jobs/job-runner';
import { enqueueJob, ensureJobScheduled } from '../platform/jobs/jobs.repository';
import type { Logger } from '../platform/logger';
import { AUTOMATIC_REMINDER_TEMPLATE, DEFAULT_NOTIFICATION_TEMPLATES } from './notification-defaults';
import type { DeliveryDeps } from './notification-delivery';
import { recordNotificationHistory } from './notification-history.repository';
import { linkMarker, withStandIns, type MessageLink } from './notification-links';
import { describeNeededDocuments, formatDeadline, renderHtml, renderText, type PlaceholderValues } from './notification-render';
import { findNotificationTemplateByName } from './notification-templates.repository';
import { deliverAndSettle, NOTIFICATION_SEND_QUEUE } from './notifications.service';
import { neededDocuments, planReminders, REMINDER_SEND_FROM_HOUR_UTC, type ExpiringRules, type FamilyReminder, type PlayerState } from './reminder-plan';
import { claimReminderDay, linkReminderHistory, listReminderCandidates, listSwitchedOnSchedules, type ReminderCandidate } from './reminders.repository';
import { readExpiringRules } from '../reports';

/** The job queue of the automatic reminders' sweep: one job at a time, each scheduling the next. */
export const REMINDERS_QUEUE = 'reminders' satisfies TJobQueue;

const HOUR_MS = 60 * 60_000;
/** Soon after start, but not in the middle of boot. */
const FIRST_RUN_DELAY_MS = 60_000;
/** As for a send: the queued job only finishes what a crash left pending. */
const SAFETY_NET_DELAY_MS = HOUR_MS;
const GUARDIAN_FALLBACK = 'Parent/Guardian';

export type ReminderSweepDeps = DeliveryDeps & {
  log: Logger;
  /** Where the reminders' upload links point (the configured public address, else the listen address). */
  uploadLinkOrigin: () => string;
  now?: () => Date;
};

export type SweepCounts = { seasons: number; due: number; sent: number; failed: number; alreadySent: number };

type Candidate = ReminderCandidate & PlayerState;

/** No candidate's approval lapses: nothing is expiring. */
const NOTHING_EXPIRES: ExpiringRules = { until: '0000-01-01', lapsingTypes: [] };

const toCandidate = (row: ReminderCandidate, rules: ExpiringRules): Candidate => ({ ...row, ...neededDocuments(row.statuses, row.expiresOn, rules) });

/**
 * The family's message: one player fills the template as a reminder about them does; several are each named
 * with their own missing (and expiring) documents and their own upload link.
 */
function renderFamily(template: { subject: string; content: string }, family: FamilyReminder<Candidate>, season: { id: string; name: string; deadline: string }, origin: string) {
  const links: MessageLink[] = family.players.map((player, index) => ({ marker: linkMarker(index), playerId: player.playerId, seasonId: season.id, origin }));
  const name = (player: Candidate) => `${player.firstName} ${player.lastName}`;
  const single = family.players.length === 1 ? family.players[0] : undefined;
  const first = family.players[0];
  const values: PlaceholderValues = {
    guardianName: first?.guardianName?.trim() || GUARDIAN_FALLBACK,
    playerName: family.players.map(name).join(' and '),
    season: season.name,
    deadline: formatDeadline(season.deadline),
    missingDocuments: single ? describeNeededDocuments(single) : family.players.map((p) => `- ${name(p)}: ${describeNeededDocuments(p)}`).join('\n'),
    uploadLink: single ? (links[0]?.marker ?? '') : family.players.map((p, i) => `- ${name(p)}: ${links[i]?.marker ?? ''}`).join('\n'),
  };
  return {
    subject: renderText(template.subject, { ...values, uploadLink: '' }),
    text: renderText(template.content, values),
    html: renderHtml(template.content, values),
    links,
  };
}

/**
 * One sweep of the automatic reminders at `at`: for each season whose reminders are on and which is not closed,
 * the families with a reminder due today (UTC) each get one message. A family's day is claimed first (the
 * unique index on address and day), then its History row and the safety-net send job are written, in one
 * transaction; a run repeated, or run at once on another instance, finds the day claimed and sends nothing.
 * Before REMINDER_SEND_FROM_HOUR_UTC nothing is sent: a reminder never arrives at night.
 */
export async function sweepReminders(deps: ReminderSweepDeps, at: Date): Promise<SweepCounts> {
  const counts: SweepCounts = { seasons: 0, due: 0, sent: 0, failed: 0, alreadySent: 0 };
  if (at.getUTCHours() < REMINDER_SEND_FROM_HOUR_UTC) return counts;
  const today = at.toISOString().slice(0, 10);
  const schedules = await listSwitchedOnSchedules(deps.db);
  if (schedules.length === 0) return counts;
  const stored = await findNotificationTemplateByName(deps.db, AUTOMATIC_REMINDER_TEMPLATE);
  const fallback = DEFAULT_NOTIFICATION_TEMPLATES.find((t) => t.name === AUTOMATIC_REMINDER_TEMPLATE);
  const template = stored ?? (fallback ? { ...fallback, id: null } : undefined);
  if (!template?.enabled) {
    deps.log.info({ template: AUTOMATIC_REMINDER_TEMPLATE }, 'automatic reminders are on but their template is turned off');
    return counts;
  }
  const origin = deps.uploadLinkOrigin();
  const now = deps.now ?? (() => new Date());

  for (const schedule of schedules) {
    const before = { ...counts };
    counts.seasons++;
    const season = { id: schedule.seasonId, name: schedule.seasonName, deadline: schedule.deadline };
    const rows = await listReminderCandidates(deps.db, schedule.seasonId);
    // The season's expiring rules are read only when an approval of a candidate lapses at all.
    const expiring = rows.some((row) => row.expiresOn !== null) ? await readExpiringRules(deps.db, schedule.seasonId) : NOTHING_EXPIRES;
    const candidates = rows.map((row) => toCandidate(row, expiring));
    const families = planReminders(candidates, today, schedule.deadline, schedule);
    counts.due += families.length;
    const queued = [];
    for (const family of families) {
      const message = renderFamily(template, family, season, origin);
      const claimed = await deps.db.transaction(async (tx) => {
        const claim = await claimReminderDay(tx, { recipient: family.recipient, sentOn: today, seasonId: season.id, playerIds: family.players.map((p) => p.playerId), reason: family.reason });
        if (!claim) return undefined;
        const [row] = await recordNotificationHistory(tx, [
          {
            templateId: template.id,
            type: 'email',
            recipient: family.recipient,
            subject: message.subject,
            status: 'pending',
            sentAt: null,
            // The first player's: History shows the message to those whose divisions include them.
            playerId: family.players[0]?.playerId ?? null,
            seasonId: season.id,
            body: withStandIns(message.text, message.links),
          },
        ]);
        if (!row) throw new Error('the History row was not recorded');
        await linkReminderHistory(tx, claim, row.id);
        const queuedMessage = { historyId: row.id, channel: 'email' as const, to: family.recipient, ...message };
        await enqueueJob(tx, { queue: NOTIFICATION_SEND_QUEUE, payload: { messages: [queuedMessage] }, runAt: new Date(at.getTime() + SAFETY_NET_DELAY_MS) });
        return queuedMessage;
      });
      if (claimed) queued.push(claimed);
      else counts.alreadySent++;
    }
    if (queued.length > 0) {
      const outcomes = await deliverAndSettle(deps, queued, now, { actor: 'system', why: 'reminder' });
      const sent = outcomes.filter((o) => o.status === 'sent').length;
      counts.sent += sent;
      counts.failed += outcomes.length - sent;
    }
    if (queued.length > 0) {
      // Counts only: who got one is in History.
      const detail = { day: today, due: counts.due - before.due, sent: counts.sent - before.sent, failed: counts.failed - before.failed, alreadySent: counts.alreadySent - before.alreadySent };
      await recordAuditEvent(deps.db, { actor: 'system', action: 'reminders.sent', subjectType: 'season', subjectId: season.id, detail });
    }
  }
  return counts;
}

/** The hourly sweep's job: schedules the next run first (a failing run does not stop the reminders), then sweeps. */
export function createReminderHandler(deps: ReminderSweepDeps): JobHandler<TJobPayload<'reminders'>> {
  const now = deps.now ?? (() => new Date());
  return async () => {
    const startedAt = now();
    await ensureJobScheduled(deps.db, REMINDERS_QUEUE, nextHour(startedAt));
    const counts = await sweepReminders(deps, startedAt);
    if (counts.due > 0) deps.log.info({ ...counts }, 'automatic reminders sent');
    return { kind: 'done' };
  };
}

/** The start of the next hour: a sweep a little after each o'clock. */
export const nextHour = (at: Date): Date => new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS + HOUR_MS + FIRST_RUN_DELAY_MS);

/** Call at start: queues a sweep a minute from `now` unless one (from this or another instance) is waiting. */
export function scheduleReminders(db: Db, now: Date): Promise<boolean> {
  return ensureJobScheduled(db, REMINDERS_QUEUE, new Date(now.getTime() + FIRST_RUN_DELAY_MS));
}
