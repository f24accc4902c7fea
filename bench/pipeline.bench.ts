import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { and, count, eq, isNull } from 'drizzle-orm';
import pg from 'pg';
import { startClamd, type StartedClamd } from '../scripts/services/start-clamd';
import { loadConfig } from '../src/server/config';
import { openDatabase, type Database } from '../src/server/db/client';
import { documents } from '../src/server/db/schema';
import { insertSeasons } from '../src/server/db/seasons.repository';
import { signBody } from '../src/server/intake/form-webhook';
import { createLogger } from '../src/server/logger';
import { createClearbase, type Clearbase } from '../src/server/main';
import { buildMultipart, makePdf } from '../tests/support/multipart';
import { measureCryptoBaseline, readChunks } from './crypto-baseline';

/**
 * End-to-end throughput of the form intake pipeline (decision 007), measured in process: signed multipart
 * submissions go through `app.inject`, and the clock runs from the first request until every document is
 * `pending` with its staging object gone — spool + HMAC, multipart parse, hash + encrypt into staging,
 * record, job claim, [scan], ciphertext copy to the final key, record + audit, staging cleanup.
 *
 * The pipeline's MB/s is compared with the machine's crypto one-pass rate (SHA-256 + AES-256-GCM, the
 * least work a file must get), measured over a PDF of the case's size, built the same way, in this same
 * process immediately before and after each case, so load from other processes on a shared machine moves
 * both sides of the ratio alike. The crypto figure is one thread's; the pipeline may use more than one
 * (libuv's pool for file I/O, clamd for scanning), which the cpu column shows.
 *
 * MB is 10^6 bytes of file content (the multipart envelope around it is not counted).
 */

export type Scanning = 'off' | 'on';
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

export interface PipelineSizeCase {
  label: string;
  /** Exact size of each PDF sent. */
  fileBytes: number;
  /** Submissions in the timed run. */
  documents: number;
  /** Untimed submissions first, so JIT, the database's caches and the file system are warm. */
  warmup: number;
}

export interface PipelineBenchOptions {
  sizes?: PipelineSizeCase[];
  scanning?: Scanning[];
  databases?: BenchDatabase[];
  /** Admin connection for the PostgreSQL cases (BENCH_POSTGRES_URL in bench/run.ts). */
  postgresUrl?: string;
  /** Requests in flight at once, as a form service retrying in parallel would send them. */
  concurrency?: number;
  /** Bytes each crypto baseline measurement covers per pass (rounds = this / file size). */
  cryptoBytesPerMeasurement?: number;
  /** Parent folder of the temporary data dir (storage, spool files); defaults to the OS temp dir. */
  workDir?: string;
  /** Where the table goes; nothing is printed when omitted. */
  write?: (text: string) => void;
  /** When set, a V8 CPU profile of each timed run (not the warm-up, not the baseline) is written here. */
  profileDir?: string;
}

export interface PipelineCaseResult {
  label: string;
  fileBytes: number;
  scanning: Scanning;
  database: BenchDatabase;
  documents: number;
  /** First request sent → every document pending and unstaged. */
  seconds: number;
  /** First request sent → last 202 received: the intake half; the rest is the job queue draining. */
  intakeSeconds: number;
  /**
   * CPU time of this process (every thread) during the case, per second of wall time. Near 1 with a
   * single busy event loop; well under 1 on an idle machine means waiting (disk, clamd), and under 1 on
   * a loaded machine may mean other processes took the CPU: read it together with the load average.
   */
  cpuPerSecond: number;
  /** The machine's 1-minute load average when the case started. */
  loadAverage: number;
  documentsPerSecond: number;
  pipelineMBps: number;
  /** Mean of the one-pass rate measured just before and just after the case. */
  onePassMBps: number;
  /** pipelineMBps / onePassMBps. */
  ratio: number;
}

export interface PipelineBenchResult {
  cases: PipelineCaseResult[];
  concurrency: number;
  workers: number;
  workDir: string;
  clamdStartMs: number | undefined;
}

/** The target: large files with scanning off reach half the crypto one-pass rate. */
export const TARGET_RATIO = 0.5;
export const TARGET_LABEL = '5 MB';

