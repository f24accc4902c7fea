import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, inject } from 'vitest';
import { openDatabase, type Database, type Db } from '../../src/server/platform/db/client';

export type TestDatabaseKind = 'pglite' | 'postgres';

export type TestDatabase = { database: Database; drop(): Promise<void> };

/** A fresh, migrated database of its own: in-memory PGlite, or a new database on the real PostgreSQL. */
export async function openTestDatabase(kind: TestDatabaseKind): Promise<TestDatabase> {
  if (kind === 'pglite') {
    const database = await openDatabase({ kind: 'pglite', dir: undefined, copyOf: await pgliteTemplate() });
    return { database, drop: () => database.close() };
  }
  const scratch = await createScratchPostgresDatabase();
  const database = await openDatabase({ kind: 'postgres', url: scratch.url });
  return {
    database,
    async drop() {
      await database.close();
      await scratch.drop();
    },
  };
}

let template: Promise<Blob> | undefined;

/** The migrated, empty PGlite the global setup dumped (tests/support/global-setup.ts), read once per test process. */
function pgliteTemplate(): Promise<Blob> {
  template ??= readFile(inject('pgliteTemplate')).then((bytes) => new Blob([bytes]));
  return template;
}

/**
 * A new, empty database on the real PostgreSQL, by URL: for a test that hands it to another process
 * (a server started as a child), which an in-memory PGlite cannot be shared with. Not migrated: whoever
 * opens it first does that. `drop` disconnects every session still using it.
 */
export async function createScratchPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = inject('postgresAdminUrl');
  if (!adminUrl) throw new Error('PostgreSQL is not available to this test run');
  const name = `cb_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await withAdmin(adminUrl, (admin) => admin.query(`create database ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => withAdmin(adminUrl, (admin) => admin.query(`drop database if exists ${name} with (force)`)).then(() => undefined),
  };
}

async function withAdmin<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** The database kinds this run covers: both, or only PGlite when PostgreSQL is absent outside CI. */
export function testDatabaseKinds(): TestDatabaseKind[] {
  return inject('postgresAdminUrl') ? ['pglite', 'postgres'] : ['pglite'];
}

/**
 * Runs the same suite once per database kind, each against its own fresh database.
 * `getDb` is valid inside tests and hooks, after the suite's beforeAll.
 */
export function describeEachDatabase(name: string, body: (ctx: { getDb: () => Db; getDatabase: () => Database; kind: TestDatabaseKind }) => void): void {
  for (const kind of testDatabaseKinds()) {
    describe(`${name} [${kind}]`, () => {
      let testDatabase: TestDatabase | undefined;
      beforeAll(async () => {
        testDatabase = await openTestDatabase(kind);
      });
      afterAll(async () => {
        await testDatabase?.drop();
      });
      const getDatabase = () => {
        if (!testDatabase) throw new Error('database not open yet: use it inside a test or hook');
        return testDatabase.database;
      };
      body({ getDb: () => getDatabase().db, getDatabase, kind });
    });
  }
  if (!inject('postgresAdminUrl')) {
    describe.skip(`${name} [postgres] — SKIPPED: PostgreSQL not reachable`, () => undefined);
  }
}
