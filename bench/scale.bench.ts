import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { SEASON_REPORT_MAX_PLAYERS, ZDocumentList, ZMissingReport, ZRecentUploads, ZSeasonReport, ZStats } from '../src/contract';
import { CONFIG_VARIABLES } from '../src/server/platform/config';
import { openDatabase, type Database, type Db } from '../src/server/platform/db/client';
import { documentListCountQuery, documentListPageQuery, recentUploadsRead } from '../src/server/documents/documents.repository';
import { missingReportCountsRead, missingReportPageRead, statsRead, type ReportFilters } from '../src/server/reports/reports.repository';
import { seasonReportQueries } from '../src/server/reports/season-report.repository';
import { documents as documentsTable, players as playersTable, registrations as registrationsTable } from '../src/server/platform/db/schema';
import { insertSeasons } from '../src/server/seasons/seasons.repository';
import { freePort, signIn } from '../tests/support/child-server';
import { ensureWebBuild } from '../scripts/ensure-web-build';
import type { FloorRoutes } from './http-floor';
import { formatPlayersScreen, measurePlayersScreen, type PlayersScreenTimings } from './players-screen.bench';
import { BENCH_EARLIER_SEASON, BENCH_SEASON, createScratchDatabase, DEFAULT_POSTGRES_URL } from './support';

/**
 * The read endpoints at league scale: a scratch PostgreSQL database gets `players` players (one
 * registration each in the current season, divisions spread) and about 4 documents each, written by the
 * database itself (INSERT … SELECT generate_series), then VACUUM ANALYZE. The real server (`src/server/main.ts`,
 * as `npm start` runs it, NODE_ENV=production, LOG_LEVEL=info to a file) runs on it in a child process, so
 * the load generator here never shares its event loop.
 *
 * Per endpoint: `clients` concurrent clients, each with its own keep-alive connection and a session
 * cookie, send GETs one after another for `timedSeconds` and at least `requestsPerClient` each (after an
 * untimed warm-up whose first requests also check the answer against the contract); latency is from sending
 * the request to the last byte of the answer. Then
 * the same data queries the endpoint runs (the same SQL text and parameters, taken from the repository's
 * query builders: `.statement(db, …)` of a prepared read, which also gives its name so it runs prepared as the
 * server runs it, else `.toSQL()`; run as the endpoint runs them: one after another or at once) by the same
 * number of concurrent callers on a pg.Pool the size of the server's own. The ratio p95 / raw p95 is what
 * HTTP, the session check, validation, mapping and JSON cost on top of the database under that load. Then
 * the same requests to bench/http-floor.ts, a bare node:http server that runs the same statements and
 * answers their rows: floor / raw is the HTTP hop alone (a process and two socket round trips more, on the
 * same two cores), p95 / floor what Clearbase's own stack adds to it.
 *
 * Target: p95 ≤ 50 ms and p95 / raw p95 ≤ 2. Missing it is reported, not a failure; a failed
 * request or a wrong answer is a failure.
 */

export const FULL_SCALE_PLAYERS = 50_000;
export const QUICK_SCALE_PLAYERS = 5_000;
export const SCALE_TARGET = { p95Ms: 50, ratio: 2 } as const;
/** The server's pool (src/server/db/client.ts, `max: 10`): the raw queries get no more connections than it has. */
const SERVER_POOL_SIZE = 10;
const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const PASSWORD = 'scale bench password';
/** Warm-up rounds per client whose answers are checked against the contract and the seeded data. */
const CHECKED_WARMUP = 5;
const HEALTHY_WITHIN_MS = 60_000;

