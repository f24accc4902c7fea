import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/server/platform/db/client';
import { IN_CI, POSTGRES_ADMIN_URL } from './test-env';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Admin URL of the real PostgreSQL server, or null when it is absent outside CI. */
    postgresAdminUrl: string | null;
    /** A file holding a migrated, empty PGlite data directory (tests/support/databases.ts starts copies of it). */
    pgliteTemplate: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const template = await writePgliteTemplate();
  project.provide('pgliteTemplate', template);
  await providePostgres(project);
  return () => rm(template, { force: true });
}

/**
 * Creating a PGlite runs initdb in WebAssembly, several seconds of CPU; a copy of a dumped one opens in under
 * one. The integration run makes one migrated PGlite here and every test's in-memory database starts from it.
 */
async function writePgliteTemplate(): Promise<string> {
  const database = await openDatabase({ kind: 'pglite', dir: undefined });
  try {
    if (database.driver.kind !== 'pglite') throw new Error('expected a PGlite');
    const dump = await database.driver.pglite.dumpDataDir('none');
    const file = path.join(tmpdir(), `cb-pglite-template-${process.pid}.tar`);
    await writeFile(file, Buffer.from(await dump.arrayBuffer()), { mode: 0o600 });
    return file;
  } finally {
    await database.close();
  }
}

async function providePostgres(project: TestProject): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    const { rows } = await client.query<{ server_version_num: string }>('show server_version_num');
    const version = Number(rows[0]?.server_version_num ?? 0);
    if (version < 150_000) throw new Error(`PostgreSQL ${version} is older than 15`);
    project.provide('postgresAdminUrl', POSTGRES_ADMIN_URL);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (IN_CI) throw new Error(`PostgreSQL is required in CI and is not usable at ${POSTGRES_ADMIN_URL}: ${reason}`);
    process.stderr.write(`\n!!! PostgreSQL not reachable at ${POSTGRES_ADMIN_URL} (${reason}): PostgreSQL integration tests are SKIPPED.\n\n`);
    project.provide('postgresAdminUrl', null);
  } finally {
    await client.end().catch(() => undefined);
  }
}
