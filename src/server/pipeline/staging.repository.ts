import { inArray } from 'drizzle-orm';
import type { Db } from '../platform/db/client';
import { documents } from '../platform/db/schema';

/** Keys per query: far below PostgreSQL's 65,535 bind parameters, and a short IN list to plan. */
const KEYS_PER_QUERY = 1_000;

/**
 * Which of these staging keys a document still points at (`staged_key`), whatever its status: such an
 * object belongs to the pipeline, which moves or deletes it and only then clears the column.
 */
export async function findStagedKeys(db: Db, keys: readonly string[]): Promise<Set<string>> {
  const referenced = new Set<string>();
  for (let start = 0; start < keys.length; start += KEYS_PER_QUERY) {
    const rows = await db
      .select({ stagedKey: documents.stagedKey })
      .from(documents)
      .where(inArray(documents.stagedKey, keys.slice(start, start + KEYS_PER_QUERY)));
    for (const { stagedKey } of rows) if (stagedKey !== null) referenced.add(stagedKey);
  }
  return referenced;
}
