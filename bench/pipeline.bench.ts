import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { loadavg, tmpdir } from 'node:os';
import { createCipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { count, eq } from 'drizzle-orm';
import { startClamd, type StartedClamd } from '../scripts/services/start-clamd';
import { createClamdAntivirus } from '../src/server/adapters/antivirus/clamd';
import type { Database } from '../src/server/platform/db/client';
import { createNotifyChannel, type NotifyChannel } from '../src/server/platform/db/notify';
import { documents } from '../src/server/platform/db/schema';
import { signBody } from '../src/server/intake/form/form-webhook';
import { buildMultipart } from '../tests/support/multipart';
import { CHUNK_BYTES, measureCryptoBaseline, readChunks } from './crypto-baseline';
import { figure, type BenchFigure } from './figures';
import { BENCH_SEASON, countStoredDocuments, DEFAULT_POSTGRES_URL, makeSizedPdf, startBenchInstance, type BenchDatabase, type BenchInstance } from './support';

/**
 * End-to-end cost of the form intake pipeline (decisions 007, 011, 022), measured in process: signed
 * multipart submissions go through `app.inject`, and the clock runs from the first request until every
 * document is `pending` with its staging object gone — HMAC, multipart parse, hash + encrypt into staging,
 * decoding check, record, job claim, [scan], ciphertext move to the final key, record + audit, staging
 * cleanup, live event. Stored documents are not read (OCR): reading is a lane of its own after storage,
 * left out here (`readDocuments: false`).
 *
 * The main figure is CPU, not wall time, so other processes on a shared machine move it little: the CPU of
 * this process (every thread: request thread, intake threads, file inspectors, libuv's pool; PGlite runs in
 * the request thread) per document, against the floor, the CPU of one pass of HMAC-SHA256 over the body and
 * SHA-256 + AES-256-GCM over the file, measured in the same process just before and just after each case.
 * With PostgreSQL the database server's own CPU is another process's and not counted.
 *
 * With scanning on, clamd's own INSTREAM rate over the same files (the project's clamd client, as many scans
 * at once as the pipeline has workers) is measured around the case, and the pipeline's rate is given as a
 * ratio to it: both are wall-clock rates on the same machine in the same minute.
 *
 * The pipeline's MB/s is also given as a ratio to the crypto one-pass rate (SHA-256 + AES-256-GCM, one
 * thread, wall time) measured around each case. MB is 10^6 bytes of file content.
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
  /** Bytes each crypto baseline and floor measurement covers (rounds = this / file size). */
  cryptoBytesPerMeasurement?: number;
  /** Parent folder of the temporary data dir (storage, spool files); defaults to the OS temp dir. */
  workDir?: string;
  /** Where the table goes; nothing is printed when omitted. */
  write?: (text: string) => void;
  /**
   * When set, a V8 CPU profile of the request thread during each timed run (not the warm-up, not the
   * baselines) is written here. The other threads' profiles come from running the bench under
   * `node --cpu-prof`; the timed runs' times on the monotonic clock are printed to cut them to.
   */
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
  /** CPU seconds of this process (every thread) per second of wall time. */
  cpuPerSecond: number;
  /** The machine's 1-minute load average when the case started. */
  loadAverage: number;
  documentsPerSecond: number;
  pipelineMBps: number;
  /** Mean of the crypto one-pass rate (SHA-256 + AES-256-GCM, one thread, wall time) just before and after the case. */
  onePassMBps: number;
  /** pipelineMBps / onePassMBps. */
  ratio: number;
  /** CPU milliseconds of this process, every thread, per document. */
  cpuMsPerDocument: number;
  /** The part of cpuMsPerDocument spent in the kernel (file writes, fsync, sockets). */
  systemCpuMsPerDocument: number;
  /** The request thread's share (HTTP, storage calls, the job runner; PGlite's queries): Linux only. */
  mainThreadCpuMsPerDocument: number | undefined;
  /**
   * Every other thread's CPU milliseconds per document, most first (Linux only; threads that ran under 0.05 ms a
   * document left out): the intake threads, their file inspectors, V8's own helper threads (garbage collection,
   * compilation) and libuv's pool (file writes, fsync). The system does not name them.
   */
  otherThreadsCpuMsPerDocument: number[] | undefined;
  /**
   * CPU milliseconds of one pass of HMAC-SHA256 over the body and SHA-256 + AES-256-GCM over the file, on
   * one thread, in 64 KiB pieces: the crypto no design can skip. Mean of the medians just before and after.
   */
  floorMs: number;
  /** cpuMsPerDocument / floorMs. */
  floorRatio: number;
  /** With scanning on: clamd's own INSTREAM rate over the same files, and the pipeline's rate as a ratio to it. */
  clamd: { documentsPerSecond: number; concurrency: number; ratio: number } | undefined;
}