export interface ScaleBenchOptions {
  players?: number;
  /** Admin connection to the PostgreSQL server that gets the scratch database (BENCH_POSTGRES_URL in bench/run.ts). */
  postgresUrl?: string;
  clients?: number;
  /** The timed run: every client sends at least this many requests… */
  requestsPerClient?: number;
  /**
   * …and keeps sending until this long has passed. A fast endpoint answers 500 requests in 50 ms, a window in
   * which one GC pause or descheduling decides the p95; a few seconds of samples give a p95 that repeats.
   */
  timedSeconds?: number;
  /**
   * Untimed requests before the timed ones, from every client for this long (the first CHECKED_WARMUP of each
   * client check the answer); the same before the raw SQL. A server that has just started runs its code
   * unoptimised: on this 2-core machine /api/stats needed about 3,500 requests before its CPU per request
   * settled (0.48 → 0.16 ms), so a warm-up of a hundred requests measured V8's warm-up, not the server a
   * league uses all season.
   */
  warmupSeconds?: number;
  /** Parent folder of the server's temporary data dir; defaults to the OS temp dir. */
  workDir?: string;
  write?: (text: string) => void;
  /** When set, the server writes V8 CPU profiles of its whole run (seeding excluded), one per thread, here as it exits. */
  profileDir?: string;
  /** Also time the Players screen in Chromium on the same data (default true; needs /usr/bin/chromium). */
  browser?: boolean;
}

export type Latencies = { p50: number; p95: number; max: number };

export interface ScaleCaseResult {
  endpoint: string;
  requests: number;
  http: Latencies;
  /** Requests answered per second over the timed run. */
  httpPerSecond: number;
  raw: Latencies;
  /** The same statements behind bench/http-floor.ts: the HTTP hop with nothing of Clearbase's stack. */
  floor: Latencies;
  /** Statements one raw round runs (an endpoint may run more than one). */
  statements: number;
  /** p95 / raw p95: the target's ratio. */
  ratio: number;
  /** floor p95 / raw p95: what the HTTP hop alone costs on this machine. */
  hopRatio: number;
  /** p95 / floor p95: what Clearbase's stack costs above the least any HTTP server on this machine does. */
  floorRatio: number;
  /** CPU of the server process (every thread) per request, from /proc; undefined where there is none. */
  serverCpuMs: number | undefined;
  /** 1-minute load average when the case started. */
  loadAverage: number;
  pass: boolean;
}

export interface ScaleBenchResult {
  players: number;
  documents: number;
  seedSeconds: number;
  analyzeSeconds: number;
  clients: number;
  requestsPerClient: number;
  timedSeconds: number;
  cases: ScaleCaseResult[];
  playersScreen: PlayersScreenTimings | undefined;
}

/** A statement as the driver gets it; named = a prepared statement, as the server runs its prepared reads. */
type Statement = { name?: string; text: string; values: unknown[] };

/** One endpoint, and the data queries behind one of its answers. */
interface EndpointCase {
  label: string;
  path: string;
  statements: Statement[];
  /** Whether the endpoint runs its statements at once (Promise.all) or one after another. */
  parallel: boolean;
  /** Checks a warm-up answer against the contract and the seeded data; throws when it is wrong. */
  check: (body: unknown) => void;
}

const toStatement = (query: { toSQL(): { sql: string; params: unknown[] } }): Statement => {
  const { sql: text, params: values } = query.toSQL();
  return { text, values };
};

