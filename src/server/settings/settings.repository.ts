import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../platform/db/client';
import { settings } from '../platform/db/schema';

/** Reads a setting and validates it; a stored value that no longer fits the schema reads as absent. */
export async function getSetting<T>(db: Db, key: string, schema: z.ZodType<T>): Promise<T | undefined> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, key));
  if (!row) return undefined;
  const parsed = schema.safeParse(row.value);
  return parsed.success ? parsed.data : undefined;
}

export async function putSetting(db: Db, key: string, value: unknown): Promise<void> {
  await db
    .insert(settings)
    .values({ key, value })
    .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: new Date() } });
}

/** Stores the value only when the key is new; true when this call stored it (first writer wins). */
export async function insertSettingIfAbsent(db: Db, key: string, value: unknown): Promise<boolean> {
  const inserted = await db.insert(settings).values({ key, value }).onConflictDoNothing().returning({ key: settings.key });
  return inserted.length === 1;
}
