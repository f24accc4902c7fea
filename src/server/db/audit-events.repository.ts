import { and, asc, eq } from 'drizzle-orm';
import type { Db } from './client';
import { auditEvents } from './schema';

export type AuditEventRow = typeof auditEvents.$inferSelect;
export type NewAuditEvent = Omit<typeof auditEvents.$inferInsert, 'id' | 'at'>;

/** Call with the transaction that makes the change, so the record and the change commit together. */
export async function recordAuditEvent(db: Db, event: NewAuditEvent): Promise<void> {
  await db.insert(auditEvents).values(event);
}

export const listAuditEvents = (db: Db, subjectType: string, subjectId: string): Promise<AuditEventRow[]> =>
  db
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.subjectType, subjectType), eq(auditEvents.subjectId, subjectId)))
    .orderBy(asc(auditEvents.at), asc(auditEvents.id));

export const listAuditEventsByAction = (db: Db, action: string): Promise<AuditEventRow[]> =>
  db.select().from(auditEvents).where(eq(auditEvents.action, action)).orderBy(asc(auditEvents.id));
