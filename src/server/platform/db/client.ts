import { mkdtemp, readFile, rm, writeFile, cp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { z } from 'zod';
import { startEmbeddedPostgres } from './embedded-postgres';
import { isDatabaseUnreachable } from './errors';
import { createdPglite, PGLITE_SETTINGS, startCreatingPglite } from './pglite-create';
import { schema, type Schema } from './schema';

/** The one database type repositories accept: a PGlite or node-postgres database, or a transaction of either. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

/**
 * A PGlite in `dir` (`undefined`: in memory), or a PostgreSQL by URL. `copyOf`, for an in-memory PGlite only,
 * starts it from a dumped data directory (`PGlite.dumpDataDir`) instead of creating an empty one, which in
 * WebAssembly takes seconds; the migrations still run over it.
 */
export type DatabaseTarget =
  | { kind: 'pglite'; dir: string | undefined; copyOf?: Blob }
  | { kind: 'postgres'; url: string }
  | { kind: 'embedded-postgres'; dir: string };

/**
 * The driver underneath, for the db-layer code that needs more than queries (LISTEN/NOTIFY in notify.ts).
 * On PostgreSQL LISTEN needs a session of its own that outlives any one query, which a pooled client is not.
 */
export type DatabaseDriver = { kind: 'pglite'; pglite: PGlite } | { kind: 'postgres'; newClient(): pg.Client };

export interface Database {
  readonly db: Db;
  /** The engine queries run on: PGlite, or PostgreSQL (a server of its own or the embedded one). */
  readonly kind: 'pglite' | 'postgres';
  readonly driver: DatabaseDriver;
  close(): Promise<void>;
}

const MIGRATIONS_FOLDER = fileURLToPath(new URL('./migrations', import.meta.url));
/** Arbitrary constant: serialises migrations when several instances start on one PostgreSQL. */
const MIGRATION_LOCK_KEY = 7_305_571_001;

/** Connections one server keeps to PostgreSQL at most (the benchmarks give their raw callers as many). */
export const POSTGRES_POOL_SIZE = 10;

/** Options of openDatabase. */
export type OpenOptions = {
  /**
   * Apply only the first this many migrations (a restore loads a backup's rows into the schema they were
   * written from, then opens the database again to apply the rest). Default: every migration.
   */
  migrations?: number;
};

/** How many migrations there are: a database they have all been applied to is at this level. */
export async function migrationCount(): Promise<number> {
  return (await readJournal(MIGRATIONS_FOLDER)).entries.length;
}

/** How many migrations a database has had applied (drizzle's own record of them). */
export async function appliedMigrationCount(db: Db): Promise<number> {
  const result: unknown = await db.execute(sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
  return ZCount.parse(result).rows[0]?.n ?? 0;
}

const ZCount = z.object({ rows: z.array(z.object({ n: z.number() })) });

type Journal = { entries: unknown[] };
async function readJournal(folder: string): Promise<Journal> {
  return JSON.parse(await readFile(path.join(folder, 'meta', '_journal.json'), 'utf8')) as Journal;
}

/** Runs `work` with a copy of the migrations folder whose journal lists only the first `count` migrations. */
async function withMigrations<T>(count: number | undefined, work: (folder: string) => Promise<T>): Promise<T> {
  if (count === undefined) return work(MIGRATIONS_FOLDER);
  const journal = await readJournal(MIGRATIONS_FOLDER);
  if (!Number.isInteger(count) || count < 1 || count > journal.entries.length) throw new Error(`there is no migration level ${count}`);
  const folder = await mkdtemp(path.join(os.tmpdir(), 'clearbase-migrations-'));
  try {
    await cp(MIGRATIONS_FOLDER, folder, { recursive: true });
    await writeFile(path.join(folder, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries: journal.entries.slice(0, count) }));
    return await work(folder);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/**
 * Opens the database and applies every pending migration. `dir: undefined` = an in-memory PGlite. The
 * embedded PostgreSQL is started first and stopped by `close`, after the pool has ended.
 */
export async function openDatabase(target: DatabaseTarget, options: OpenOptions = {}): Promise<Database> {
  if (target.kind === 'embedded-postgres') {
    const server = await startEmbeddedPostgres(target.dir);
    try {
      const database = await openDatabase({ kind: 'postgres', url: server.url }, options);
      return {
        ...database,
        close: async () => {
          try {
            await database.close();
          } finally {
            await server.stop();
          }
        },
      };
    } catch (error) {
      await server.stop();
      throw error;
    }
  }
  if (target.kind === 'pglite') {
    // The extensions search needs (migration 0013, decision 024): PGlite loads an extension's files only when
    // it is offered here; CREATE EXTENSION in the migration then installs it, as on PostgreSQL.
    if (target.copyOf && target.dir !== undefined) throw new Error('a PGlite in a folder cannot start as a copy');
    if (target.dir !== undefined) {
      // A new database is created in a thread (pglite-create.ts), unless `npm start` has already begun it.
      startCreatingPglite(target.dir);
      await createdPglite(target.dir);
    }
    const client = await PGlite.create(target.dir ?? 'memory://', {
      extensions: { unaccent, pg_trgm },
      loadDataDir: target.copyOf,
      // A new database is created with the same settings, so its postgresql.conf says what runs.
      initDbStartParams: PGLITE_SETTINGS,
      startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS],
    });
    const db = drizzlePglite(client, { schema });
    try {
      await withMigrations(options.migrations, (migrationsFolder) => migratePglite(db, { migrationsFolder }));
    } catch (error) {
      await client.close();
      throw error;
    }
    return { db, kind: 'pglite', driver: { kind: 'pglite', pglite: client }, close: () => client.close() };
  }

  const pool = new pg.Pool({ connectionString: target.url, max: POSTGRES_POOL_SIZE, connectionTimeoutMillis: 5_000 });
  // A client that loses its server (terminated, failover, restart) emits 'error', which kills the process
  // when nobody listens. The pool listens only while a client sits idle, and drops it; a client checked
  // out (a transaction between two statements, the migration lock) has no listener of its own, so each
  // new client gets one. The error itself reaches whoever uses the client next, through the failed query,
  // and the pool replaces a broken client with a new connection on the next checkout.
  pool.on('error', ignoreConnectionError);
  pool.on('connect', (client) => client.on('error', ignoreConnectionError));
  const db = drizzlePg(pool, { schema });
  db.transaction = transactionsOnOwnClients(pool);
  const lockClient = await pool.connect();
  try {
    await lockClient.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await withMigrations(options.migrations, (migrationsFolder) => migratePg(db, { migrationsFolder }));
  } finally {
    await lockClient.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    lockClient.release();
  }
  // TCP keepalive: a LISTEN session sits idle for hours, and a silently dropped link would otherwise go unnoticed.
  // Like the pool's clients, it never crashes the process when its connection drops; its owner adds a
  // listener of its own to notice (notify.ts reconnects).
  const newClient = () => {
    const client = new pg.Client({ connectionString: target.url, connectionTimeoutMillis: 5_000, keepAlive: true, keepAliveInitialDelayMillis: 10_000 });
    client.on('error', ignoreConnectionError);
    return client;
  };
  return { db, kind: 'postgres', driver: { kind: 'postgres', newClient }, close: () => pool.end() };
}

/**
 * `db.transaction` for a pooled database, checking the client out and in itself. drizzle-orm 0.45's own
 * runs BEGIN before the try/finally that releases the client, so a BEGIN that fails (the connection
 * dropped just before or during it) leaks the client for the life of the process, and a few such drops
 * exhaust the pool (drizzle-team/drizzle-orm#6241, open). Here the transaction runs on the checked-out
 * client (drizzle leaves a client it did not take from a pool alone), and the client always goes back,
 * destroyed rather than reused when its connection was lost.
 */
function transactionsOnOwnClients(pool: pg.Pool): NodePgDatabase<Schema>['transaction'] {
  // One drizzle handle per pooled client, kept as long as the client lives.
  const handles = new WeakMap<pg.PoolClient, NodePgDatabase<Schema>>();
  return async (work, config) => {
    const client = await pool.connect();
    let lost: Error | undefined;
    try {
      let handle = handles.get(client);
      if (!handle) {
        handle = drizzlePg(client, { schema });
        handles.set(client, handle);
      }
      return await handle.transaction(work, config);
    } catch (error) {
      if (isDatabaseUnreachable(error)) lost = error instanceof Error ? error : new Error('database connection lost');
      throw error;
    } finally {
      client.release(lost);
    }
  };
}

/** For a client's 'error' event: being listened to is what keeps a dropped connection from crashing the process. */
function ignoreConnectionError(): void {}

/** Round-trip time of a trivial query, in milliseconds. */
export async function pingDatabase(db: Db): Promise<number> {
  const started = performance.now();
  await db.execute(sql`select 1`);
  return performance.now() - started;
}