export interface PipelineBenchResult {
  cases: PipelineCaseResult[];
  concurrency: number;
  workers: number;
  workDir: string;
  clamdStartMs: number | undefined;
  /** The figures of `npm run bench -- --json`: per database and size, CPU per document against the floor, and the clamd ratio. */
  figures: BenchFigure[];
}

/** The pipeline's older target: large files with scanning off reach half the crypto one-pass rate (wall time). */
export const TARGET_RATIO = 0.5;
export const TARGET_LABEL = '5 MB';
/** The pipeline's own CPU per 5 MB document, scanning off, is at most this many floors. */
export const CPU_TARGET_RATIO = 2;
/** With clamd, the pipeline's rate on 5 MB files is at least this share of clamd's own INSTREAM rate. */
export const CLAMD_TARGET_RATIO = 0.8;

export const FULL_SIZES: PipelineSizeCase[] = [
  // Sized for a few seconds per case on a 2-core machine.
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
/**
 * The end of a run is told by the live events the pipeline sends (NOTIFY, which costs no polling); the
 * database is asked this often too, in case one is lost, and to notice a rejected document.
 */
const CHECK_MS = 1_000;
const DATABASE_NAMES: Record<BenchDatabase, string> = { pglite: 'PGlite', postgres: 'PostgreSQL' };

type Submission = { body: Buffer; contentType: string; signature: string; file: Buffer };

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
        const sample = timed[0] as Submission;
        const rounds = Math.max(9, Math.round(cryptoBytes / size.fileBytes));
        const clamdRate = () => (instance.clamd ? measureClamdRate(instance.clamd.url, timed, instance.workers) : Promise.resolve(Number.NaN));
        const clamdBefore = await clamdRate();
        const floorBefore = measureFloorMs(sample, rounds);
        const onePassBefore = measureCryptoBaseline(sample.file, rounds).onePassMBps;
        // Building the bodies and the baselines left garbage (hundreds of MB of buffers): collected now, not in the timed run.
        collectGarbage();
        const loadAverage = loadavg()[0] ?? Number.NaN;
        const profiler = options.profileDir ? await startProfiler() : undefined;
        const timing = await sendAndSettle(instance, timed, concurrency);
        if (profiler && options.profileDir) {
          const file = path.join(options.profileDir, `pipeline-${databaseKind}-${size.label.replace(/\s+/g, '')}-scan-${mode}.cpuprofile`);
          await profiler.stopTo(file);
          write(`    CPU profile of the request thread during the timed run: ${file}\n`);
          write(`    timed run on the monotonic clock (µs, as in node --cpu-prof profiles): ${timing.window.startUs} to ${timing.window.endUs}\n`);
        }
        const onePassMBps = (onePassBefore + measureCryptoBaseline(sample.file, rounds).onePassMBps) / 2;
        const floorMs = (floorBefore + measureFloorMs(sample, rounds)) / 2;
        const clamdDocumentsPerSecond = (clamdBefore + (await clamdRate())) / 2;
        const pipelineMBps = (size.documents * size.fileBytes) / 1e6 / timing.seconds;
        const documentsPerSecond = size.documents / timing.seconds;
        const cpuMsPerDocument = (timing.cpuSeconds * 1000) / size.documents;
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
          documentsPerSecond,
          pipelineMBps,
          onePassMBps,
          ratio: pipelineMBps / onePassMBps,
          cpuMsPerDocument,
          systemCpuMsPerDocument: (timing.systemCpuSeconds * 1000) / size.documents,
          mainThreadCpuMsPerDocument: timing.mainThreadCpuSeconds === undefined ? undefined : (timing.mainThreadCpuSeconds * 1000) / size.documents,
          otherThreadsCpuMsPerDocument: timing.otherThreadsCpuMs
            ?.map((ms) => ms / size.documents)
            .filter((ms) => ms >= 0.05)
            .sort((a, b) => b - a),
          floorMs,
          floorRatio: cpuMsPerDocument / floorMs,
          clamd: instance.clamd
            ? { documentsPerSecond: clamdDocumentsPerSecond, concurrency: instance.workers, ratio: documentsPerSecond / clamdDocumentsPerSecond }
            : undefined,
        });
      }
    } finally {
      await instance.close();
    }
  }

  const result: PipelineBenchResult = { cases, concurrency, workers, workDir, clamdStartMs, figures: pipelineFigures(cases) };
  write(formatPipelineTable(result));
  return result;
}