/** The endpoints measured, each with the repository builders its service runs (keep in step with the services). */
function endpointCases(db: Db, seeded: { players: number; documents: number }): EndpointCase[] {
  const everyone: ReportFilters = { division: 'all', status: 'all' };
  const expiring: ReportFilters = { division: 'all', status: 'expiring' };
  // No `season` parameter: the current season, resolved inside each statement (reports.repository).
  const current = undefined;
  return [
    {
      label: 'GET /api/stats',
      path: '/api/stats',
      statements: [statsRead.statement(db, current)],
      parallel: false,
      check: (body) => {
        const stats = ZStats.parse(body);
        if (stats.totalPlayers !== seeded.players) throw new Error(`expected ${seeded.players} players, got ${stats.totalPlayers}`);
      },
    },
    {
      label: 'GET /api/report/missing',
      path: '/api/report/missing?pageSize=10',
      // reports.service getMissingReport: the counts and the first page at once.
      statements: [
        missingReportCountsRead.statement(db, current, everyone),
        missingReportPageRead.statement(db, current, everyone, { limit: 10, offset: 0 }),
      ],
      parallel: true,
      check: (body) => {
        const report = ZMissingReport.parse(body);
        if (report.players.length !== 10 || report.summary.total !== seeded.players) {
          throw new Error(`expected 10 of ${seeded.players} players, got ${report.players.length} of ${report.summary.total}`);
        }
      },
    },
    {
      label: 'GET /api/reports/season',
      path: '/api/reports/season',
      // season-report.service getSeasonReport: three aggregate statements at once (all divisions, compared).
      statements: Object.values(seasonReportQueries(db, current, 'all', SEASON_REPORT_MAX_PLAYERS)).map(toStatement),
      parallel: true,
      check: (body) => {
        const report = ZSeasonReport.parse(body);
        const listed = Math.min(SEASON_REPORT_MAX_PLAYERS, report.playersTotal);
        if (report.summary.totalPlayers !== seeded.players || report.players.length !== listed) {
          throw new Error(`expected ${seeded.players} players and ${listed} listed, got ${report.summary.totalPlayers} and ${report.players.length}`);
        }
      },
    },
    {
      label: 'GET /api/report/missing?status=expiring',
      path: '/api/report/missing?status=expiring&pageSize=10',
      // The expiring filter: its count and first page read registrations_season_expires_idx, not season_totals.
      statements: [
        missingReportCountsRead.statement(db, current, expiring),
        missingReportPageRead.statement(db, current, expiring, { limit: 10, offset: 0 }),
      ],
      parallel: true,
      check: (body) => {
        const report = ZMissingReport.parse(body);
        if (report.players.length !== 10 || report.players.some((row) => row.expiresOn === null)) {
          throw new Error(`expected 10 players whose approval runs out soon, got ${report.players.length}`);
        }
      },
    },
    {
      label: 'GET /api/uploads/recent',
      path: '/api/uploads/recent',
      statements: [recentUploadsRead.statement(db, 10)],
      parallel: false,
      check: (body) => {
        const { uploads } = ZRecentUploads.parse(body);
        if (uploads.length !== 10) throw new Error(`expected 10 uploads, got ${uploads.length}`);
      },
    },
    {
      label: 'GET /api/documents',
      path: '/api/documents?pageSize=50',
      // documents.service listDocuments: the page and the count at once.
      statements: [toStatement(documentListPageQuery(db, {}, { limit: 50, offset: 0 })), toStatement(documentListCountQuery(db, {}))],
      parallel: true,
      check: (body) => {
        const list = ZDocumentList.parse(body);
        if (list.documents.length !== 50 || list.total !== seeded.documents) {
          throw new Error(`expected 50 of ${seeded.documents} documents, got ${list.documents.length} of ${list.total}`);
        }
      },
    },
  ];
}

