import { randomBytes } from 'node:crypto';
import { asc, eq, sql } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { UPLOAD_LINK_STAND_IN, type TDocType } from '../../contract';
import { describeEachDatabase } from '../../../tests/support/databases';
import { createLogger } from '../platform/logger';
import type { Db } from '../platform/db/client';
import { auditEvents, automaticReminders, documents, jobs, notificationHistory, players, registrations, reminderSchedules, seasons } from '../platform/db/schema';
import { createReminderHandler, REMINDERS_QUEUE } from './automatic-reminders';
import { seedDefaultNotificationTemplates } from './notifications.service';

const HOUR_MS = 60 * 60_000;
const ZRunCounts = z.object({ day: z.string(), due: z.number(), sent: z.number(), failed: z.number(), alreadySent: z.number() });
const SEASON = { id: 'spring-2026', name: 'Spring 2026', kind: 'Spring Ball', year: 2026, startsOn: '2026-03-01', endsOn: '2026-06-30', registrationDeadline: '2026-03-31', isCurrent: true } as const;

/** A player with a document of each type given, in that state; the triggers keep the registration's summary. */
async function addPlayer(db: Db, id: string, name: [string, string], email: string | null, docs: Partial<Record<TDocType, 'verified' | 'pending'>>): Promise<void> {
  await db.insert(players).values({ id, firstName: name[0], lastName: name[1], birthDate: '2015-01-01', guardianName: `${name[1]} Parent`, guardianEmail: email });
  await db.insert(registrations).values({ playerId: id, seasonId: SEASON.id, division: 'AA' });
  for (const [docType, status] of Object.entries(docs)) await addDocument(db, id, docType as TDocType, status, new Date('2026-02-20T12:00:00Z'));
}

async function addDocument(db: Db, playerId: string, docType: TDocType, status: 'verified' | 'pending' | 'rejected', at: Date): Promise<string> {
  const [row] = await db
    .insert(documents)
    .values({
      playerId,
      seasonId: SEASON.id,
      docType,
      status,
      originalFilename: `${docType}.pdf`,
      bytes: 1000,
      fileSha256: randomBytes(32).toString('hex'),
      uploadedAt: at,
      reviewedAt: status === 'pending' ? null : at,
    })
    .returning({ id: documents.id });
  return row?.id ?? '';
}

/**
 * A month of automatic reminders, the hourly sweep run on an injected clock against a real database: a season
 * whose deadline is 30 days ahead, reminders 14, 7 and 2 days before it and 3 days after a rejection.
 */
