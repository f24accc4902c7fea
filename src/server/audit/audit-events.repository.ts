import { and, asc, desc, eq, inArray, lt, notInArray, or, sql } from 'drizzle-orm';
import type { TAuditAction, TAuditSubject } from '../../contract';
import type { Db } from '../platform/db/client';
import { auditEvents, users } from '../platform/db/schema';
import { auditActorColumns, type AuditActor } from './actor';

export type AuditEventRow = typeof auditEvents.$inferSelect;
export type NewAuditEvent = Omit<typeof auditEvents.$inferInsert, 'id' | 'at' | 'actor' | 'actorUserId' | 'actorName'> & { actor: AuditActor };

const toRow = ({ actor, ...event }: NewAuditEvent): typeof auditEvents.$inferInsert => ({ ...event, ...auditActorColumns(actor) });

/** Call with the transaction that makes the change, so the record and the change commit together. */
export async function recordAuditEvent(db: Db, event: NewAuditEvent): Promise<void> {
  await db.insert(auditEvents).values(toRow(event));
}

/** Many records in one statement (a bulk decision: one per document); same rule as recordAuditEvent. */
export async function recordAuditEvents(db: Db, events: readonly NewAuditEvent[]): Promise<void> {
  // 9 columns a row: 500 rows stay far under PostgreSQL's 65,535 bind parameters.
  for (let start = 0; start < events.length; start += 500) {
    await db.insert(auditEvents).values(events.slice(start, start + 500).map(toRow));
  }
}

export const listAuditEvents = (db: Db, subjectType: TAuditSubject, subjectId: string): Promise<AuditEventRow[]> =>
  db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.subjectType, subjectType), eq(auditEvents.subjectId, subjectId)))
    .orderBy(asc(auditEvents.at), asc(auditEvents.id));

export const listAuditEventsByAction = (db: Db, action: TAuditAction): Promise<AuditEventRow[]> =>
  db.select().from(auditEvents).where(eq(auditEvents.action, action)).orderBy(asc(auditEvents.id));

/**
 * A document's trail, oldest first: its own events, and the `submission.received` event of the submission
 * it came with (the intake, which is recorded on the submission). Both use audit_events_subject_idx.
 */
export const listDocumentHistory = (db: Db, documentId: string, submissionId: string | null): Promise<AuditEventRow[]> =>
  db
    .select()
    .from(auditEvents)
    .where(
      or(
        and(eq(auditEvents.subjectType, 'document'), eq(auditEvents.subjectId, documentId)),
        submissionId === null
          ? undefined
          : and(eq(auditEvents.subjectType, 'submission'), eq(auditEvents.subjectId, submissionId), eq(auditEvents.action, 'submission.received')),
      ),
    )
    .orderBy(asc(auditEvents.at), asc(auditEvents.id));

/**
 * When each of these people last did something audited: the time of their latest record (highest id). The
 * id comes from audit_events_actor_user_idx alone (one backward step per person), then its row from the
 * primary key. A max(at) over their records read every one of them (a season's reviews give a reviewer
 * thousands), and an `order by id desc limit 1` per person was planned down the primary key, past every
 * other person's newer records.
 */
export async function lastActionTimes(db: Db, userIds: readonly string[]): Promise<Map<string, Date>> {
  if (userIds.length === 0) return new Map();
  // Spelled out with aliases: drizzle writes a one-table select's columns unqualified, and the inner
  // statements' "id" would then name their own rows, not the user's.
  const rows = await db
    .select({
      userId: users.id,
      at: sql<Date | null>`(select e.at from ${auditEvents} e where e.id = (select max(l.id) from ${auditEvents} l where l.actor_user_id = "users"."id"))`.mapWith(auditEvents.at),
    })
    .from(users)
    .where(inArray(users.id, [...userIds]));
  return new Map(rows.flatMap((row) => (row.at !== null ? [[row.userId, row.at] as const] : [])));
}

/**
 * The audit by person, newest first: one person's records (`userId`), the shared password's ('shared'), or
 * everyone's; `before` continues a page from a record id. Answers one record more than `limit` when there is a
 * next page, for the caller to tell.
 */
export const listActivity = (db: Db, filter: { /** A user id, or 'shared' for the shared password. */ userId?: string | undefined; before?: number | undefined; limit: number }): Promise<AuditEventRow[]> =>
  db
    .select()
    .from(auditEvents)
    .where(
      and(
        filter.userId === undefined
          ? undefined
          : filter.userId === 'shared'
            ? eq(auditEvents.actor, 'shared-password')
            : eq(auditEvents.actorUserId, filter.userId),
        filter.before === undefined ? undefined : lt(auditEvents.id, filter.before),
      ),
    )
    .orderBy(desc(auditEvents.id))
    .limit(filter.limit + 1);

/**
 * What was recorded about a player and their documents, newest first: the player's own events and those of
 * the given documents, leaving out the actions named in `except`. Both use audit_events_subject_idx.
 */
export const listPlayerEvents = (
  db: Db,
  subject: { playerId: string; documentIds: readonly string[]; except: readonly TAuditAction[] },
): Promise<AuditEventRow[]> =>
  db
    .select()
    .from(auditEvents)
    .where(
      and(
        or(
          and(eq(auditEvents.subjectType, 'player'), eq(auditEvents.subjectId, subject.playerId)),
          subject.documentIds.length === 0 ? undefined : and(eq(auditEvents.subjectType, 'document'), inArray(auditEvents.subjectId, [...subject.documentIds])),
        ),
        subject.except.length === 0 ? undefined : notInArray(auditEvents.action, [...subject.except]),
      ),
    )
    .orderBy(desc(auditEvents.at), desc(auditEvents.id));
