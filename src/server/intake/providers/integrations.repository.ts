import { eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/client';
import { settings } from '../../platform/db/schema';

/**
 * Holds the settings row `key` until the transaction `db` ends, creating it with `initial` when it is absent:
 * two read-change-write updates of one provider's settings (a PATCH from the Integrations screen, a delivery
 * noting its questions) then run one after the other instead of one silently undoing the other.
 */
export async function lockSettingRow(db: Db, key: string, initial: unknown): Promise<void> {
  await db.insert(settings).values({ key, value: initial }).onConflictDoNothing();
  await db.select({ key: settings.key }).from(settings).where(eq(settings.key, key)).for('update');
}
