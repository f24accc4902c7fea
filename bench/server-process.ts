import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

/**
 * What the benches that run a server in a child process share: starting it (from the repository root, its
 * output to a file) until a path answers, stopping it gracefully, and reading its CPU and memory from /proc,
 * so the load generator never shares the server's event loop or its figures.
 */

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

export type ServerProcess = {
  url: string;
  pid: number | undefined;
  /** User + system CPU of the process (every thread) in ms; undefined off Linux. */
  cpuMs(): number | undefined;
  /** Resident set now and its high-water mark, in MB; undefined off Linux. */
  memory(): { rssMB: number; peakMB: number } | undefined;
  logTail(): Promise<string>;
  /** SIGTERM (the server's own shutdown runs), SIGKILL after `graceMs`; resolves once it has exited. */
  stop(graceMs?: number): Promise<void>;
};

/** A Node.js child that serves HTTP at `url`, once `readyPath` answers 2xx within `readyWithinMs`. */
export async function startServerProcess(options: {
  what: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  logFile: string;
  url: string;
  readyPath: string;
  readyWithinMs?: number;
}): Promise<ServerProcess> {
  const { what, logFile, url } = options;
  const readyWithinMs = options.readyWithinMs ?? 60_000;
  const logFd = openSync(logFile, 'a');
  let child: ChildProcess;
  try {
    child = spawn(process.execPath, options.args, { cwd: REPO_ROOT, env: options.env, stdio: ['ignore', logFd, logFd] });
  } finally {
    closeSync(logFd);
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const logTail = async () => (await readFile(logFile, 'utf8').catch(() => '')).slice(-4000);
  const server: ServerProcess = {
    url,
    pid: child.pid,
    cpuMs: () => (child.pid === undefined ? undefined : processCpuMs(child.pid)),
    memory: () => (child.pid === undefined ? undefined : processMemoryMB(child.pid)),
    logTail,
    async stop(graceMs = 15_000) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const killed = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(killed);
    },
  };
  const deadline = performance.now() + readyWithinMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode} before it was ready:\n${await logTail()}`);
    const ready = await fetch(`${url}${options.readyPath}`, { signal: AbortSignal.timeout(1_000) }).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return server;
    if (performance.now() > deadline) {
      await server.stop();
      throw new Error(`${what} was not ready within ${readyWithinMs / 1000} s:\n${await logTail()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * User + system CPU of a process (every thread), in ms, from /proc (Linux); undefined elsewhere. With
 * `endedChildren`, also that of its children that have ended and been waited for (cutime and cstime).
 */
export function processCpuMs(pid: number, options: { endedChildren?: boolean } = {}): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name's closing parenthesis start at field 3 (state); utime is 14, stime 15,
    // cutime 16 and cstime 17, in clock ticks (100 a second).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]) + (options.endedChildren ? Number(fields[13]) + Number(fields[14]) : 0);
    return Number.isFinite(ticks) ? ticks * 10 : undefined;
  } catch {
    return undefined;
  }
}

/** VmRSS and VmHWM of a process in MB (1 MB = 1,048,576 bytes), from /proc (Linux); undefined elsewhere. */
export function processMemoryMB(pid: number): { rssMB: number; peakMB: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kB = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
    const rss = kB('VmRSS');
    const peak = kB('VmHWM');
    return Number.isFinite(rss) && Number.isFinite(peak) ? { rssMB: rss / 1024, peakMB: peak / 1024 } : undefined;
  } catch {
    return undefined;
  }
}

/** The threads of a process, from /proc (Linux); NaN elsewhere. */
export function processThreads(pid: number): number {
  try {
    return Number(/^Threads:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? Number.NaN);
  } catch {
    return Number.NaN;
  }
}

export type Latencies = { p50: number; p95: number; max: number; count: number };

/** Nearest-rank percentiles: the smallest value with at least p of the samples at or below it. */
export function summarize(latencies: readonly number[]): Latencies {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] ?? Number.NaN;
  return { p50: at(0.5), p95: at(0.95), max: sorted[sorted.length - 1] ?? Number.NaN, count: sorted.length };
}