export async function runScaleBench(options: ScaleBenchOptions = {}): Promise<ScaleBenchResult> {
  const players = options.players ?? FULL_SCALE_PLAYERS;
  const clients = options.clients ?? 20;
  const requestsPerClient = options.requestsPerClient ?? 25;
  const timedSeconds = options.timedSeconds ?? 3;
  const warmupSeconds = options.warmupSeconds ?? 5;
  const write = options.write ?? (() => undefined);
  const browser = options.browser ?? true;
  // The server serves the built web app only if it exists when it starts.
  if (browser) ensureWebBuild();

  const scratch = await createScratchDatabase(options.postgresUrl ?? DEFAULT_POSTGRES_URL, 'clearbase_scale_');
  const dataDir = await mkdtemp(path.join(options.workDir ?? tmpdir(), 'clearbase-scale-'));
  let database: Database | undefined;
  let server: ScaleServer | undefined;
  let floor: ScaleServer | undefined;
  let pool: pg.Pool | undefined;
  try {
    database = await openDatabase({ kind: 'postgres', url: scratch.url });
    write(`  seeding ${players.toLocaleString('en-US')} players into a scratch database…\n`);
    let started = performance.now();
    await insertSeasons(database.db, [BENCH_SEASON, BENCH_EARLIER_SEASON]);
    const seeded = await seedScaleData(database.db, { players, season: BENCH_SEASON, earlier: BENCH_EARLIER_SEASON });
    const seedSeconds = (performance.now() - started) / 1000;
    started = performance.now();
    await database.db.execute(sql`vacuum analyze`);
    const analyzeSeconds = (performance.now() - started) / 1000;
    write(
      `  ${seeded.players.toLocaleString('en-US')} players, ${seeded.registrations.toLocaleString('en-US')} registrations, ` +
        `${seeded.documents.toLocaleString('en-US')} documents in ${seedSeconds.toFixed(1)} s; VACUUM ANALYZE ${analyzeSeconds.toFixed(1)} s\n`,
    );

    server = await startScaleServer(scratch.url, dataDir, options.profileDir);
    const cookie = await signIn(server.url, PASSWORD);
    const endpoints = endpointCases(database.db, seeded);
    floor = await startFloorServer(scratch.url, dataDir, endpoints);
    const floorUrl = floor.url;
    const rawPool = new pg.Pool({ connectionString: scratch.url, max: SERVER_POOL_SIZE });
    pool = rawPool;
    const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
    const timed = { rounds: requestsPerClient, seconds: timedSeconds };
    const warmedUp = async (round: () => Promise<unknown>) => {
      await runClients(clients, round, { seconds: warmupSeconds });
      return runClients(clients, round, timed);
    };

    const cases: ScaleCaseResult[] = [];
    try {
      for (const endpoint of endpoints) {
        write(
          `  ${endpoint.label}: ${clients} clients, ${warmupSeconds} s of warm-up, then ${timedSeconds} s and ${requestsPerClient} requests each timed; ` +
            `then the same of its SQL, then of the HTTP floor…\n`,
        );
        const loadAverage = loadavg()[0] ?? Number.NaN;
        const get = (check: boolean) => getOk(agent, server?.url ?? '', endpoint.path, cookie, check ? endpoint.check : undefined);
        await runClients(clients, () => get(true), { rounds: CHECKED_WARMUP });
        await runClients(clients, () => get(false), { seconds: warmupSeconds });
        const cpuBefore = server.cpuMs();
        const httpRun = await runClients(clients, () => get(false), timed);
        const cpuAfter = server.cpuMs();

        const rawRound = async () => {
          const run = (statement: Statement) => rawPool.query({ ...statement, rowMode: 'array' });
          if (endpoint.parallel) await Promise.all(endpoint.statements.map(run));
          else for (const statement of endpoint.statements) await run(statement);
        };
        const rawRun = await warmedUp(rawRound);
        const floorRun = await warmedUp(() => getOk(agent, floorUrl, endpoint.path, '', undefined));

        const httpLatencies = summarize(httpRun.latencies);
        const raw = summarize(rawRun.latencies);
        const floorLatencies = summarize(floorRun.latencies);
        const ratio = httpLatencies.p95 / raw.p95;
        const requests = httpRun.latencies.length;
        cases.push({
          endpoint: endpoint.label,
          requests,
          http: httpLatencies,
          httpPerSecond: requests / httpRun.seconds,
          raw,
          floor: floorLatencies,
          statements: endpoint.statements.length,
          ratio,
          hopRatio: floorLatencies.p95 / raw.p95,
          floorRatio: httpLatencies.p95 / floorLatencies.p95,
          serverCpuMs: cpuBefore === undefined || cpuAfter === undefined ? undefined : (cpuAfter - cpuBefore) / requests,
          loadAverage,
          pass: httpLatencies.p95 <= SCALE_TARGET.p95Ms && ratio <= SCALE_TARGET.ratio,
        });
      }
    } finally {
      agent.destroy();
    }

    let playersScreen: PlayersScreenTimings | undefined;
    if (browser) {
      write('  the Players screen in Chromium…\n');
      playersScreen = await measurePlayersScreen(server.url, cookie);
    }

    const result: ScaleBenchResult = { players: seeded.players, documents: seeded.documents, seedSeconds, analyzeSeconds, clients, requestsPerClient, timedSeconds, cases, playersScreen };
    write(formatScaleTable(result));
    if (playersScreen) write(formatPlayersScreen(playersScreen));
    return result;
  } catch (error) {
    const log = [server && (await server.logTail()), floor && `HTTP floor: ${await floor.logTail()}`].filter(Boolean).join('\n');
    throw log ? new Error(`${error instanceof Error ? error.message : String(error)}\nserver log (tail):\n${log}`, { cause: error }) : error;
  } finally {
    await pool?.end().catch(() => undefined);
    await server?.stop();
    await floor?.stop();
    await database?.close().catch(() => undefined);
    await scratch.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

export function formatScaleTable(result: ScaleBenchResult): string {
  const header = [
    `Scale: ${result.players.toLocaleString('en-US')} players, ${result.documents.toLocaleString('en-US')} documents on PostgreSQL; the server in a child process over HTTP (keep-alive),`,
    `${result.clients} concurrent clients for ${result.timedSeconds} s and at least ${result.requestsPerClient} requests each (after the warm-up); raw = the endpoint's own SQL`,
    `(same text and parameters) run the same way by ${result.clients} concurrent callers`,
    `on a pg.Pool of ${SERVER_POOL_SIZE} (the server's size). Latencies in ms; stmts = statements per answer; server cpu = server process CPU ms per request;`,
    `load = 1-minute load average at the start. floor = the same statements answered by bench/http-floor.ts (node:http + pg, nothing else):`,
    `floor/raw is what the HTTP hop alone costs on this machine, p95/floor what Clearbase's stack costs above it.`,
    '',
  ];
  const columns: Array<[string, number, (c: ScaleCaseResult) => string]> = [
    ['endpoint', -28, (c) => c.endpoint],
    ['requests', 8, (c) => String(c.requests)],
    ['req/s', 6, (c) => c.httpPerSecond.toFixed(0)],
    ['p50', 6, (c) => c.http.p50.toFixed(1)],
    ['p95', 6, (c) => c.http.p95.toFixed(1)],
    ['max', 6, (c) => c.http.max.toFixed(1)],
    ['raw p50', 7, (c) => c.raw.p50.toFixed(1)],
    ['raw p95', 7, (c) => c.raw.p95.toFixed(1)],
    ['stmts', 5, (c) => String(c.statements)],
    ['p95/raw', 7, (c) => c.ratio.toFixed(2)],
    ['floor p95', 9, (c) => c.floor.p95.toFixed(1)],
    ['floor/raw', 9, (c) => c.hopRatio.toFixed(2)],
    ['p95/floor', 9, (c) => c.floorRatio.toFixed(2)],
    ['server cpu', 10, (c) => (c.serverCpuMs === undefined ? 'n/a' : c.serverCpuMs.toFixed(2))],
    ['load', 4, (c) => c.loadAverage.toFixed(1)],
    ['verdict', -1, verdict],
  ];
  const pad = (text: string, width: number) => (width < 0 ? text.padEnd(-width) : text.padStart(width));
  const line = (cell: (column: (typeof columns)[number]) => string) => columns.map((column) => pad(cell(column), column[1])).join('  ').trimEnd();
  return [...header, line(([title]) => title), ...result.cases.map((c) => line(([, , value]) => value(c))), ''].join('\n');
}

function verdict(c: ScaleCaseResult): string {
  if (c.pass) return 'PASS';
  const over = [
    ...(c.http.p95 > SCALE_TARGET.p95Ms ? [`p95 > ${SCALE_TARGET.p95Ms} ms`] : []),
    ...(c.ratio > SCALE_TARGET.ratio ? [`ratio > ${SCALE_TARGET.ratio}`] : []),
  ];
  return `OVER TARGET (${over.join(', ')})`;
}

/**
 * `clients` callers at once, each running rounds one after another until it has run `rounds` of them (default
 * none) and `seconds` have passed since the start (default none); every round's latency in ms.
 */
async function runClients(
  clients: number,
  round: () => Promise<unknown>,
  { rounds = 0, seconds = 0 }: { rounds?: number; seconds?: number },
): Promise<{ latencies: number[]; seconds: number }> {
  const latencies: number[] = [];
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (let i = 0; i < rounds || performance.now() < until; i++) {
        const at = performance.now();
        await round();
        latencies.push(performance.now() - at);
      }
    }),
  );
  return { latencies, seconds: (performance.now() - started) / 1000 };
}