/**
 * Per case: CPU per document, the floor, their ratio (held to CPU_TARGET_RATIO for 5 MB with scanning
 * off), and with scanning on the rate against clamd's own (held to CLAMD_TARGET_RATIO for 5 MB).
 */
export function pipelineFigures(cases: PipelineCaseResult[]): BenchFigure[] {
  return cases.flatMap((c) => {
    const database = DATABASE_NAMES[c.database];
    const detail = { database, fileBytes: c.fileBytes, documents: c.documents, scanning: c.scanning, readDocuments: false };
    const inCase = `${c.label} document (scanning ${c.scanning}, ${database})`;
    const common = { section: 'pipeline', loadAverage: c.loadAverage };
    const figures = [
      figure({ ...common, name: `pipeline CPU per ${inCase}`, value: c.cpuMsPerDocument, unit: 'ms', detail: { ...detail, threads: 'every thread of the process' } }),
      figure({ ...common, name: `floor CPU per ${inCase}`, value: c.floorMs, unit: 'ms', detail: { ...detail, floor: 'HMAC-SHA256 of the body + SHA-256 and AES-256-GCM of the file, one pass' } }),
      figure({
        ...common,
        name: `pipeline CPU per ${inCase} / floor`,
        value: c.floorRatio,
        unit: 'ratio',
        ...(c.label === TARGET_LABEL && c.scanning === 'off' ? { target: { atMost: CPU_TARGET_RATIO } } : {}),
        detail: {
          ...detail,
          cpuMs: c.cpuMsPerDocument,
          floorMs: c.floorMs,
          requestThreadMs: c.mainThreadCpuMsPerDocument ?? null,
          otherThreadsMs: c.otherThreadsCpuMsPerDocument?.map((ms) => ms.toFixed(1)).join(', ') ?? null,
        },
      }),
    ];
    if (c.clamd) {
      const files = `${c.label} files, ${database}`;
      figures.push(
        figure({ ...common, name: `clamd INSTREAM rate (${files})`, value: c.clamd.documentsPerSecond, unit: 'per second', detail: { ...detail, concurrency: c.clamd.concurrency } }),
        figure({ ...common, name: `pipeline rate with clamd (${files})`, value: c.documentsPerSecond, unit: 'per second', detail }),
        figure({
          ...common,
          name: `pipeline rate with clamd / clamd INSTREAM rate (${files})`,
          value: c.clamd.ratio,
          unit: 'ratio',
          ...(c.label === TARGET_LABEL ? { target: { atLeast: CLAMD_TARGET_RATIO } } : {}),
          detail: { ...detail, concurrency: c.clamd.concurrency },
        }),
      );
    }
    return figures;
  });
}

