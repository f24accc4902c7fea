import { mkdir, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { count, eq } from 'drizzle-orm';
import { startClamd, type StartedClamd } from '../scripts/services/start-clamd';
import type { Database } from '../src/server/platform/db/client';
import { documents } from '../src/server/platform/db/schema';
import { signBody } from '../src/server/intake/form/form-webhook';
import { createMultipartSession } from '../src/server/intake/form/multipart-session';
import { inspectFile } from '../src/server/files';
import { buildMultipart } from '../tests/support/multipart';
import { CHUNK_BYTES, measureCryptoBaseline, readChunks } from './crypto-baseline';
import { BENCH_SEASON, countStoredDocuments, DEFAULT_POSTGRES_URL, makeSizedPdf, startBenchInstance, type BenchDatabase, type BenchInstance } from './support';

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
  /** CPU milliseconds of this process (every thread) per document. */
  cpuMsPerDocument: number;
  /**
   * The intake thread's work on one submission body, alone, on one thread (HMAC of the body + multipart
   * parse + SHA-256 and AES-256-GCM of the file): work no design can skip, so the floor of cpuMsPerDocument.
   */
  intakeFloorMs: number;
  /**
   * The ratio this machine's cores could reach if that floor were the only work (cores × one-pass time /
   * floor): how far the target is from what the hardware allows, with every other cost at zero.
   */
  ceilingRatio: number;
}

export interface PipelineBenchResult {
  cases: PipelineCaseResult[];
  concurrency: number;
  workers: number;
  workDir: string;
  clamdStartMs: number | undefined;
}

/** The pipeline's target: large files with scanning off reach half the crypto one-pass rate. */
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
        const intakeFloorMs = await measureIntakeFloor(timed[0] as Submission, rounds);
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
          cpuMsPerDocument: (timing.cpuSeconds * 1000) / size.documents,
          intakeFloorMs,
          ceilingRatio: (availableParallelism() * size.fileBytes) / 1e3 / onePassMBps / intakeFloorMs,
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
    `cpu ms/doc = process CPU per document; floor ms = the intake thread's work alone on one body (HMAC + parse + seal), one thread;`,
    `ceiling = the ratio ${availableParallelism()} cores would reach if that floor were the only work.`,
    ...(result.clamdStartMs === undefined ? [] : [`Scanning on = private clamd (EICAR-only database) over its unix socket, started in ${result.clamdStartMs.toFixed(0)} ms.`]),
    '',
    'database  size     scan   docs  seconds  (intake)    docs/s      MB/s  one pass MB/s  pipeline / one pass   cpu  load  cpu ms/doc  floor ms  ceiling',
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
      c.cpuMsPerDocument.toFixed(1).padStart(10),
      c.intakeFloorMs.toFixed(1).padStart(8),
      c.ceilingRatio.toFixed(2).padStart(7),
    ].join('  '),
  );
  return [...header, ...rows, ''].join('\n');
}

/** The cases the pipeline's target applies to (one per database run), each with its verdict. */
export function targetVerdicts(result: PipelineBenchResult): Array<{ case: PipelineCaseResult; pass: boolean }> {
  return result.cases
    .filter((c) => c.label === TARGET_LABEL && c.scanning === 'off')
    .map((c) => ({ case: c, pass: c.ratio >= TARGET_RATIO }));
}

type Instance = BenchInstance & { clamd: StartedClamd | undefined };

async function startInstance(mode: Scanning, kind: BenchDatabase, postgresUrl: string, workDir: string): Promise<Instance> {
  const clamd = mode === 'on' ? await startClamd() : undefined;
  try {
    const instance = await startBenchInstance({
      kind,
      postgresUrl,
      workDir,
      dataDirPrefix: 'clearbase-bench-',
      databasePrefix: 'clearbase_bench_',
      password: 'pipeline bench password',
      // One sender posting as fast as the pipeline takes: the per-address limit must not be what is measured.
      settings: { FORM_WEBHOOK_SECRET: SECRET, FORM_WEBHOOK_RATE_LIMIT: '100000', CLAMD_URL: clamd?.url },
    });
    const close = async () => {
      await instance.close();
      await clamd?.stop();
    };
    return { ...instance, clamd, close };
  } catch (error) {
    await clamd?.stop().catch(() => undefined);
    throw error;
  }
}

/** Distinct players and distinct file content, so no submission is a replay and no file a duplicate. */
function buildSubmissions(size: PipelineSizeCase, tag: string, n: number): Submission[] {
  return Array.from({ length: n }, (_, index) => {
    const { body, contentType } = buildMultipart([
      { name: 'submissionId', value: `bench-${tag}-${size.fileBytes}-${index}` },
      { name: 'season', value: BENCH_SEASON.id },
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
  const settledBefore = await countStoredDocuments(instance.database);
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
    const settled = await countStoredDocuments(instance.database);
    if (settled >= expected) break;
    const rejected = await countRejected(instance.database);
    if (rejected > 0) throw new Error(`${rejected} document(s) were rejected by the pipeline`);
    if (Date.now() > deadline) throw new Error(`only ${settled - settledBefore} of ${submissions.length} documents settled within ${SETTLE_TIMEOUT_MS / 1000} s`);
    await sleep(POLL_MS);
  }
  const cpu = process.cpuUsage(cpuBefore);
  return { seconds: Number(process.hrtime.bigint() - started) / 1e9, intakeSeconds, cpuSeconds: (cpu.user + cpu.system) / 1e6 };
}

/**
 * The median time, on this thread, of one multipart session over the body (as an intake thread runs it,
 * fed in socket-sized chunks, each file opened by its decoder here rather than in an inspector thread),
 * staged ciphertext discarded: the per-document work no design can skip.
 */
async function measureIntakeFloor(submission: Submission, rounds: number): Promise<number> {
  const masterKey = randomBytes(32);
  const chunks: Buffer[] = [];
  for (let at = 0; at < submission.body.length; at += CHUNK_BYTES) chunks.push(submission.body.subarray(at, at + CHUNK_BYTES));
  const times: number[] = [];
  for (let round = 0; round <= rounds; round++) {
    const started = process.hrtime.bigint();
    const session = createMultipartSession({
      contentType: submission.contentType,
      secret: SECRET,
      signature: submission.signature,
      masterKey,
      maxFileBytes: 20 * 1000 * 1000,
      inspect: (kind, bytes) => inspectFile(kind, bytes),
      emit: () => undefined,
    });
    for (const chunk of chunks) await session.write(chunk);
    const outcome = await session.end();
    if (outcome.parseError !== null || outcome.hmacHex !== submission.signature.replace(/^sha256=/, '')) {
      throw new Error(`the floor measurement did not read the body as the server does: ${outcome.parseError ?? 'signature differs'}`);
    }
    // Round 0 warms up.
    if (round > 0) times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? Number.NaN;
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

async function countRejected(database: Database): Promise<number> {
  const [row] = await database.db.select({ n: count() }).from(documents).where(eq(documents.status, 'rejected'));
  return row?.n ?? 0;
}
