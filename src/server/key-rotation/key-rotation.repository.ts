import { and, asc, count, eq, gt, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../platform/db/client';
import { auditEvents, documentReadings, documents, settings, users } from '../platform/db/schema';

/** The id every uuid sorts after: where a walk through a table by id starts. */
export const FIRST_ID = '00000000-0000-0000-0000-000000000000';

// Stored files: the `documents` rows that still hold an envelope (a removed file's row keeps none).

export const countDocumentKeys = async (db: Db): Promise<number> =>
  (await db.select({ n: count() }).from(documents).where(isNotNull(documents.wrappedKey)))[0]?.n ?? 0;

/** The next `limit` documents holding a wrapped key, by id, after `afterId`. */
export const documentIdsAfter = async (db: Db, afterId: string, limit: number): Promise<string[]> =>
  (
    await db
      .select({ id: documents.id })
      .from(documents)
      .where(and(isNotNull(documents.wrappedKey), gt(documents.id, afterId)))
      .orderBy(asc(documents.id))
      .limit(limit)
  ).map((row) => row.id);

/** The wrapped keys of these documents, their rows locked until the transaction ends. */
export const lockDocumentKeys = async (tx: Db, ids: readonly string[]): Promise<Array<{ id: string; wrappedKey: Buffer }>> =>
  (
    await tx
      .select({ id: documents.id, wrappedKey: documents.wrappedKey })
      .from(documents)
      .where(and(inArray(documents.id, [...ids]), isNotNull(documents.wrappedKey)))
      .for('update')
  ).flatMap((row) => (row.wrappedKey ? [{ id: row.id, wrappedKey: row.wrappedKey }] : []));

/** Sets the wrapped keys of several documents in one statement. */
export async function setDocumentKeys(tx: Db, keys: ReadonlyArray<{ id: string; wrappedKey: Buffer }>): Promise<void> {
  if (keys.length === 0) return;
  const rows = sql.join(
    keys.map((key) => sql`(${key.id}::uuid, ${key.wrappedKey}::bytea)`),
    sql`, `,
  );
  await tx.execute(sql`update ${documents} set wrapped_key = rewrapped.key from (values ${rows}) as rewrapped(id, key) where ${documents.id} = rewrapped.id`);
}

// The settings table: a few rows, any of which may hold sealed secrets.

export const settingKeys = async (db: Db): Promise<string[]> =>
  (await db.select({ key: settings.key }).from(settings).orderBy(asc(settings.key))).map((row) => row.key);

export const lockSetting = async (tx: Db, key: string): Promise<unknown> =>
  (await tx.select({ value: settings.value }).from(settings).where(eq(settings.key, key)).for('update'))[0]?.value;

export async function setSetting(tx: Db, key: string, value: unknown): Promise<void> {
  await tx.update(settings).set({ value }).where(eq(settings.key, key));
}

// Two-step sign-in secrets.

export const usersWithTotp = async (db: Db): Promise<string[]> =>
  (await db.select({ id: users.id }).from(users).where(isNotNull(users.totpSecretSealed)).orderBy(asc(users.id))).map((row) => row.id);

export const lockTotpSecret = async (tx: Db, userId: string): Promise<string | null> =>
  (await tx.select({ sealed: users.totpSecretSealed }).from(users).where(eq(users.id, userId)).for('update'))[0]?.sealed ?? null;

export async function setTotpSecret(tx: Db, userId: string, sealed: string): Promise<void> {
  await tx.update(users).set({ totpSecretSealed: sealed }).where(eq(users.id, userId));
}

// A document's read text, sealed, and its word index.

export const countSealedReadings = async (db: Db): Promise<number> =>
  (await db.select({ n: count() }).from(documentReadings).where(isNotNull(documentReadings.text)))[0]?.n ?? 0;

export const readingIdsAfter = async (db: Db, afterId: string, limit: number): Promise<string[]> =>
  (
    await db
      .select({ id: documentReadings.documentId })
      .from(documentReadings)
      .where(and(isNotNull(documentReadings.text), gt(documentReadings.documentId, afterId)))
      .orderBy(asc(documentReadings.documentId))
      .limit(limit)
  ).map((row) => row.id);

export const lockReadings = async (tx: Db, ids: readonly string[]): Promise<Array<{ id: string; text: unknown }>> =>
  tx
    .select({ id: documentReadings.documentId, text: documentReadings.text })
    .from(documentReadings)
    .where(and(inArray(documentReadings.documentId, [...ids]), isNotNull(documentReadings.text)))
    .for('update');

export async function setReadingText(tx: Db, id: string, text: unknown, wordHashes: string[]): Promise<void> {
  await tx.update(documentReadings).set({ text, wordHashes }).where(eq(documentReadings.documentId, id));
}

// The audit trail and the database's other users.

/**
 * Whether the change of key that began at `startedAt` is in the audit trail already (a rerun after a crash
 * between recording it and replacing the key file then records it once).
 */
export const rotationRecorded = async (db: Db, startedAt: string): Promise<boolean> =>
  (
    await db
      .select({ id: auditEvents.id })
      .from(auditEvents)
      .where(and(eq(auditEvents.action, 'master_key.rotated'), sql`${auditEvents.detail}->>'startedAt' = ${startedAt}`))
      .limit(1)
  ).length > 0;

/**
 * Sessions on this PostgreSQL database other than this process's own (known by their application name): a
 * running server always keeps one open, the one that listens for live events.
 */
export const otherSessions = async (db: Db, applicationName: string): Promise<number> => {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(sql`pg_stat_activity`)
    .where(sql`datname = current_database() and pid <> pg_backend_pid() and coalesce(application_name, '') <> ${applicationName}`);
  return row?.n ?? 0;
};
