import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './client';

/**
 * Inserts rows in batches that stay well under PostgreSQL's 65,535 bind-parameter limit.
 * Rows that collide with an existing primary or unique key are skipped, so a re-run is harmless.
 */
export async function insertInBatches<T extends PgTable>(
  db: Db,
  table: T,
  rows: ReadonlyArray<T['$inferInsert']>,
  batchSize = 1_000,
): Promise<void> {
  for (let start = 0; start < rows.length; start += batchSize) {
    await db
      .insert(table)
      .values(rows.slice(start, start + batchSize))
      .onConflictDoNothing();
  }
}