function summarize(latencies: number[]): Latencies {
  const sorted = [...latencies].sort((a, b) => a - b);
  // Nearest rank: the smallest value with at least p of the samples at or below it.
  const at = (p: number) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] ?? Number.NaN;
  return { p50: at(0.5), p95: at(0.95), max: sorted[sorted.length - 1] ?? Number.NaN };
}

/** A GET that must answer 200 with JSON; with `check`, the parsed answer is checked too. */
function getOk(agent: http.Agent, base: string, pathAndQuery: string, cookie: string, check: ((body: unknown) => void) | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${base}${pathAndQuery}`, { agent, headers: { cookie, accept: 'application/json' } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        if (response.statusCode !== 200) {
          reject(new Error(`GET ${pathAndQuery} answered ${response.statusCode}: ${body.slice(0, 300)}`));
          return;
        }
        try {
          const parsed: unknown = JSON.parse(body);
          check?.(parsed);
          resolve();
        } catch (error) {
          reject(new Error(`GET ${pathAndQuery} answered wrong: ${error instanceof Error ? error.message : String(error)}`));
        }
      });
    });
    request.on('error', reject);
    request.setTimeout(30_000, () => request.destroy(new Error(`GET ${pathAndQuery} timed out`)));
  });
}

type ScaleServer = { url: string; cpuMs(): number | undefined; logTail(): Promise<string>; stop(): Promise<void> };

/** `src/server/main.ts` on the scratch database, as production runs it, its log in a file of the data dir. */
async function startScaleServer(databaseUrl: string, dataDir: string, profileDir: string | undefined): Promise<ScaleServer> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    // Nothing from the developer's shell: every Clearbase setting empty (= unset), then the bench's.
    ...Object.fromEntries(CONFIG_VARIABLES.map((name) => [name, ''])),
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    CLEARBASE_DATA_DIR: dataDir,
    CLEARBASE_PASSWORD: PASSWORD,
    CLEARBASE_MASTER_KEY: randomBytes(32).toString('base64'),
    CLEARBASE_DEMO: 'false',
    LOG_LEVEL: 'info',
  };
  // One file per thread (the main thread's is the largest), named by Node: CPU.<date>.<time>.<pid>.<thread>.<n>.cpuprofile.
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  return startChildServer({
    what: 'the server',
    args: [...profile, '--import', 'tsx', 'src/server/main.ts'],
    env,
    logFile: path.join(dataDir, 'server.log'),
    url: `http://127.0.0.1:${port}`,
    readyPath: '/healthz',
  });
}

