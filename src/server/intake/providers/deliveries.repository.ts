import { and, desc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { TFormProvider } from '../../../contract';
import type { Db } from '../../platform/db/client';
import { intakeDeliveries, players } from '../../platform/db/schema';

export type DeliveryRow = typeof intakeDeliveries.$inferSelect;
export type NewDelivery = typeof intakeDeliveries.$inferInsert;
export type DeliveryListRow = DeliveryRow & { playerFirstName: string | null; playerLastName: string | null };

export async function insertDelivery(db: Db, row: NewDelivery): Promise<DeliveryRow> {
  const [inserted] = await db.insert(intakeDeliveries).values(row).returning();
  if (!inserted) throw new Error('intake_deliveries insert returned no row');
  return inserted;
}

/** A provider's deliveries, newest first, with the player's name where one was matched. */
export function listDeliveries(db: Db, provider: TFormProvider, limit: number): Promise<DeliveryListRow[]> {
  return db
    .select({ ...COLUMNS, playerFirstName: players.firstName, playerLastName: players.lastName })
    .from(intakeDeliveries)
    .leftJoin(players, eq(players.id, intakeDeliveries.playerId))
    .where(eq(intakeDeliveries.provider, provider))
    .orderBy(desc(intakeDeliveries.receivedAt), desc(intakeDeliveries.id))
    .limit(limit);
}

export async function findDelivery(db: Db, id: string): Promise<DeliveryRow | undefined> {
  const [row] = await db.select().from(intakeDeliveries).where(eq(intakeDeliveries.id, id));
  return row;
}

/**
 * Deletes a provider's deliveries beyond the newest `keep`, and answers the storage keys of their kept bodies,
 * for the caller to delete once this has committed.
 */
export async function trimDeliveries(db: Db, provider: TFormProvider, keep: number): Promise<string[]> {
  const newest = db
    .select({ id: intakeDeliveries.id })
    .from(intakeDeliveries)
    .where(eq(intakeDeliveries.provider, provider))
    .orderBy(desc(intakeDeliveries.receivedAt), desc(intakeDeliveries.id))
    .limit(keep);
  const removed = await db
    .delete(intakeDeliveries)
    .where(and(eq(intakeDeliveries.provider, provider), notInArray(intakeDeliveries.id, newest)))
    .returning({ bodyKey: intakeDeliveries.bodyKey });
  return removed.flatMap((row) => (row.bodyKey === null ? [] : [row.bodyKey]));
}

/** The body keys still referenced among `keys`: what a sweep of delivery bodies must keep. */
export async function referencedBodyKeys(db: Db, keys: readonly string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db.select({ bodyKey: intakeDeliveries.bodyKey }).from(intakeDeliveries).where(inArray(intakeDeliveries.bodyKey, [...keys]));
  return new Set(rows.flatMap((row) => (row.bodyKey === null ? [] : [row.bodyKey])));
}

/** When each provider last delivered. */
export async function lastDeliveryTimes(db: Db): Promise<Map<TFormProvider, Date>> {
  const rows = await db
    .select({ provider: intakeDeliveries.provider, at: sql<Date>`max(${intakeDeliveries.receivedAt})`.mapWith((v: string | Date) => new Date(v)) })
    .from(intakeDeliveries)
    .groupBy(intakeDeliveries.provider);
  return new Map(rows.map((row) => [row.provider, row.at]));
}

const COLUMNS = {
  id: intakeDeliveries.id,
  provider: intakeDeliveries.provider,
  receivedAt: intakeDeliveries.receivedAt,
  outcome: intakeDeliveries.outcome,
  status: intakeDeliveries.status,
  submissionId: intakeDeliveries.submissionId,
  playerId: intakeDeliveries.playerId,
  documents: intakeDeliveries.documents,
  error: intakeDeliveries.error,
  replayOf: intakeDeliveries.replayOf,
  bodyKey: intakeDeliveries.bodyKey,
  contentType: intakeDeliveries.contentType,
};