describeEachDatabase('automatic reminders over a month', ({ getDb }) => {
  let clock = new Date('2026-03-01T00:30:00Z');

  beforeAll(async () => {
    const db = getDb();
    await seedDefaultNotificationTemplates(db);
    await db.insert(seasons).values(SEASON);
    await db.insert(reminderSchedules).values({ seasonId: SEASON.id, enabled: true, daysBeforeDeadline: [14, 7, 2], daysAfterRejection: [3] });
    // The Lees: two players, one address (written two ways), each missing something all month.
    await addPlayer(db, 'CB-2026-00000001', ['Ana', 'Lee'], 'Sam.Lee@example.org', { birth_certificate: 'verified', residency: 'verified', waiver: 'verified' });
    await addPlayer(db, 'CB-2026-00000002', ['Ben', 'Lee'], ' sam.lee@EXAMPLE.org', { birth_certificate: 'verified', residency: 'verified' });
    // Cara sends her waiver (accepted) on the 20th.
    await addPlayer(db, 'CB-2026-00000003', ['Cara', 'Diaz'], 'diaz@example.org', { birth_certificate: 'verified', residency: 'verified', medical: 'verified' });
    // Dan's medical form waits for review, and is not accepted on the 10th.
    await addPlayer(db, 'CB-2026-00000004', ['Dan', 'Park'], 'park@example.org', { birth_certificate: 'verified', residency: 'verified', medical: 'pending', waiver: 'verified' });
    // Eve's family left no e-mail.
    await addPlayer(db, 'CB-2026-00000005', ['Eve', 'Fox'], null, {});
    // Finn has everything.
    await addPlayer(db, 'CB-2026-00000006', ['Finn', 'Gray'], 'gray@example.org', { birth_certificate: 'verified', residency: 'verified', medical: 'verified', waiver: 'verified' });
  });

  it('sends each family its due reminders, once a day, none after completion nor without an e-mail', async () => {
    const db = getDb();
    const handler = createReminderHandler({
      db,
      masterKey: randomBytes(32),
      // No mail server: the messages are recorded (and fail to deliver), which is what this test reads.
      environmentSmtp: { url: undefined, from: undefined },
      checkChatWebhook: () => undefined,
      openMail: () => {
        throw new Error('no mail server in this test');
      },
      postChat: () => Promise.resolve(),
      log: createLogger('silent'),
      uploadLinkOrigin: () => 'https://league.example',
      now: () => clock,
    });
    const end = new Date('2026-04-01T00:00:00Z');
    for (; clock < end; clock = new Date(clock.getTime() + HOUR_MS)) {
      const day = clock.toISOString().slice(0, 13);
      if (day === '2026-03-10T14') {
        await db.update(documents).set({ status: 'rejected', reviewedAt: clock, reviewNotes: 'Unreadable' }).where(sql`${documents.playerId} = 'CB-2026-00000004' and ${documents.docType} = 'medical'`);
      }
      if (day === '2026-03-20T12') await addDocument(db, 'CB-2026-00000003', 'waiver', 'verified', clock);
      // Two runs at once, as two instances would: the family's day is claimed once.
      const outcomes = await Promise.all([handler({}, { id: 1, attempt: 1 }), handler({}, { id: 2, attempt: 1 })]);
      expect(outcomes).toEqual([{ kind: 'done' }, { kind: 'done' }]);
    }

    const sent = await db
      .select({ recipient: automaticReminders.recipient, day: automaticReminders.sentOn, reason: automaticReminders.reason, history: notificationHistory.recipient, created: notificationHistory.createdAt })
      .from(automaticReminders)
      .innerJoin(notificationHistory, eq(notificationHistory.id, automaticReminders.historyId))
      .orderBy(asc(automaticReminders.sentOn), asc(automaticReminders.recipient));
    expect(sent.map((row) => [row.recipient, row.day, row.reason])).toEqual([
      ['park@example.org', '2026-03-13', 'rejection:3'],
      ['diaz@example.org', '2026-03-17', 'deadline:14'],
      ['park@example.org', '2026-03-17', 'deadline:14'],
      ['sam.lee@example.org', '2026-03-17', 'deadline:14'],
      ['park@example.org', '2026-03-24', 'deadline:7'],
      ['sam.lee@example.org', '2026-03-24', 'deadline:7'],
      ['park@example.org', '2026-03-29', 'deadline:2'],
      ['sam.lee@example.org', '2026-03-29', 'deadline:2'],
    ]);
    expect(sent.every((row) => row.history === row.recipient)).toBe(true);

    // Every reminder is in History, and nothing else is.
    const history = await db.select().from(notificationHistory).orderBy(asc(notificationHistory.createdAt));
    expect(history).toHaveLength(8);
    expect(history.every((row) => row.seasonId === SEASON.id && row.playerId !== null)).toBe(true);
    const lees = history.find((row) => row.recipient === 'sam.lee@example.org');
    expect(lees?.body).toContain(`- Ana Lee: Medical Form\n- Ben Lee: Medical Form and Liability Waiver`);
    expect(lees?.body).toContain(`- Ana Lee: ${UPLOAD_LINK_STAND_IN}\n- Ben Lee: ${UPLOAD_LINK_STAND_IN}`);
    expect(lees?.subject).toBe('Documents still missing for Ana Lee and Ben Lee (Spring 2026)');
    expect(history.map((row) => row.body ?? '').join('\n')).not.toMatch(/#token=|\u{E000}/u);

    // The send jobs carry markers, never a link.
    const sendJobs = await db.select({ payload: jobs.payload, runAt: jobs.runAt }).from(jobs).where(eq(jobs.queue, 'notification-send'));
    expect(sendJobs).toHaveLength(8);
    expect(JSON.stringify(sendJobs)).not.toMatch(/#token=/);
    // None at night: each went out with the first sweep from 09:00 UTC (its safety-net job an hour later).
    expect(new Set(sendJobs.map((job) => job.runAt.toISOString().slice(11)))).toEqual(new Set(['10:30:00.000Z']));

    // One sweep waits for the next hour; each day with reminders is audited with counts only.
    const waiting = await db.select({ runAt: jobs.runAt }).from(jobs).where(sql`${jobs.queue} = ${REMINDERS_QUEUE} and ${jobs.status} = 'queued'`);
    expect(waiting).toHaveLength(1);
    const audits = await db.select({ detail: auditEvents.detail }).from(auditEvents).where(eq(auditEvents.action, 'reminders.sent')).orderBy(asc(auditEvents.id));
    // Two runs at once may share a day's families between them: per day, the counts add up to the reminders.
    const perDay = new Map<string, number>();
    for (const { detail } of audits) {
      const counts = ZRunCounts.parse(detail);
      expect(Object.keys(detail ?? {}).sort()).toEqual(['alreadySent', 'day', 'due', 'failed', 'sent']);
      perDay.set(counts.day, (perDay.get(counts.day) ?? 0) + counts.sent + counts.failed);
    }
    expect(Object.fromEntries(perDay)).toEqual({ '2026-03-13': 1, '2026-03-17': 3, '2026-03-24': 2, '2026-03-29': 2 });
  });
});