export const FULL_SIZES: PipelineSizeCase[] = [
  // Sized for about 3 to 8 seconds per case on a 2-core machine (100 KB: ~25 documents/s; 5 MB: ~10/s).
  { label: '100 KB', fileBytes: 100 * 1000, documents: 160, warmup: 40 },
  { label: '5 MB', fileBytes: 5 * 1000 * 1000, documents: 48, warmup: 8 },
];
export const QUICK_SIZES: PipelineSizeCase[] = [
  { label: '100 KB', fileBytes: 100 * 1000, documents: 20, warmup: 4 },
  { label: '5 MB', fileBytes: 5 * 1000 * 1000, documents: 4, warmup: 2 },
];

const SECRET = 'pipeline-bench-form-webhook-secret';
const SEASON = {
  id: 'fall-2025',
  name: 'Fall Ball 2025',
  kind: 'Fall Ball',
  year: 2025,
  startsOn: '2025-08-15',
  endsOn: '2025-11-30',
  isCurrent: true,
} as const;
/** A case that has not settled by then is stuck (a failed job, a lost wake-up), not slow. */
const SETTLE_TIMEOUT_MS = 120_000;
/** Short enough to add little to a multi-second case, long enough not to load PGlite's single connection. */
const POLL_MS = 10;

type Submission = { body: Buffer; contentType: string; signature: string };

export async function runPipelineBench(options: PipelineBenchOptions = {}): Promise<PipelineBenchResult> {
  const sizes = options.sizes ?? FULL_SIZES;
  const scanning = options.scanning ?? ['off', 'on'];
  const databases = options.databases ?? ['postgres', 'pglite'];
  const postgresUrl = options.postgresUrl ?? DEFAULT_POSTGRES_URL;
  const concurrency = options.concurrency ?? 4;
  const cryptoBytes = options.cryptoBytesPerMeasurement ?? 200 * 1000 * 1000;
  const workDir = options.workDir ?? tmpdir();
  const write = options.write ?? (() => undefined);

  const cases: PipelineCaseResult[] = [];
  let clamdStartMs: number | undefined;
  let workers = 0;
  let sequence = 0;

  for (const [databaseKind, mode] of databases.flatMap((d) => scanning.map((m) => [d, m] as const))) {
    const instance = await startInstance(mode, databaseKind, postgresUrl, workDir);
    workers = instance.workers;
    clamdStartMs ??= instance.clamd?.startMs;
    try {
      for (const size of sizes) {
        write(`  ${databaseKind}, ${size.label}, scanning ${mode}: ${size.warmup} warm-up + ${size.documents} timed submissions…\n`);
        const run = sequence++;
        const warmup = buildSubmissions(size, `w${run}`, size.warmup);
        await sendAndSettle(instance, warmup, concurrency);
        // Built before the clock starts: building and signing bodies is the form service's work, not ours.
        const timed = buildSubmissions(size, `t${run}`, size.documents);
        const sample = makeSizedPdf(`crypto ${run}`, size.fileBytes);
        const rounds = Math.max(9, Math.round(cryptoBytes / size.fileBytes));
        const before = measureCryptoBaseline(sample, rounds).onePassMBps;
        const loadAverage = loadavg()[0] ?? Number.NaN;
        const profiler = options.profileDir ? await startProfiler() : undefined;
        const timing = await sendAndSettle(instance, timed, concurrency);
        if (profiler && options.profileDir) {
          const file = path.join(options.profileDir, `pipeline-${databaseKind}-${size.label.replace(/\s+/g, '')}-scan-${mode}.cpuprofile`);
          await profiler.stopTo(file);
          write(`    CPU profile of the timed run: ${file}\n`);
        }
        const after = measureCryptoBaseline(sample, rounds).onePassMBps;
        const onePassMBps = (before + after) / 2;
        const pipelineMBps = (size.documents * size.fileBytes) / 1e6 / timing.seconds;
        cases.push({
          label: size.label,
          fileBytes: size.fileBytes,
          scanning: mode,
          database: databaseKind,
          documents: size.documents,
          seconds: timing.seconds,
          intakeSeconds: timing.intakeSeconds,
          cpuPerSecond: timing.cpuSeconds / timing.seconds,
          loadAverage,
          documentsPerSecond: size.documents / timing.seconds,
          pipelineMBps,
          onePassMBps,
          ratio: pipelineMBps / onePassMBps,
        });
      }
    } finally {
      await instance.close();
    }
  }

  const result: PipelineBenchResult = { cases, concurrency, workers, workDir, clamdStartMs };
  write(formatPipelineTable(result));
  return result;
}

