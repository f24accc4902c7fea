import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { IN_CI, POSTGRES_ADMIN_URL } from './test-env';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Admin URL of the real PostgreSQL server, or null when it is absent outside CI. */
    postgresAdminUrl: string | null;
  }
}

export default async function setup(project: TestProject): Promise<void> {
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
