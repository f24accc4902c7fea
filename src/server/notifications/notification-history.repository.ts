import { and, desc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { TAuditAction, TNotificationStatus } from '../../contract';
import type { Db } from '../platform/db/client';
import { insertInBatches } from '../platform/db/batch';
import { countCapped, LIST_COUNT_CAP, type ListTotal } from '../platform/db/capped-count';
import { registrationInDivisions, type DivisionScope } from '../platform/db/division-scope';
import { auditEvents, notificationHistory } from '../platform/db/schema';

export type NotificationHistoryRow = typeof notificationHistory.$inferSelect;
export type NewNotificationHistory = typeof notificationHistory.$inferInsert;

export const insertNotificationHistory = (db: Db, rows: readonly NewNotificationHistory[]) =>
  insertInBatches(db, notificationHistory, rows);

/** Inserts rows and returns them with their ids, in the order given. */
export async function recordNotificationHistory(db: Db, rows: readonly NewNotificationHistory[]): Promise<NotificationHistoryRow[]> {
  const saved: NotificationHistoryRow[] = [];
  // 12 columns a row: 1,000 rows stay far under PostgreSQL's 65,535 bind parameters.
  for (let start = 0; start < rows.length; start += 1_000) {
    saved.push(...(await db.insert(notificationHistory).values(rows.slice(start, start + 1_000)).returning()));
  }
  return saved;
}

/**
 * A message is in a scope when the player it was about is registered for its season in one of the divisions;
 * a message about no player is in no limited scope. Nothing for every division.
 */
const messageInScope = (scope: DivisionScope) => registrationInDivisions(notificationHistory.playerId, notificationHistory.seasonId, scope);

/** Newest first, of the scope's divisions. */
export const listNotificationHistory = (db: Db, limit = 100, offset = 0, scope: DivisionScope = null): Promise<NotificationHistoryRow[]> =>
  db
    .select()
    .from(notificationHistory)
    .where(messageInScope(scope))
    .orderBy(desc(notificationHistory.createdAt), desc(notificationHistory.id))
    .limit(limit)
    .offset(offset);

/**
 * How many messages of the scope's divisions History holds: exact up to `cap`, past it the planner's estimate
 * (countCapped): every reminder round adds one message per family, and counting them all read every one.
 */
export const countNotificationHistory = (db: Db, scope: DivisionScope = null, cap: number = LIST_COUNT_CAP): Promise<ListTotal> =>
  countCapped(db, () => db.select({ one: sql`1` }).from(notificationHistory).where(messageInScope(scope)).$dynamic(), cap);

/** Of the given rows, the ones still waiting to be sent. */
export const listPendingNotifications = (db: Db, ids: readonly string[]): Promise<NotificationHistoryRow[]> =>
  ids.length === 0
    ? Promise.resolve([])
    : db
        .select()
        .from(notificationHistory)
        .where(and(inArray(notificationHistory.id, [...ids]), eq(notificationHistory.status, 'pending')));

/** Records how a pending message went; a row no longer pending is left alone (another run finished it). */
export async function settleNotification(
  db: Db,
  id: string,
  outcome: { status: Exclude<TNotificationStatus, 'pending'>; sentAt: Date | null; errorMessage: string | null },
): Promise<boolean> {
  const rows = await db
    .update(notificationHistory)
    .set(outcome)
    .where(and(eq(notificationHistory.id, id), eq(notificationHistory.status, 'pending')))
    .returning({ id: notificationHistory.id });
  return rows.length === 1;
}

/** The audit actions of a person sending messages; their record is written in the transaction that queues them. */
const SENDING_ACTIONS = ['notifications.sent', 'notifications.scheduled'] as const satisfies readonly TAuditAction[];

/**
 * The messages about a player, newest first, each with the name of the person who sent it: the audit record
 * written in the same transaction carries the same `now()` as the message rows (audit_events_at_idx). Null for
 * a message no person sent (a rejection notice, a refused-files notice).
 */
export const listPlayerNotificationHistory = (db: Db, playerId: string): Promise<Array<NotificationHistoryRow & { senderName: string | null }>> =>
  db
    .select({
      ...getTableColumns(notificationHistory),
      senderName: sql<string | null>`(select ${auditEvents.actorName} from ${auditEvents} where ${auditEvents.at} = ${notificationHistory.createdAt} and ${inArray(auditEvents.action, [...SENDING_ACTIONS])} order by ${auditEvents.id} limit 1)`,
    })
    .from(notificationHistory)
    .where(eq(notificationHistory.playerId, playerId))
    .orderBy(desc(notificationHistory.createdAt), desc(notificationHistory.id));
