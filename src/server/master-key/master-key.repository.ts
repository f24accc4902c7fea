import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../platform/db/client';
import { settings } from '../platform/db/schema';

/** The settings row that says whether the master key has been backed up, and for which key. */
export const MASTER_KEY_BACKUP_SETTING = 'master_key.backup';

const ZStoredEvent = z.object({ at: z.string(), by: z.string(), userId: z.string().nullable() });
export type StoredEvent = z.infer<typeof ZStoredEvent>;

/** For one key (by its fingerprint): when its sheet was downloaded, and when someone confirmed holding it. */
export const ZStoredBackup = z.object({
  fingerprint: z.string(),
  sheetDownloaded: ZStoredEvent,
  confirmed: ZStoredEvent.nullable(),
});
export type StoredBackup = z.infer<typeof ZStoredBackup>;

const parse = (value: unknown): StoredBackup | undefined => ZStoredBackup.safeParse(value).data;

export async function readBackup(db: Db): Promise<StoredBackup | undefined> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, MASTER_KEY_BACKUP_SETTING));
  return parse(row?.value);
}

/** The row, locked until the transaction ends: one download or confirmation at a time, on any instance. */
export async function lockBackup(tx: Db): Promise<{ exists: boolean; stored: StoredBackup | undefined }> {
  const [row] = await tx.select({ value: settings.value }).from(settings).where(eq(settings.key, MASTER_KEY_BACKUP_SETTING)).for('update');
  return { exists: row !== undefined, stored: parse(row?.value) };
}

/**
 * Writes the state. `exists` is what lockBackup found: a row that was absent is inserted only if still absent,
 * so of two first downloads at once exactly one is recorded (false for the other).
 */
export async function writeBackup(tx: Db, exists: boolean, value: StoredBackup): Promise<boolean> {
  if (exists) {
    await tx.update(settings).set({ value, updatedAt: new Date() }).where(eq(settings.key, MASTER_KEY_BACKUP_SETTING));
    return true;
  }
  const inserted = await tx.insert(settings).values({ key: MASTER_KEY_BACKUP_SETTING, value }).onConflictDoNothing().returning({ key: settings.key });
  return inserted.length === 1;
}
