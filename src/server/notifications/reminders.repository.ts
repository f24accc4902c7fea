import { and, asc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { TDocType, TPlayerDocStatus } from '../../contract';
import type { Db } from '../platform/db/client';
import { automaticReminders, documents, players, registrations, reminderSchedules, seasons } from '../platform/db/schema';
import { needsDocumentOrExpiring, SEASON_FAMILY_COLUMNS } from './notification-recipients.repository';

export type ReminderScheduleRow = typeof reminderSchedules.$inferSelect;
export type NewReminderSchedule = typeof reminderSchedules.$inferInsert;

/** Schedules written as they are (the demo data). */
export async function insertReminderSchedules(db: Db, rows: readonly NewReminderSchedule[]): Promise<void> {
  if (rows.length > 0) await db.insert(reminderSchedules).values([...rows]);
}

/** Arbitrary constant beside the template seed's lock: serialises the scheduling of the next sweep across instances. */

export async function findReminderSchedule(db: Db, seasonId: string): Promise<ReminderScheduleRow | undefined> {
  const [row] = await db.select().from(reminderSchedules).where(eq(reminderSchedules.seasonId, seasonId));
  return row;
}

export async function saveReminderSchedule(
  db: Db,
  row: Pick<ReminderScheduleRow, 'seasonId' | 'enabled' | 'daysBeforeDeadline' | 'daysAfterRejection'>,
): Promise<ReminderScheduleRow> {
  const [saved] = await db
    .insert(reminderSchedules)
    .values(row)
    .onConflictDoUpdate({
      target: reminderSchedules.seasonId,
      set: { enabled: row.enabled, daysBeforeDeadline: row.daysBeforeDeadline, daysAfterRejection: row.daysAfterRejection, updatedAt: new Date() },
    })
    .returning();
  if (!saved) throw new Error('The reminder schedule was not saved.');
  return saved;
}

export type ScheduledSeason = ReminderScheduleRow & { seasonName: string; deadline: string };

/** The seasons whose reminders are on and which still take registrations; the deadline is the season's end when none is set. */
export const listSwitchedOnSchedules = (db: Db): Promise<ScheduledSeason[]> =>
  db
    .select({
      seasonId: reminderSchedules.seasonId,
      enabled: reminderSchedules.enabled,
      daysBeforeDeadline: reminderSchedules.daysBeforeDeadline,
      daysAfterRejection: reminderSchedules.daysAfterRejection,
      updatedAt: reminderSchedules.updatedAt,
      seasonName: seasons.name,
      deadline: sql<string>`coalesce(${seasons.registrationDeadline}, ${seasons.endsOn})::text`,
    })
    .from(reminderSchedules)
    .innerJoin(seasons, eq(seasons.id, reminderSchedules.seasonId))
    .where(and(eq(reminderSchedules.enabled, true), isNull(seasons.closedAt)))
    .orderBy(asc(reminderSchedules.seasonId));

export type ReminderCandidate = {
  playerId: string;
  firstName: string;
  lastName: string;
  guardianName: string | null;
  guardianEmail: string;
  statuses: Record<TDocType, TPlayerDocStatus>;
  /** The first day a met requirement lapses (YYYY-MM-DD); null when none does. */
  expiresOn: string | null;
  /** The day (YYYY-MM-DD, UTC) each rejected document of the season was rejected, with its type. */
  rejections: Array<{ docType: TDocType; on: string }>;
};

/**
 * The season's players still missing a document (none sent, not accepted, or lapsed) or with one expiring soon,
 * who have a guardian e-mail.
 */
export async function listReminderCandidates(db: Db, seasonId: string): Promise<ReminderCandidate[]> {
  const rows = await db
    .select({ ...SEASON_FAMILY_COLUMNS, guardianEmail: sql<string>`btrim(${players.guardianEmail})` })
    .from(registrations)
    .innerJoin(players, eq(players.id, registrations.playerId))
    .where(
      and(
        eq(registrations.seasonId, seasonId),
        sql`nullif(btrim(${players.guardianEmail}), '') is not null`,
        needsDocumentOrExpiring,
      ),
    )
    .orderBy(asc(registrations.lastName), asc(registrations.firstName), asc(registrations.playerId));
  if (rows.length === 0) return [];
  const rejected = await db
    .select({ playerId: documents.playerId, docType: documents.docType, on: sql<string>`to_char(${documents.reviewedAt} at time zone 'UTC', 'YYYY-MM-DD')` })
    .from(documents)
    .where(
      and(
        eq(documents.seasonId, seasonId),
        eq(documents.status, 'rejected'),
        isNotNull(documents.reviewedAt),
        isNotNull(documents.docType),
        inArray(documents.playerId, rows.map((row) => row.playerId)),
      ),
    );
  return rows.map((row) => ({
    playerId: row.playerId,
    firstName: row.firstName,
    lastName: row.lastName,
    guardianName: row.guardianName,
    guardianEmail: row.guardianEmail,
    statuses: { birth_certificate: row.birthCertificate, residency: row.residency, medical: row.medical, waiver: row.waiver },
    expiresOn: row.expiresOn,
    rejections: rejected.flatMap((r) => (r.playerId === row.playerId && r.docType ? [{ docType: r.docType, on: r.on }] : [])),
  }));
}

/**
 * Claims the family's reminder of the day: the row goes in unless one for that address and day is there (the
 * unique index), whichever run or instance got there first. Answers its id, or undefined when already claimed.
 */
export async function claimReminderDay(
  db: Db,
  row: { recipient: string; sentOn: string; seasonId: string; playerIds: string[]; reason: string },
): Promise<string | undefined> {
  const [claimed] = await db.insert(automaticReminders).values(row).onConflictDoNothing().returning({ id: automaticReminders.id });
  return claimed?.id;
}

export async function linkReminderHistory(db: Db, id: string, historyId: string): Promise<void> {
  await db.update(automaticReminders).set({ historyId }).where(eq(automaticReminders.id, id));
}