export function formatPipelineTable(result: PipelineBenchResult): string {
  const header = [
    `Pipeline, end to end (signed form POST → pending, staging cleared, documents not read); in process via app.inject,`,
    `PostgreSQL = a scratch database on the local server (its own CPU not counted); PGlite = in memory, in this process.`,
    `Local storage under ${result.workDir}, ${result.concurrency} requests in flight, ${result.workers} pipeline workers.`,
    `MB = 10^6 bytes of file content; /one pass = MB/s over the crypto one-pass rate (SHA-256 + AES-256-GCM, one thread, wall time).`,
    `cpu ms/doc = CPU of this process per document, every thread; (main) = the request thread's part, (sys) = the kernel's part;`,
    `floor ms = CPU of one pass of HMAC-SHA256 (body) + SHA-256 + AES-256-GCM (file), one thread; target cpu/floor ≤ ${CPU_TARGET_RATIO} for ${TARGET_LABEL}, scanning off.`,
    `clamd/s = clamd's own INSTREAM rate over the same files, ${result.workers} at once; target pipeline/clamd ≥ ${CLAMD_TARGET_RATIO} for ${TARGET_LABEL}.`,
    `(intake) = until the last 202; load = 1-minute load average at the start.`,
    ...(result.clamdStartMs === undefined ? [] : [`Scanning on = private clamd (EICAR-only database) over its unix socket, started in ${result.clamdStartMs.toFixed(0)} ms.`]),
    '',
    'database  size     scan   docs  seconds  (intake)  docs/s    MB/s  /one pass  cpu ms/doc  (main)  (sys)  floor ms  cpu/floor  clamd/s  pipeline/clamd  load',
  ];
  const rows = result.cases.map((c) =>
    [
      c.database.padEnd(8),
      c.label.padEnd(7),
      c.scanning.padEnd(4),
      String(c.documents).padStart(5),
      c.seconds.toFixed(2).padStart(7),
      `(${c.intakeSeconds.toFixed(2)})`.padStart(9),
      c.documentsPerSecond.toFixed(1).padStart(6),
      c.pipelineMBps.toFixed(1).padStart(6),
      c.ratio.toFixed(3).padStart(9),
      c.cpuMsPerDocument.toFixed(1).padStart(10),
      (c.mainThreadCpuMsPerDocument === undefined ? '–' : c.mainThreadCpuMsPerDocument.toFixed(1)).padStart(6),
      c.systemCpuMsPerDocument.toFixed(1).padStart(5),
      c.floorMs.toFixed(2).padStart(8),
      c.floorRatio.toFixed(2).padStart(9),
      (c.clamd ? c.clamd.documentsPerSecond.toFixed(1) : '–').padStart(7),
      (c.clamd ? c.clamd.ratio.toFixed(2) : '–').padStart(14),
      c.loadAverage.toFixed(1).padStart(4),
    ].join('  '),
  );
  const threads = result.cases
    .filter((c) => c.mainThreadCpuMsPerDocument !== undefined && c.otherThreadsCpuMsPerDocument !== undefined)
    .map((c) => `  ${c.database}, ${c.label}, scanning ${c.scanning}: request thread ${c.mainThreadCpuMsPerDocument?.toFixed(1)}; others ${c.otherThreadsCpuMsPerDocument?.map((ms) => ms.toFixed(1)).join(', ')}`);
  const byThread = threads.length === 0 ? [] : ['', 'CPU ms per document by thread (the others, most first: intake threads, file inspectors, V8 helpers, libuv pool):', ...threads];
  return [...header, ...rows, ...byThread, ''].join('\n');
}

/** The cases the older wall-time target applies to (one per database run), each with its verdict. */
export function targetVerdicts(result: PipelineBenchResult): Array<{ case: PipelineCaseResult; pass: boolean }> {
  return result.cases
    .filter((c) => c.label === TARGET_LABEL && c.scanning === 'off')
    .map((c) => ({ case: c, pass: c.ratio >= TARGET_RATIO }));
}

type Instance = BenchInstance & { clamd: StartedClamd | undefined; events: StoredEvents };

async function startInstance(mode: Scanning, kind: BenchDatabase, postgresUrl: string, workDir: string): Promise<Instance> {
  const clamd = mode === 'on' ? await startClamd() : undefined;
  let instance: BenchInstance | undefined;
  try {
    instance = await startBenchInstance({
      kind,
      postgresUrl,
      workDir,
      dataDirPrefix: 'clearbase-bench-',
      databasePrefix: 'clearbase_bench_',
      password: 'pipeline bench password',
      // One sender posting as fast as the pipeline takes: the per-address limit must not be what is measured.
      settings: { FORM_WEBHOOK_SECRET: SECRET, FORM_WEBHOOK_RATE_LIMIT: '100000', CLAMD_URL: clamd?.url },
      // Reading (OCR) is a lane of its own after storage, not part of what is measured here.
      readDocuments: false,
    });
    const events = await listenForStored(instance.database);
    const started = instance;
    const close = async () => {
      await events.close();
      await started.close();
      await clamd?.stop();
    };
    return { ...instance, clamd, events, close };
  } catch (error) {
    await instance?.close().catch(() => undefined);
    await clamd?.stop().catch(() => undefined);
    throw error;
  }
}

/** Counts the live events of stored and rejected documents, as an open screen hears of them. */
type StoredEvents = { stored: number; rejected: number; changed(): Promise<void>; close(): Promise<void> };

