import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureWebBuild } from '../scripts/ensure-web-build';
import { CONFIG_VARIABLES } from '../src/server/platform/config';
import { freePort } from '../tests/support/child-server';
import { processCpuMs, processMemoryMB, processPssMB, processThreads, processTree } from './server-process';
import { figure, machineNow, verdictWord, type BenchFigure } from './figures';

/**
 * Start-up of an embedded database, as `npm start` runs it: `tsx scripts/start.ts` in a child process (the
 * tsx command starts the server as a second Node.js process, which is the one measured), PGlite or the
 * bundled PostgreSQL (`database`), local encrypted storage and the demo data, with a built web app
 * (ensureWebBuild, as `npm start` does).
 *
 * Cold: a new data folder, so the start creates the database (initdb), migrates it and seeds the demo data
 * with its files. Warm: the same folder started again after the cold server stopped (SIGTERM).
 *
 * Time to healthy: from spawning `tsx` to the first 200 from GET /healthz, polled every 50 ms (wall clock,
 * which depends on the machine's load; the CPU the server used until then is given beside it, which does not).
 *
 * Resident set after start: VmRSS of the server process (every thread: intake, inspector and tsx's loader
 * threads, PGlite's WebAssembly memory) with the proportional set size (PSS: shared pages divided among the
 * processes sharing them) of every process below it (the reader while it lives, an embedded PostgreSQL's
 * postmaster and sessions), once the start's
 * own work has settled, sampled every second. Settled means both: the server and its reader used less than 2 %
 * of a core over the last 10 s (the demo documents the first start queues for reading are read), and the reader
 * process it started has ended again (it ends after a minute idle; the server logs 'reader process started' /
 * 'reader process ended'), and the figure is read 30 s after that, once V8 has given back what the burst of
 * work grew. A start that has not settled within `settleSeconds` is measured then, and says so.
 */

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const PASSWORD = 'start bench password';
// Generous: on a machine shared with other work a first start has taken minutes.
const HEALTHY_WITHIN_MS = 600_000;
const IDLE_WINDOW_S = 10;
/** Under this share of one core over the idle window, the background work is done. */
const IDLE_CPU_SHARE = 0.02;
/** Once settled, the resident set is read this much later: what the server keeps, not what it is still giving back. */
const HOLD_AFTER_SETTLED_S = 30;
const PROBE = fileURLToPath(new URL('./start-memory-probe.mjs', import.meta.url));

export const START_TARGETS = { warmSeconds: 3, coldSeconds: 8, residentMb: 400 } as const;

export interface StartBenchOptions {
  /** The embedded database started (CLEARBASE_EMBEDDED_DATABASE); PGlite by default. */
  database?: 'pglite' | 'postgres';
  /** Parent folder of the temporary data folder; defaults to the OS temp dir. */
  workDir?: string;
  /** Longest wait for the start's work to settle, after /healthz answers (default 300 s). */
  settleSeconds?: number;
  /** Also ask every thread what it holds (bench/start-memory-probe.mjs) at healthy and once settled. */
  breakdown?: boolean;
  write?: (text: string) => void;
}

export type MemorySample = { second: number; rssMb: number; threads: number; cpuSeconds: number };

export interface StartRun {
  kind: 'cold' | 'warm';
  /** Spawn to the first 200 from /healthz, wall clock. */
  healthySeconds: number;
  /** CPU the server process (all threads) used until healthy; the tsx launcher's is apart. */
  cpuToHealthySeconds: number;
  launcherCpuSeconds: number;
  rssAtHealthyMb: number;
  /** VmHWM: the most the process held at any moment. */
  peakMb: number;
  settled: boolean;
  /** From healthy to settled (or to the end of the wait). */
  settleSeconds: number;
  rssSettledMb: number;
  cpuToSettledSeconds: number;
  threadsAtHealthy: number;
  threadsSettled: number;
  /** The tsx launcher process (`npm start` has it too), apart from the server. */
  launcherRssMb: number;
  /** Key points of the curve: healthy, its highest, every 15 s, settled. */
  curve: MemorySample[];
  breakdown?: { atHealthy: unknown; settled: unknown };
}

