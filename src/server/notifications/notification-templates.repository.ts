import { asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../platform/db/client';
import { insertInBatches } from '../platform/db/batch';
import { notificationTemplates } from '../platform/db/schema';

export type NotificationTemplateRow = typeof notificationTemplates.$inferSelect;
export type NewNotificationTemplate = typeof notificationTemplates.$inferInsert;

/** Arbitrary constant beside the demo seed's 7_305_571_002: serialises the default-template seed across instances. */
const TEMPLATE_SEED_LOCK_KEY = 7_305_571_003;

export const insertNotificationTemplates = (db: Db, rows: readonly NewNotificationTemplate[]) =>
  insertInBatches(db, notificationTemplates, rows);

export const listNotificationTemplates = (db: Db): Promise<NotificationTemplateRow[]> =>
  db.select().from(notificationTemplates).orderBy(asc(notificationTemplates.name));

export async function findNotificationTemplate(db: Db, id: string): Promise<NotificationTemplateRow | undefined> {
  const [row] = await db.select().from(notificationTemplates).where(eq(notificationTemplates.id, id));
  return row;
}

/** The oldest template of that name (names are not unique; the seeded one comes first). */
export async function findNotificationTemplateByName(db: Db, name: string): Promise<NotificationTemplateRow | undefined> {
  const [row] = await db
    .select()
    .from(notificationTemplates)
    .where(eq(notificationTemplates.name, name))
    .orderBy(asc(notificationTemplates.createdAt))
    .limit(1);
  return row;
}

/** Locks the row for the rest of the transaction: an edit reads, checks and writes without a concurrent edit in between. */
export async function lockNotificationTemplate(db: Db, id: string): Promise<NotificationTemplateRow | undefined> {
  const [row] = await db.select().from(notificationTemplates).where(eq(notificationTemplates.id, id)).for('update');
  return row;
}

export async function updateNotificationTemplate(
  db: Db,
  id: string,
  patch: Partial<Pick<NotificationTemplateRow, 'name' | 'subject' | 'content' | 'enabled'>>,
): Promise<NotificationTemplateRow | undefined> {
  const [row] = await db
    .update(notificationTemplates)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(notificationTemplates.id, id))
    .returning();
  return row;
}

/**
 * Inserts `rows` into an empty table; into one that has templates, only those of `addedLater` whose name no
 * template has. Says whether it inserted any. The advisory lock is taken before the count, so when several
 * instances start together on one PostgreSQL exactly one seeds and the others see its rows.
 */
export function seedNotificationTemplates(db: Db, rows: readonly NewNotificationTemplate[], addedLater: readonly string[] = []): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${TEMPLATE_SEED_LOCK_KEY})`);
    const [existing] = await tx.select({ n: count() }).from(notificationTemplates);
    if ((existing?.n ?? 0) === 0) {
      await tx.insert(notificationTemplates).values([...rows]);
      return true;
    }
    const wanted = rows.filter((row) => addedLater.includes(row.name));
    if (wanted.length === 0) return false;
    const present = await tx
      .select({ name: notificationTemplates.name })
      .from(notificationTemplates)
      .where(inArray(notificationTemplates.name, wanted.map((row) => row.name)));
    const missing = wanted.filter((row) => !present.some((template) => template.name === row.name));
    if (missing.length === 0) return false;
    await tx.insert(notificationTemplates).values(missing);
    return true;
  });
}