async function listenForStored(database: Database): Promise<StoredEvents> {
  const channel: NotifyChannel = await createNotifyChannel(database, 'clearbase_live');
  let wake: (() => void) | undefined;
  const events: StoredEvents = {
    stored: 0,
    rejected: 0,
    changed: () =>
      new Promise<void>((resolve) => {
        wake = resolve;
      }),
    close: () => channel.close(),
  };
  channel.subscribe((payload) => {
    const { message } = JSON.parse(payload) as { message?: { type?: string; data?: { status?: string } } };
    if (message?.type === 'document_uploaded') events.stored++;
    else if (message?.type === 'document_status_updated' && message.data?.status === 'rejected') events.rejected++;
    else return;
    wake?.();
    wake = undefined;
  });
  return events;
}

/** Distinct players and distinct file content, so no submission is a replay and no file a duplicate. */
function buildSubmissions(size: PipelineSizeCase, tag: string, n: number): Submission[] {
  return Array.from({ length: n }, (_, index) => {
    const file = makeSizedPdf(`bench ${tag} ${size.fileBytes} ${index}`, size.fileBytes);
    const { body, contentType } = buildMultipart([
      { name: 'submissionId', value: `bench-${tag}-${size.fileBytes}-${index}` },
      { name: 'season', value: BENCH_SEASON.id },
      { name: 'division', value: 'AA' },
      { name: 'playerFirstName', value: 'Bench' },
      { name: 'playerLastName', value: `Runner ${tag} ${size.fileBytes} ${index}` },
      { name: 'playerBirthDate', value: '2014-05-03' },
      { name: 'guardianEmail', value: 'bench@example.org' },
      { name: 'birth_certificate', filename: 'birth certificate.pdf', content: file, contentType: 'application/pdf' },
    ]);
    return { body, contentType, signature: signBody(SECRET, body), file };
  });
}

type Timing = {
  seconds: number;
  intakeSeconds: number;
  cpuSeconds: number;
  systemCpuSeconds: number;
  mainThreadCpuSeconds: number | undefined;
  /** CPU milliseconds of each other thread of this process during the run (Linux only). */
  otherThreadsCpuMs: number[] | undefined;
  /** The run's start and end on the monotonic clock, in µs. */
  window: { startUs: bigint; endUs: bigint };
};

async function sendAndSettle(instance: Instance, submissions: Submission[], concurrency: number): Promise<Timing> {
  const { events } = instance;
  const storedBefore = events.stored;
  const rejectedBefore = events.rejected;
  const started = process.hrtime.bigint();
  const cpuBefore = process.cpuUsage();
  const mainBefore = threadCpuSeconds(process.pid);
  const threadsBefore = threadsCpuMs();
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

  const deadline = Date.now() + SETTLE_TIMEOUT_MS;
  const expected = storedBefore + submissions.length;
  while (events.stored < expected) {
    if (events.rejected > rejectedBefore) throw new Error('the pipeline rejected a document');
    if (Date.now() > deadline) throw new Error(`only ${events.stored - storedBefore} of ${submissions.length} documents were stored within ${SETTLE_TIMEOUT_MS / 1000} s`);
    let timer: NodeJS.Timeout | undefined;
    const woke = await Promise.race([events.changed().then(() => true), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), CHECK_MS)))]);
    clearTimeout(timer);
    // No event for a while: a NOTIFY lost (a LISTEN session that dropped) must not hang the run, nor a rejection go unseen.
    if (!woke) {
      if ((await countRejected(instance.database)) > 0) throw new Error('the pipeline rejected a document');
      if ((await countStoredDocuments(instance.database)) >= expected) break;
    }
  }
  const ended = process.hrtime.bigint();
  const cpu = process.cpuUsage(cpuBefore);
  const mainAfter = threadCpuSeconds(process.pid);
  const threadsAfter = threadsCpuMs();
  // Every document of the run stored and unstaged, as the events said.
  if ((await countStoredDocuments(instance.database)) < storedBefore + submissions.length) throw new Error('a document was announced before it was stored');
  return {
    seconds: Number(ended - started) / 1e9,
    intakeSeconds,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    systemCpuSeconds: cpu.system / 1e6,
    mainThreadCpuSeconds: mainBefore === undefined || mainAfter === undefined ? undefined : mainAfter - mainBefore,
    otherThreadsCpuMs:
      threadsBefore && threadsAfter
        ? [...threadsAfter].filter(([tid]) => tid !== process.pid).map(([tid, ms]) => ms - (threadsBefore.get(tid) ?? 0))
        : undefined,
    window: { startUs: started / 1000n, endUs: ended / 1000n },
  };
}