export function formatPipelineTable(result: PipelineBenchResult): string {
  const header = [
    `Pipeline, end to end (signed form POST → pending, staging cleared); in process via app.inject,`,
    `PostgreSQL = a scratch database on the local server; PGlite = in memory, in this process.`,
    `Local storage under ${result.workDir}, ${result.concurrency} requests in flight, ${result.workers} pipeline workers.`,
    `MB = 10^6 bytes of file content; one pass = SHA-256 + AES-256-GCM, one thread, over a PDF of the same size, measured around each case.`,
    `(intake) = until the last 202; cpu = process CPU seconds per wall second; load = 1-minute load average at the start.`,
    ...(result.clamdStartMs === undefined ? [] : [`Scanning on = private clamd (EICAR-only database) over its unix socket, started in ${result.clamdStartMs.toFixed(0)} ms.`]),
    '',
    'database  size     scan   docs  seconds  (intake)    docs/s      MB/s  one pass MB/s  pipeline / one pass   cpu  load',
  ];
  const rows = result.cases.map((c) =>
    [
      c.database.padEnd(8),
      c.label.padEnd(7),
      c.scanning.padEnd(4),
      String(c.documents).padStart(5),
      c.seconds.toFixed(2).padStart(8),
      `(${c.intakeSeconds.toFixed(2)})`.padStart(9),
      c.documentsPerSecond.toFixed(1).padStart(8),
      c.pipelineMBps.toFixed(1).padStart(8),
      c.onePassMBps.toFixed(0).padStart(13),
      c.ratio.toFixed(3).padStart(19),
      c.cpuPerSecond.toFixed(2).padStart(4),
      c.loadAverage.toFixed(1).padStart(4),
    ].join('  '),
  );
  return [...header, ...rows, ''].join('\n');
}

/** The cases the target applies to (one per database run), each with its verdict. */
export function targetVerdicts(result: PipelineBenchResult): Array<{ case: PipelineCaseResult; pass: boolean }> {
  return result.cases
    .filter((c) => c.label === TARGET_LABEL && c.scanning === 'off')
    .map((c) => ({ case: c, pass: c.ratio >= TARGET_RATIO }));
}

type Instance = {
  clearbase: Clearbase;
  database: Database;
  clamd: StartedClamd | undefined;
  workers: number;
  close(): Promise<void>;
};

