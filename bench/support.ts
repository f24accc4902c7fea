import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { and, count, eq, isNull } from 'drizzle-orm';
import pg from 'pg';
import { loadConfig } from '../src/server/platform/config';
import { openDatabase, type Database } from '../src/server/platform/db/client';
import { documents } from '../src/server/platform/db/schema';
import { insertSeasons } from '../src/server/seasons/seasons.repository';
import { createLogger } from '../src/server/platform/logger';
import { createClearbase, type Clearbase } from '../src/server/main';
import { onePageObjects, pdfStream, writePdf } from '../tests/support/multipart';

/** What the pipeline and mailbox benches share: an in-process Clearbase on a fresh database, and sized PDFs. */

/** PGlite in this process (the embedded default) or a PostgreSQL server (a scratch database, dropped after). */
export type BenchDatabase = 'pglite' | 'postgres';

/**
 * Where the PostgreSQL cases make their scratch database; any database of the server will do to connect.
 * The local server's unix socket when there is one (as a server on the same host is best reached: a query
 * costs the client about half the CPU it costs over TCP loopback), else TCP.
 */
export const DEFAULT_POSTGRES_URL = existsSync('/var/run/postgresql/.s.PGSQL.5432')
  ? 'postgres://postgres@localhost/postgres?host=/var/run/postgresql'
  : 'postgres://postgres@127.0.0.1:5432/postgres';

const DAY_MS = 24 * 60 * 60 * 1000;
const dayOffset = (days: number): string => new Date(Date.now() + days * DAY_MS).toISOString().slice(0, 10);
const BENCH_YEAR = new Date().getUTCFullYear();

/**
 * The current season every bench instance starts with: running today (it began 100 days ago, ends in 45), so
 * its registrations are judged on today, as a league's current season is, and some medical forms run out in it.
 */
export const BENCH_SEASON = {
  id: `fall-${BENCH_YEAR}`,
  name: `Fall Ball ${BENCH_YEAR}`,
  kind: 'Fall Ball',
  year: BENCH_YEAR,
  startsOn: dayOffset(-100),
  endsOn: dayOffset(45),
  isCurrent: true,
} as const;
/** The season before it, that a third of the bench's children played (their approvals carry over). */
export const BENCH_EARLIER_SEASON = {
  id: `spring-${BENCH_YEAR}`,
  name: `Spring Ball ${BENCH_YEAR}`,
  kind: 'Spring Ball',
  year: BENCH_YEAR,
  startsOn: dayOffset(-290),
  endsOn: dayOffset(-160),
} as const;

export type BenchInstance = { clearbase: Clearbase; database: Database; workers: number; close(): Promise<void> };

export type BenchInstanceOptions = {
  kind: BenchDatabase;
  /** Admin connection for the PostgreSQL case. */
  postgresUrl: string;
  /** Parent folder of the instance's temporary data dir. */
  workDir: string;
  /** Starts the names of the data dir (`clearbase-bench-`) and of the scratch database (`clearbase_bench_`). */
  dataDirPrefix: string;
  databasePrefix: string;
  password: string;
  /** Settings beyond the data dir, password, a fresh master key, no demo data and a silent log. */
  settings: Record<string, string | undefined>;
  /**
   * Whether stored documents are read (OCR) in this process, as the server does by default. A bench of the
   * pipeline up to storage leaves it out: reading is a lane of its own after storage, and its CPU would be
   * counted as the pipeline's.
   */
  readDocuments?: boolean;
};

/** An in-process Clearbase with the bench's current season on a fresh database; close() removes all it made. */
export async function startBenchInstance(options: BenchInstanceOptions): Promise<BenchInstance> {
  const dataDir = await mkdtemp(path.join(options.workDir, options.dataDirPrefix));
  let database: Database | undefined;
  let scratch: ScratchDatabase | undefined;
  let clearbase: Clearbase | undefined;
  const close = async () => {
    await clearbase?.close();
    await database?.close();
    await scratch?.drop();
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    if (options.kind === 'postgres') scratch = await createScratchDatabase(options.postgresUrl, options.databasePrefix);
    database = await openDatabase(scratch ? { kind: 'postgres', url: scratch.url } : { kind: 'pglite', dir: undefined });
    await insertSeasons(database.db, [BENCH_SEASON]);
    const config = loadConfig({
      CLEARBASE_DATA_DIR: dataDir,
      CLEARBASE_PASSWORD: options.password,
      CLEARBASE_MASTER_KEY: randomBytes(32).toString('base64'),
      CLEARBASE_DEMO: 'false',
      LOG_LEVEL: 'silent',
      ...options.settings,
    });
    clearbase = await createClearbase(config, createLogger('silent'), {
      database,
      webDir: path.join(dataDir, 'no-web'),
      ...(options.readDocuments === undefined ? {} : { readDocuments: options.readDocuments }),
    });
    return { clearbase, database, workers: config.pipelineWorkers, close };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}

/** Documents stored: `pending`, with their staging object gone. */
export async function countStoredDocuments(database: Database): Promise<number> {
  const [row] = await database.db
    .select({ n: count() })
    .from(documents)
    .where(and(eq(documents.status, 'pending'), isNull(documents.stagedKey)));
  return row?.n ?? 0;
}

/**
 * A real one-page PDF of exactly `fileBytes`, whose bulk is one stream object of random bytes, as a scan's
 * bulk is its page images (incompressible, never decoded to check the file): the page's own objects and
 * cross-reference table stay small, whatever the size. The padding must not be whitespace or a comment,
 * which a PDF parser reads byte by byte (a file no PDF writer makes, and not what the pipeline is measured on).
 */
export function makeSizedPdf(marker: string, fileBytes: number): Buffer {
  const bare = sizedPdf(marker, 0).length;
  if (bare > fileBytes) throw new Error(`a PDF cannot be smaller than ${bare} bytes`);
  const pdf = sizedPdf(marker, fileBytes - bare);
  if (pdf.length !== fileBytes) throw new Error(`made a PDF of ${pdf.length} bytes instead of ${fileBytes}`);
  return pdf;
}

/** The /Length of the bulk stream is written to a fixed width, so `bulk` changes the size by exactly itself. */
function sizedPdf(marker: string, bulk: number): Buffer {
  const objects = [...onePageObjects(marker), pdfStream(`/Length ${String(bulk).padStart(10, '0')}`, randomBytes(bulk))];
  return writePdf(Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1'), objects);
}

export type ScratchDatabase = { url: string; drop(): Promise<void> };

/** A fresh database on the server behind `adminUrl`, so a run never meets another's rows. */
export async function createScratchDatabase(adminUrl: string, prefix: string): Promise<ScratchDatabase> {
  const name = `${prefix}${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5_000 });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  try {
    await admin(`create database ${name}`);
  } catch (error) {
    throw new Error(`PostgreSQL at ${redactUrl(adminUrl)} is needed for the PostgreSQL cases (set BENCH_POSTGRES_URL): ${error instanceof Error ? error.message : String(error)}`);
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}

function redactUrl(value: string): string {
  const url = new URL(value);
  if (url.password) url.password = '***';
  return url.toString();
}