/**
 * A full garbage collection of this thread's heap, now. The bench builds its bodies in this process, and the
 * collection of what that left behind must not be counted as the server's CPU.
 */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  const gc: unknown = runInNewContext('gc');
  if (typeof gc !== 'function') throw new Error('the garbage collector could not be asked to run');
  (gc as () => void)();
}

/**
 * CPU milliseconds each thread of this process has run, by thread id (Linux: /proc/self/task), or undefined
 * elsewhere. A thread started during a run is counted from zero; one that ended during it is not counted here
 * (the process's total still holds it).
 */
function threadsCpuMs(): Map<number, number> | undefined {
  let tids: string[];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    return undefined;
  }
  const threads = new Map<number, number>();
  for (const tid of tids) {
    const seconds = threadCpuSeconds(Number(tid));
    if (seconds !== undefined) threads.set(Number(tid), seconds * 1000);
  }
  return threads;
}

/** CPU seconds a thread of this process has run (Linux: its schedstat, in ns), or undefined elsewhere. */
function threadCpuSeconds(tid: number): number | undefined {
  try {
    return Number(readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ')[0]) / 1e9;
  } catch {
    return undefined;
  }
}

/**
 * CPU milliseconds of one pass over a submission: HMAC-SHA256 of the body (the signature), SHA-256 and
 * AES-256-GCM of the file, in 64 KiB pieces as they arrive, on this thread. The median of seven batches of
 * `rounds / 7` passes each (at least one), after one untimed pass, so a garbage collection does not move it.
 * Thread CPU where the system tells it (Linux), else the process's (the server is idle meanwhile).
 */
function measureFloorMs(submission: Submission, rounds: number): number {
  const key = randomBytes(32);
  const pass = () => {
    const hmac = createHmac('sha256', SECRET);
    for (let at = 0; at < submission.body.length; at += CHUNK_BYTES) hmac.update(submission.body.subarray(at, at + CHUNK_BYTES));
    hmac.digest();
    const hash = createHash('sha256');
    const cipher = createCipheriv('aes-256-gcm', key, randomBytes(12));
    for (let at = 0; at < submission.file.length; at += CHUNK_BYTES) {
      const chunk = submission.file.subarray(at, at + CHUNK_BYTES);
      hash.update(chunk);
      cipher.update(chunk);
    }
    cipher.final();
    cipher.getAuthTag();
    hash.digest();
  };
  const cpuMs = () => {
    const thread = threadCpuSeconds(process.pid);
    if (thread !== undefined) return thread * 1000;
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  pass();
  const perBatch = Math.max(1, Math.round(rounds / 7));
  const batches: number[] = [];
  for (let batch = 0; batch < 7; batch++) {
    const before = cpuMs();
    for (let round = 0; round < perBatch; round++) pass();
    batches.push((cpuMs() - before) / perBatch);
  }
  batches.sort((a, b) => a - b);
  return batches[3] ?? Number.NaN;
}

/**
 * Files per second clamd scans on its own: the same files the run sends, streamed over zINSTREAM by the
 * project's clamd client (as the pipeline's scan stage does, in 64 KiB pieces), `concurrency` at once.
 * One untimed scan first.
 */
async function measureClamdRate(url: string, submissions: Submission[], concurrency: number): Promise<number> {
  const clamd = createClamdAntivirus({ url });
  const scan = async (submission: Submission) => {
    const verdict = await clamd.scan(readChunks(submission.file));
    if (!verdict.clean) throw new Error(`clamd found ${verdict.signature} in a bench file`);
  };
  const first = submissions[0];
  if (first) await scan(first);
  const started = process.hrtime.bigint();
  let next = 0;
  const worker = async () => {
    for (let submission = submissions[next++]; submission; submission = submissions[next++]) await scan(submission);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, submissions.length) }, worker));
  return submissions.length / (Number(process.hrtime.bigint() - started) / 1e9);
}

/** The V8 profiler of this process's request thread, over the inspector protocol. */
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