async function startInstance(mode: Scanning, kind: BenchDatabase, postgresUrl: string, workDir: string): Promise<Instance> {
  const dataDir = await mkdtemp(path.join(workDir, 'clearbase-bench-'));
  let clamd: StartedClamd | undefined;
  let database: Database | undefined;
  let scratch: ScratchDatabase | undefined;
  let clearbase: Clearbase | undefined;
  const close = async () => {
    await clearbase?.close();
    await database?.close();
    await scratch?.drop();
    await clamd?.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    clamd = mode === 'on' ? await startClamd() : undefined;
    if (kind === 'postgres') scratch = await createScratchDatabase(postgresUrl);
    database = await openDatabase(scratch ? { kind: 'postgres', url: scratch.url } : { kind: 'pglite', dir: undefined });
    await insertSeasons(database.db, [SEASON]);
    const config = loadConfig({
      CLEARBASE_DATA_DIR: dataDir,
      CLEARBASE_PASSWORD: 'pipeline bench password',
      CLEARBASE_MASTER_KEY: randomBytes(32).toString('base64'),
      CLEARBASE_DEMO: 'false',
      FORM_WEBHOOK_SECRET: SECRET,
      CLAMD_URL: clamd?.url,
      LOG_LEVEL: 'silent',
    });
    clearbase = await createClearbase(config, createLogger('silent'), { database, webDir: path.join(dataDir, 'no-web') });
    return { clearbase, database, clamd, workers: config.pipelineWorkers, close };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}

type ScratchDatabase = { url: string; drop(): Promise<void> };

/** A fresh database on the server behind `adminUrl`, so a run never meets another's rows. */
async function createScratchDatabase(adminUrl: string): Promise<ScratchDatabase> {
  const name = `clearbase_bench_${process.pid}_${randomBytes(4).toString('hex')}`;
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

/** A real (tiny) PDF padded to exactly `fileBytes`, so MB/s counts exactly what was sent. */
function makeSizedPdf(marker: string, fileBytes: number): Buffer {
  const bare = makePdf(marker).length;
  if (bare > fileBytes) throw new Error(`a PDF cannot be smaller than ${bare} bytes`);
  return makePdf(marker, fileBytes - bare);
}

/** Distinct players and distinct file content, so no submission is a replay and no file a duplicate. */
function buildSubmissions(size: PipelineSizeCase, tag: string, n: number): Submission[] {
  return Array.from({ length: n }, (_, index) => {
    const { body, contentType } = buildMultipart([
      { name: 'submissionId', value: `bench-${tag}-${size.fileBytes}-${index}` },
      { name: 'season', value: '2025' },
      { name: 'division', value: 'AA' },
      { name: 'playerFirstName', value: 'Bench' },
      { name: 'playerLastName', value: `Runner ${tag} ${size.fileBytes} ${index}` },
      { name: 'playerBirthDate', value: '2014-05-03' },
      { name: 'guardianEmail', value: 'bench@example.org' },
      {
        name: 'birth_certificate',
        filename: 'birth certificate.pdf',
        content: makeSizedPdf(`bench ${tag} ${size.fileBytes} ${index}`, size.fileBytes),
        contentType: 'application/pdf',
      },
    ]);
    return { body, contentType, signature: signBody(SECRET, body) };
  });
}


async function sendAndSettle(
  instance: Instance,
  submissions: Submission[],
  concurrency: number,
): Promise<{ seconds: number; intakeSeconds: number; cpuSeconds: number }> {
  const settledBefore = await countSettled(instance.database);
  const started = process.hrtime.bigint();
  const cpuBefore = process.cpuUsage();
  let next = 0;
  const send = async () => {
    while (next < submissions.length) {
      const submission = submissions[next++];
      if (!submission) return;
      const response = await instance.clearbase.app.inject({
        method: 'POST',
        url: '/api/intake/form',
        // As a socket delivers it: a Buffer would arrive as one multi-megabyte chunk and flatter spooling and parsing.
        payload: readChunks(submission.body),
        headers: {
          'content-type': submission.contentType,
          'content-length': String(submission.body.length),
          'x-clearbase-signature': submission.signature,
        },
      });
      const answer = response.statusCode === 202 ? response.json<{ duplicate: boolean; documents: Array<{ status: string }> }>() : undefined;
      if (!answer || answer.duplicate || answer.documents.length !== 1 || answer.documents[0]?.status !== 'processing') {
        throw new Error(`intake answered ${response.statusCode}: ${response.body.slice(0, 300)}`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, submissions.length) }, send));
  const intakeSeconds = Number(process.hrtime.bigint() - started) / 1e9;

  const expected = settledBefore + submissions.length;
  const deadline = Date.now() + SETTLE_TIMEOUT_MS;
  for (;;) {
    const settled = await countSettled(instance.database);
    if (settled >= expected) break;
    const rejected = await countRejected(instance.database);
    if (rejected > 0) throw new Error(`${rejected} document(s) were rejected by the pipeline`);
    if (Date.now() > deadline) throw new Error(`only ${settled - settledBefore} of ${submissions.length} documents settled within ${SETTLE_TIMEOUT_MS / 1000} s`);
    await sleep(POLL_MS);
  }
  const cpu = process.cpuUsage(cpuBefore);
  return { seconds: Number(process.hrtime.bigint() - started) / 1e9, intakeSeconds, cpuSeconds: (cpu.user + cpu.system) / 1e6 };
}

/** The V8 profiler of this process (every JS function on the main thread), over the inspector protocol. */
async function startProfiler(): Promise<{ stopTo(file: string): Promise<void> }> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  return {
    async stopTo(file) {
      const { profile } = await session.post('Profiler.stop');
      session.disconnect();
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, JSON.stringify(profile));
    },
  };
}

async function countSettled(database: Database): Promise<number> {
  const [row] = await database.db
    .select({ n: count() })
    .from(documents)
    .where(and(eq(documents.status, 'pending'), isNull(documents.stagedKey)));
  return row?.n ?? 0;
}

async function countRejected(database: Database): Promise<number> {
  const [row] = await database.db.select({ n: count() }).from(documents).where(eq(documents.status, 'rejected'));
  return row?.n ?? 0;
}
