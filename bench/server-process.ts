import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
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

/** The process and every live process below it (children, their children…), from /proc (Linux); [pid] elsewhere. */
export function processTree(pid: number): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [pid];
  }
  const children = new Map<number, number[]>();
  for (const name of entries) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(name)]);
    } catch {
      // It ended while the list was read.
    }
  }
  const tree: number[] = [];
  const queue = [pid];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    tree.push(next);
    queue.push(...(children.get(next) ?? []));
  }
  return tree;
}

/**
 * The memory of a process and every process below it, as the sum of their proportional set sizes (PSS: each
 * shared page divided among the processes sharing it, so shared buffers count once), in MB, with how many
 * processes there were. For a single process it is its resident set, less what it shares with others.
 */
export function processTreeMemoryMB(pid: number): { pssMB: number; processes: number; byProgram: Record<string, number> } | undefined {
  let kB = 0;
  let processes = 0;
  const byProgram: Record<string, number> = {};
  for (const member of processTree(pid)) {
    const mb = processPssMB(member);
    if (mb === undefined) continue;
    kB += mb * 1024;
    processes += 1;
    const program = member === pid ? 'server' : programOf(member);
    byProgram[program] = Math.round((byProgram[program] ?? 0) + mb);
  }
  return processes === 0 ? undefined : { pssMB: kB / 1024, processes, byProgram };
}

/** A process's proportional set size in MB, from /proc (Linux); undefined when it has ended or elsewhere. */
export function processPssMB(pid: number): number | undefined {
  try {
    const kB = Number(/^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1]);
    return Number.isFinite(kB) ? kB / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** A short name for what a process runs: its program's file name, or for Node.js its script's. */
function programOf(pid: number): string {
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    const program = path.basename(args[0] ?? '?');
    if (program !== 'node') return program.startsWith('postgres') ? 'postgres' : program;
    const script = args.slice(1).find((arg) => /\.(m?[jt]s)$/.test(arg));
    return script ? path.basename(script) : 'node';
  } catch {
    return '?';
  }
}

/** CPU of a process and every live process below it, each with its ended children's, in ms; undefined off Linux. */
export function processTreeCpuMs(pid: number): number | undefined {
  const own = processCpuMs(pid, { endedChildren: true });
  if (own === undefined) return undefined;
  return processTree(pid)
    .slice(1)
    .reduce((sum, member) => sum + (processCpuMs(member, { endedChildren: true }) ?? 0), own);
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
