import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite, type Extensions } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { z } from 'zod';
import { openDatabase, type Database, type Db } from '../../src/server/platform/db/client';
import { schema } from '../../src/server/platform/db/schema';
import { createScratchPostgresDatabase, type TestDatabaseKind } from './databases';

const MIGRATIONS = fileURLToPath(new URL('../../src/server/platform/db/migrations', import.meta.url));
const ZJournal = z.looseObject({ entries: z.array(z.looseObject({ tag: z.string() })) });

/** A copy of the migrations whose journal ends at `lastTag`: what an earlier version shipped. */
async function migrationsUpTo(lastTag: string, into: string): Promise<string> {
  const folder = path.join(into, 'migrations');
  await cp(MIGRATIONS, folder, { recursive: true });
  const journalFile = path.join(folder, 'meta', '_journal.json');
  const journal = ZJournal.parse(JSON.parse(await readFile(journalFile, 'utf8')));
  const last = journal.entries.findIndex((entry) => entry.tag === lastTag);
  if (last < 1) throw new Error(`No migration ${lastTag} in the journal`);
  await writeFile(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, last + 1) }));
  return folder;
}

/**
 * A database as an earlier Clearbase left it, then opened by this one: migrated up to `lastBefore` (PGlite with
 * the extensions that version loaded), filled by `fill`, closed, and opened with `openDatabase`, which runs the
 * migrations after it. `cleanups` gets what removes it all (the database closed, scratch files and databases
 * dropped), for the test's afterAll.
 */
export async function openEarlierDatabase(
  kind: TestDatabaseKind,
  options: { lastBefore: string; fill: (db: Db) => Promise<void>; pgliteExtensions?: Extensions; cleanups: Array<() => Promise<unknown>> },
): Promise<Database> {
  const workDir = await mkdtemp(path.join(tmpdir(), 'cb-earlier-database-'));
  options.cleanups.push(() => rm(workDir, { recursive: true, force: true }));
  const earlierMigrations = await migrationsUpTo(options.lastBefore, workDir);
  let database: Database;
  if (kind === 'pglite') {
    const dataDir = path.join(workDir, 'pglite');
    const earlier = await PGlite.create(dataDir, options.pgliteExtensions ? { extensions: options.pgliteExtensions } : {});
    const db = drizzlePglite(earlier, { schema });
    await migratePglite(db, { migrationsFolder: earlierMigrations });
    await options.fill(db);
    await earlier.close();
    database = await openDatabase({ kind: 'pglite', dir: dataDir });
  } else {
    const scratch = await createScratchPostgresDatabase();
    options.cleanups.push(() => scratch.drop());
    const pool = new pg.Pool({ connectionString: scratch.url });
    const db = drizzlePg(pool, { schema });
    await migratePg(db, { migrationsFolder: earlierMigrations });
    await options.fill(db);
    await pool.end();
    database = await openDatabase({ kind: 'postgres', url: scratch.url });
  }
  options.cleanups.push(() => database.close());
  return database;
}