/** bench/http-floor.ts answering each endpoint's path with its statements, on the scratch database. */
async function startFloorServer(databaseUrl: string, dataDir: string, endpoints: EndpointCase[]): Promise<ScaleServer> {
  const port = await freePort();
  const routes: FloorRoutes = Object.fromEntries(endpoints.map(({ path: route, statements, parallel }) => [route, { statements, parallel }]));
  const routesFile = path.join(dataDir, 'floor-routes.json');
  await writeFile(routesFile, JSON.stringify(routes));
  return startChildServer({
    what: 'the HTTP floor',
    args: ['--import', 'tsx', 'bench/http-floor.ts', routesFile, String(port), databaseUrl, String(SERVER_POOL_SIZE)],
    env: { ...process.env, NODE_ENV: 'production' },
    logFile: path.join(dataDir, 'floor.log'),
    url: `http://127.0.0.1:${port}`,
    readyPath: '/ready',
  });
}

/** A Node.js child (from the repository root) that serves HTTP at `url`, once `readyPath` answers 2xx; its output in `logFile`. */
async function startChildServer(options: { what: string; args: string[]; env: NodeJS.ProcessEnv; logFile: string; url: string; readyPath: string }): Promise<ScaleServer> {
  const { what, logFile, url } = options;
  const logFd = openSync(logFile, 'a');
  let child: ChildProcess;
  try {
    child = spawn(process.execPath, options.args, { cwd: REPO_ROOT, env: options.env, stdio: ['ignore', logFd, logFd] });
  } finally {
    closeSync(logFd);
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const logTail = async () => (await readFile(logFile, 'utf8').catch(() => '')).slice(-4000);
  const server: ScaleServer = {
    url,
    cpuMs: () => (child.pid === undefined ? undefined : processCpuMs(child.pid)),
    logTail,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const killed = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(killed);
    },
  };
  const deadline = performance.now() + HEALTHY_WITHIN_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode} before it was ready:\n${await logTail()}`);
    const ready = await fetch(`${url}${options.readyPath}`, { signal: AbortSignal.timeout(1_000) }).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return server;
    if (performance.now() > deadline) {
      await server.stop();
      throw new Error(`${what} was not ready within ${HEALTHY_WITHIN_MS / 1000} s:\n${await logTail()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** User + system CPU of a process (every thread), in ms, from /proc (Linux); undefined elsewhere. Read between runs, never during one. */
function processCpuMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name's closing parenthesis start at field 3 (state); utime is 14, stime 15, in clock ticks (100 a second).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks * 10 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A league at scale, written by the database itself (no rows through the client): `players` players, each
 * registered once in `season` (AAA 25 %, AA 35 %, A 35 %, Peewee 5 %), and per player and document type
 * most often one document, sometimes none (4 %), sometimes an earlier rejected copy next to the current one
 * (4 %): 4 documents per player on average. The current copies: about 75 % verified, 12 % pending (1.5 % of
 * all with no detected type), 2 % processing, 3 % rejected; uploads spread over the season's first 100
 * days. Deterministic: the same rows every run.
 */
export async function seedScaleData(
  db: Db,
  options: {
    players: number;
    season: { id: string; year: number; startsOn: string };
    /** An earlier season of the same year a third of the children played, with a verified birth certificate and medical form. */
    earlier?: { id: string; startsOn: string };
  },
): Promise<{ players: number; registrations: number; documents: number }> {
  const { players, season, earlier } = options;
  const idOf = (i: string) => sql.raw(`'CB-${season.year}-' || lpad(to_hex(${i}), 8, '0')`);
  await db.execute(sql`
    insert into players (id, first_name, last_name, birth_date, guardian_name, guardian_email, guardian_phone)
    select ${idOf('i')},
      (array['Ada','Grace','Alan','Edsger','Barbara','Donald','Frances','John','Katherine','Linus','Margaret','Niklaus',
             'Radia','Tim','Hedy','Ken','Dennis','Bjarne','Guido','Anita','Jean','Sophie','Mary','Karen','Evelyn',
             'Shafi','Leslie','Tony','Fran','Carl','Ivan','Joan','Annie','Ruth','Betty','Marlyn','Kathleen','Yukihiro','Rasmus','Brendan'])[1 + i % 40],
      (array['Lovelace','Hopper','Turing','Dijkstra','Liskov','Knuth','Allen','Backus','Johnson','Torvalds','Hamilton','Wirth',
             'Perlman','Berners-Lee','Lamarr','Thompson','Ritchie','Stroustrup','van Rossum','Borg','Sammet','Wilson','Keller','Jones',
             'Boyce','Goldwasser','Lamport','Hoare','Bilas','Petri','Sutherland','Clarke','Easley','Teitelbaum','Holberton','Wescoff',
             'Antonelli','Matsumoto','Lerdorf','Eich','Kay','Cerf','Kahn','McCarthy','Minsky','Shannon','Church','Gödel','Noether','Curie'])[1 + (i / 40) % 50],
      date '2008-01-01' + (i * 7919) % 3650,
      'Guardian ' || i,
      'guardian' || i || '@example.org',
      '555-' || lpad((i % 10000)::text, 4, '0')
    from generate_series(1, ${players}::int) as i`);
  await db.execute(sql`
    insert into registrations (player_id, season_id, division, registered_at)
    select ${idOf('i')}, ${season.id},
      case when h < 25 then 'AAA' when h < 60 then 'AA' when h < 95 then 'A' else 'Peewee' end,
      ${season.startsOn}::timestamptz + (i % 30) * interval '1 day'
    from generate_series(1, ${players}::int) as i, lateral (select abs(hashtext('division ' || i)) % 100 as h) d`);
  if (earlier) {
    // Returning children: registered in the earlier season too, where their birth certificate and medical form
    // were verified; under the default rules both count in the current season (decision 030).
    await db.execute(sql`
      insert into registrations (player_id, season_id, division, registered_at)
      select ${idOf('i')}, ${earlier.id}, 'A', ${earlier.startsOn}::timestamptz
      from generate_series(3, ${players}::int, 3) as i`);
    await db.execute(sql`
      insert into documents (player_id, season_id, doc_type, original_filename, stored_path, storage_driver, storage_key, status,
                             bytes, mime, file_sha256, uploaded_at, reviewed_at, document_date, retain_until)
      select ${idOf('i')}, ${earlier.id}, t.doc_type, t.doc_type || '.pdf', null, null, null, 'verified',
        50000, 'application/pdf', md5('earlier' || i || t.doc_type) || md5(t.doc_type || i || 'earlier'),
        ${earlier.startsOn}::timestamptz + (i % 60) * interval '1 day', ${earlier.startsOn}::timestamptz + (i % 60 + 2) * interval '1 day',
        case when t.doc_type = 'medical' then ${earlier.startsOn}::date - 30 + (i % 60) end,
        ${earlier.startsOn}::timestamptz + interval '7 years'
      from generate_series(3, ${players}::int, 3) as i
      cross join (values ('birth_certificate'), ('medical')) as t(doc_type)`);
  }
  // Per (player, type) r in 0-999 decides: r < 40 no document; 40-79 an earlier rejected copy (v = 1) as well.
  // The current copy (v = 0): 80-94 pending with no type, 95-199 pending, 200-219 processing, 220-249 rejected, else verified.
  await db.execute(sql`
    insert into documents (player_id, season_id, doc_type, original_filename, stored_path, storage_driver, storage_key, status,
                           bytes, mime, file_sha256, uploaded_at, reviewed_at, review_notes, document_date, retain_until)
    select ${idOf('i')}, ${season.id},
      case when v = 0 and r between 80 and 94 then null else t.doc_type end,
      t.file_name || case when v = 1 then ' (old)' else '' end || '.pdf',
      stored.path, case when stored.path is null then null else 'local' end, stored.path,
      s.status, 40000 + (r * 997) % 2000000, 'application/pdf',
      md5(i || t.doc_type || v) || md5(v || t.doc_type || i),
      u.at, case when s.status in ('verified', 'rejected') then u.at + interval '2 days' end,
      case when s.status = 'rejected' then 'The scan is unreadable' end,
      -- A medical form's exam: up to 400 days before it was sent, so some run out within the season.
      case when t.doc_type = 'medical' then (u.at AT TIME ZONE 'UTC')::date - (r * 7) % 400 end,
      u.at + interval '7 years'
    from generate_series(1, ${players}::int) as i
    cross join (values ('birth_certificate', 'Birth certificate'), ('residency', 'Proof of residency'), ('medical', 'Medical form'), ('waiver', 'Waiver'))
      as t(doc_type, file_name)
    cross join generate_series(0, 1) as v
    cross join lateral (select abs(hashtext(i || ' ' || t.doc_type)) % 1000 as r) pick
    cross join lateral (select case
        when v = 1 then 'rejected'
        when r between 80 and 199 then 'pending'
        when r between 200 and 219 then 'processing'
        when r between 220 and 249 then 'rejected'
        else 'verified' end as status) s
    cross join lateral (select ${season.startsOn}::timestamptz
        + ((abs(hashtext('at ' || i || t.doc_type)) % 8640000) - v * 864000) * interval '1 second' as at) u
    cross join lateral (select case when s.status in ('pending', 'verified')
        then 'seasons/' || ${season.year} || '/bench/' || i || '/' || t.doc_type || '.pdf' end as path) stored
    where r >= 40 and (v = 0 or r < 80)`);
  return { players: await db.$count(playersTable), registrations: await db.$count(registrationsTable), documents: await db.$count(documentsTable) };
}
