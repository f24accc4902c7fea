import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { testDatabaseKinds } from '../../../../tests/support/databases';
import { openEarlierDatabase } from '../../../../tests/support/earlier-database';
import { FALL_2025 } from '../../../../tests/support/pipeline';
import { countDocumentList } from '../../documents/documents.repository';
import { readMissingReportPage } from '../../reports/reports.repository';
import { findUsers } from '../../users/users.repository';
import type { Db } from './client';
import { registrations } from './schema';

/**
 * A database that an earlier Clearbase migrated up to 0012 (PGlite opened without any extension, as it was)
 * and filled, opened by this one: migration 0013 installs the extensions and the folding, rewrites every
 * registration's search text and builds the indexes, and the searches ignore accents on the rows already there.
 */

const LAST_BEFORE = '0012_seasons_from_the_app';
const ZIndexNames = z.object({ rows: z.array(z.object({ indexname: z.string() })) });


const PLAYER = {
  id: 'CB-2025-0000ab01',
  firstName: 'Zoë',
  lastName: 'Martínez',
  birthDate: '2014-05-01',
  guardianName: 'Françoise Côté',
  guardianEmail: 'francoise.cote@example.org',
};

/**
 * What the earlier version held: a season, a player with accents, a registration, a document and a user,
 * written in SQL with the columns that version had (today's schema names columns added since).
 */
async function fillAsBefore(db: Db): Promise<void> {
  await db.execute(sql`insert into seasons (id, name, kind, year, starts_on, ends_on, is_current)
    values (${FALL_2025.id}, ${FALL_2025.name}, ${FALL_2025.kind}, ${FALL_2025.year}, ${FALL_2025.startsOn}, ${FALL_2025.endsOn}, true)`);
  await db.execute(sql`insert into players (id, first_name, last_name, birth_date, guardian_name, guardian_email)
    values (${PLAYER.id}, ${PLAYER.firstName}, ${PLAYER.lastName}, ${PLAYER.birthDate}, ${PLAYER.guardianName}, ${PLAYER.guardianEmail})`);
  await db.execute(sql`insert into registrations (player_id, season_id, division) values (${PLAYER.id}, ${FALL_2025.id}, 'AA')`);
  await db.execute(sql`insert into documents (player_id, season_id, doc_type, status, original_filename, bytes, file_sha256)
    values (${PLAYER.id}, ${FALL_2025.id}, 'waiver', 'pending', 'Décharge signée.pdf', 1000, ${'a'.repeat(64)})`);
  await db.execute(sql`insert into users (email, first_name, last_name, role, status)
    values ('rene.lefevre@example.org', 'René', 'Lefèvre', 'viewer', 'active')`);
}

describe('a database migrated before searches ignored accents', () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it.each(testDatabaseKinds())('upgrades on %s and finds the rows it already held without their accents', async (kind) => {
    const database = await openEarlierDatabase(kind, { lastBefore: LAST_BEFORE, fill: fillAsBefore, cleanups });
    const { db } = database;

    const [row] = await db.select({ searchText: registrations.searchText }).from(registrations).where(eq(registrations.playerId, PLAYER.id));
    expect(row?.searchText.split('\n')).toEqual([
      'zoe martinez',
      'martinez, zoe',
      'martinez zoe',
      'cb-2025-0000ab01',
      'francoise cote',
      'francoise.cote@example.org',
    ]);
    const found = async (search: string) => (await readMissingReportPage(db, undefined, { division: 'all', status: 'all', search }, { limit: 10, offset: 0 })).map((r) => r.playerId);
    expect(await found('MARTINEZ')).toEqual([PLAYER.id]);
    expect(await found('francoise')).toEqual([PLAYER.id]);
    expect(await countDocumentList(db, { search: 'decharge signee' })).toEqual({ total: 1, isEstimate: false });
    expect(await countDocumentList(db, { search: 'zoe martinez' })).toEqual({ total: 1, isEstimate: false });
    expect((await findUsers(db, { search: 'rene lefevre' })).map((u) => u.email)).toEqual(['rene.lefevre@example.org']);

    const indexes = ZIndexNames.parse(await db.execute(sql`select indexname from pg_indexes where indexname like '%trgm_idx' order by indexname`));
    expect(indexes.rows.map((index) => index.indexname)).toEqual([
      'documents_file_name_fold_trgm_idx',
      'players_name_fold_trgm_idx',
      'registrations_search_text_trgm_idx',
    ]);
  });
});