export async function runStartBench(options: StartBenchOptions = {}): Promise<BenchFigure[]> {
  const write = options.write ?? ((text: string) => process.stdout.write(text));
  ensureWebBuild();
  const root = await mkdtemp(path.join(options.workDir ?? tmpdir(), 'clearbase-start-bench-'));
  // As a project folder is: others may pass through it (as root, the bundled PostgreSQL runs as another account).
  await chmod(root, 0o711);
  try {
    const dataDir = path.join(root, 'data');
    const cold = await measureStart('cold', dataDir, root, options);
    const warm = await measureStart('warm', dataDir, root, options);
    const figures = toFigures(cold, warm, options.database ?? 'pglite');
    write(formatStart(cold, warm, figures, options.database ?? 'pglite'));
    return figures;
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

async function measureStart(kind: StartRun['kind'], dataDir: string, root: string, options: StartBenchOptions): Promise<StartRun> {
  const settleLimit = options.settleSeconds ?? 300;
  const port = await freePort();
  const logFile = path.join(root, `${kind}.log`);
  const probeOut = path.join(root, `${kind}-probe.json`);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...Object.fromEntries(CONFIG_VARIABLES.map((name) => [name, ''])),
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    CLEARBASE_DATA_DIR: dataDir,
    CLEARBASE_PASSWORD: PASSWORD,
    CLEARBASE_EMBEDDED_DATABASE: options.database ?? 'pglite',
    LOG_LEVEL: 'info',
    ...(options.breakdown ? { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${pathToFileURL(PROBE).href}`.trim(), CLEARBASE_BENCH_PROBE_OUT: probeOut } : {}),
  };
  const tsxCli = createRequire(import.meta.url).resolve('tsx/cli');
  const logFd = openSync(logFile, 'a');
  let launcher: ChildProcess;
  const spawnedAt = performance.now();
  try {
    launcher = spawn(process.execPath, [tsxCli, 'scripts/start.ts'], { cwd: REPO_ROOT, env, stdio: ['ignore', logFd, logFd] });
  } finally {
    closeSync(logFd);
  }
  const exited = new Promise<void>((resolve) => launcher.once('exit', () => resolve()));
  const logTail = async () => (await readFile(logFile, 'utf8').catch(() => '')).slice(-4000);
  const stop = async () => {
    if (launcher.exitCode === null && launcher.signalCode === null) launcher.kill('SIGTERM');
    const killed = setTimeout(() => launcher.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(killed);
  };

  try {
    const url = `http://127.0.0.1:${port}/healthz`;
    for (;;) {
      if (launcher.exitCode !== null) throw new Error(`the ${kind} start exited with ${launcher.exitCode} before it was healthy:\n${await logTail()}`);
      const healthy = await fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
        (response) => response.ok,
        () => false,
      );
      if (healthy) break;
      if (performance.now() - spawnedAt > HEALTHY_WITHIN_MS) throw new Error(`the ${kind} start was not healthy within ${HEALTHY_WITHIN_MS / 1000} s:\n${await logTail()}`);
      await sleep(50);
    }
    const healthySeconds = (performance.now() - spawnedAt) / 1000;
    const launcherPid = launcher.pid ?? 0;
    const serverPid = processTree(launcherPid)[1];
    if (serverPid === undefined) throw new Error('found no server process under the tsx launcher');
    const atHealthy = readProcess(serverPid);
    const probe = async () => (options.breakdown ? askProbe(serverPid, probeOut) : undefined);
    const breakdownAtHealthy = await probe();

    const samples: MemorySample[] = [{ second: 0, rssMb: atHealthy.rssMb, threads: atHealthy.threads, cpuSeconds: atHealthy.cpuSeconds }];
    const healthyAt = performance.now();
    let settled = false;
    while ((performance.now() - healthyAt) / 1000 < settleLimit) {
      await sleep(1_000);
      const now = readProcess(serverPid);
      const second = Math.round((performance.now() - healthyAt) / 1000);
      samples.push({ second, rssMb: now.rssMb, threads: now.threads, cpuSeconds: now.cpuSeconds });
      const windowStart = samples.find((sample) => sample.second >= second - IDLE_WINDOW_S);
      const idle = second >= IDLE_WINDOW_S && windowStart !== undefined && now.cpuSeconds - windowStart.cpuSeconds < IDLE_CPU_SHARE * IDLE_WINDOW_S;
      if (idle && readerProcessEnded(await readFile(logFile, 'utf8').catch(() => ''))) {
        settled = true;
        break;
      }
    }
    // Then what the server keeps: V8 gives back the heap a burst of work grew only after some idle time of
    // its own (seen 0 to 30 s after the start's work ended, 450 → 360 MB on a first start).
    const settledAt = samples[samples.length - 1]?.second ?? 0;
    if (settled) {
      for (let held = 0; held < HOLD_AFTER_SETTLED_S; held += 1) {
        await sleep(1_000);
        const now = readProcess(serverPid);
        samples.push({ second: Math.round((performance.now() - healthyAt) / 1000), rssMb: now.rssMb, threads: now.threads, cpuSeconds: now.cpuSeconds });
      }
    }
    const last = samples[samples.length - 1] ?? samples[0];
    const final = readProcess(serverPid);
    const breakdownSettled = await probe();
    const highest = samples.reduce((best, sample) => (sample.rssMb > best.rssMb ? sample : best));
    const curve = samples.filter((sample, index) => index === 0 || sample === highest || sample === last || sample.second % 15 === 0);
    return {
      kind,
      healthySeconds,
      cpuToHealthySeconds: atHealthy.cpuSeconds,
      launcherCpuSeconds: (processCpuMs(launcherPid) ?? Number.NaN) / 1000,
      rssAtHealthyMb: atHealthy.rssMb,
      // The server's own high-water mark, or more when it and the reader together held more at a sample.
      peakMb: Math.max(final.hwmMb, ...samples.map((sample) => sample.rssMb)),
      settled,
      settleSeconds: settledAt,
      rssSettledMb: last?.rssMb ?? final.rssMb,
      cpuToSettledSeconds: last?.cpuSeconds ?? final.cpuSeconds,
      threadsAtHealthy: atHealthy.threads,
      threadsSettled: final.threads,
      launcherRssMb: Math.round(processMemoryMB(launcherPid)?.rssMB ?? Number.NaN),
      curve,
      ...(options.breakdown ? { breakdown: { atHealthy: breakdownAtHealthy, settled: breakdownSettled } } : {}),
    };
  } finally {
    await stop();
  }
}

/**
 * Whether every reader process the server started has ended: none started (a warm start has nothing to
 * read), or as many 'ended' lines as 'started' ones.
 */
function readerProcessEnded(log: string): boolean {
  const count = (message: string) => log.split('\n').filter((line) => line.includes(`"msg":"${message}"`)).length;
  return count('reader process started') <= count('reader process ended');
}

/**
 * The server with the processes it started (the document reader, an embedded PostgreSQL and its sessions):
 * VmRSS of the server with the PSS of every live process below it, the server's VmHWM, its threads, and the
 * CPU (user + system, every thread) of the server and of every process below it, ended ones included; from
 * /proc (NaN where it cannot tell).
 */
function readProcess(pid: number): { rssMb: number; hwmMb: number; threads: number; cpuSeconds: number } {
  const memory = processMemoryMB(pid);
  const cpuMs = processCpuMs(pid, { endedChildren: true });
  let childrenRss = 0;
  let childrenCpuMs = 0;
  for (const child of processTree(pid).slice(1)) {
    childrenRss += processPssMB(child) ?? 0;
    childrenCpuMs += processCpuMs(child, { endedChildren: true }) ?? 0;
  }
  return {
    rssMb: memory ? Math.round(memory.rssMB + childrenRss) : Number.NaN,
    hwmMb: memory ? Math.round(memory.peakMB) : Number.NaN,
    threads: processThreads(pid),
    cpuSeconds: cpuMs === undefined ? Number.NaN : (cpuMs + childrenCpuMs) / 1000,
  };
}

async function askProbe(pid: number, out: string): Promise<unknown> {
  await rm(out, { force: true });
  process.kill(pid, 'SIGUSR2');
  for (let waited = 0; waited < 10_000; waited += 100) {
    await sleep(100);
    const text = await readFile(out, 'utf8').catch(() => '');
    if (text) return JSON.parse(text) as unknown;
  }
  return null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

function toFigures(cold: StartRun, warm: StartRun, database: 'pglite' | 'postgres'): BenchFigure[] {
  const section = 'start';
  // PGlite's figures keep the names they had before the embedded PostgreSQL was measured beside them.
  const on = database === 'pglite' ? '' : ', embedded PostgreSQL';
  const runDetail = (run: StartRun) => ({
    cpuToHealthySeconds: round(run.cpuToHealthySeconds),
    launcherCpuSeconds: round(run.launcherCpuSeconds),
    rssAtHealthyMb: run.rssAtHealthyMb,
    threadsAtHealthy: run.threadsAtHealthy,
  });
  return [
    figure({ section, name: `start, warm${on} (s)`, value: round(warm.healthySeconds, 2), unit: 's', target: { atMost: START_TARGETS.warmSeconds }, detail: runDetail(warm) }),
    figure({ section, name: `start, cold with demo data${on} (s)`, value: round(cold.healthySeconds, 2), unit: 's', target: { atMost: START_TARGETS.coldSeconds }, detail: runDetail(cold) }),
    figure({
      section,
      name: `resident set after start with demo data${on} (MB)`,
      value: cold.rssSettledMb,
      unit: 'MB',
      target: { atMost: START_TARGETS.residentMb },
      detail: {
        measured: 'VmRSS of the server process with the PSS of every process below it, once they used under 2 % of a core for 10 s and the reader process had ended',
        settled: cold.settled,
        secondsAfterHealthy: cold.settleSeconds,
        threads: cold.threadsSettled,
        cpuToSettledSeconds: round(cold.cpuToSettledSeconds),
        launcherRssMb: cold.launcherRssMb,
      },
    }),
    figure({ section, name: `resident set after a warm start${on} (MB)`, value: warm.rssSettledMb, unit: 'MB', detail: { settled: warm.settled, secondsAfterHealthy: warm.settleSeconds } }),
    figure({ section, name: `peak resident set of the server process, cold start${on} (MB)`, value: cold.peakMb, unit: 'MB' }),
    figure({ section, name: `CPU to healthy, cold${on} (s)`, value: round(cold.cpuToHealthySeconds), unit: 's' }),
    figure({ section, name: `CPU to healthy, warm${on} (s)`, value: round(warm.cpuToHealthySeconds), unit: 's' }),
  ];
}

export function formatStart(cold: StartRun, warm: StartRun, figures: BenchFigure[], database: 'pglite' | 'postgres'): string {
  const lines = [`== Start (${database === 'pglite' ? 'embedded PGlite' : 'embedded PostgreSQL'}, demo data; ${machineNow().cpus} CPUs, load ${machineNow().loadAverage.map((n) => n.toFixed(2)).join(' ')}) ==`];
  const runLine = (run: StartRun) =>
    `${run.kind.padEnd(5)} healthy ${run.healthySeconds.toFixed(2).padStart(6)} s (server CPU ${run.cpuToHealthySeconds.toFixed(1)} s, launcher ${run.launcherCpuSeconds.toFixed(1)} s)` +
    `  RSS at healthy ${run.rssAtHealthyMb} MB, threads ${run.threadsAtHealthy}; ${run.settled ? 'settled' : 'NOT settled'} ${run.settleSeconds} s later, ${run.rssSettledMb} MB ${HOLD_AFTER_SETTLED_S} s after that, threads ${run.threadsSettled};` +
    ` peak ${run.peakMb} MB; launcher ${run.launcherRssMb} MB`;
  lines.push(runLine(cold), runLine(warm));
  for (const run of [cold, warm]) {
    lines.push(`${run.kind} curve (s after healthy: RSS MB / threads / CPU s): ${run.curve.map((s) => `${s.second}: ${s.rssMb}/${s.threads}/${s.cpuSeconds.toFixed(1)}`).join(', ')}`);
    if (run.breakdown) lines.push(`${run.kind} per thread at healthy: ${JSON.stringify(run.breakdown.atHealthy)}`, `${run.kind} per thread settled: ${JSON.stringify(run.breakdown.settled)}`);
  }
  for (const f of figures) {
    const target = f.target === undefined ? '' : 'atMost' in f.target ? `≤ ${f.target.atMost}` : `≥ ${f.target.atLeast}`;
    lines.push(`  ${f.name.padEnd(48)} ${String(f.value).padStart(8)} ${target.padEnd(7)} ${verdictWord(f)}`);
  }
  return `${lines.join('\n')}\n`;
}

const entry = process.argv[1];
if (entry && import.meta.url === pathToFileURL(entry).href) {
  const breakdown = process.argv.includes('--breakdown');
  runStartBench({ breakdown, database: process.argv.includes('--postgres') ? 'postgres' : 'pglite' }).catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}
