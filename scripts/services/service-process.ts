import { spawn } from 'node:child_process';
import { accessSync, constants, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';

/**
 * What the private test services (clamd, Dovecot) have in common: a system binary found off PATH, a free
 * port on 127.0.0.1, a process whose output is drained, waited for until it answers, and stopped with its
 * scratch folder removed.
 */

const STOP_TIMEOUT_MS = 5_000;
const OUTPUT_TAIL_BYTES = 8 * 1024;

/** The service could not bind its port: another process took it after we found it free. */
export class PortInUseError extends Error {}

/** Services live in /usr/sbin, which is not on every user's PATH. */
export function findSystemBinary(name: string, installHint: string): string {
  const directories = [...(process.env.PATH ?? '').split(path.delimiter), '/usr/sbin', '/usr/local/sbin'].filter(Boolean);
  for (const directory of directories) {
    const candidate = path.join(directory, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here; try the next directory
    }
  }
  throw new Error(`${name} is not installed. Install it with: ${installHint}`);
}

/**
 * Runs `start` on `preferredPort` when it is free, else on any free port. A port taken between our probe and
 * the service's bind makes the service exit with a PortInUseError; a second free port is then all it takes.
 */
export async function startOnFreePort<T>(preferredPort: number | undefined, start: (port: number) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    const port = attempt === 1 && preferredPort !== undefined && (await isPortFree(preferredPort)) ? preferredPort : await findFreePort();
    try {
      return await start(port);
    } catch (error) {
      if (!(error instanceof PortInUseError) || attempt >= 3) throw error;
    }
  }
}

export type ServiceProcessOptions = {
  /** As the messages name it: `clamd`, `Dovecot`. */
  name: string;
  binary: string;
  args: string[];
  /** The scratch folder; stop() removes it. */
  dir: string;
  /**
   * Its own process group, signalled as a whole: a master process and all its children end at once. A
   * group is also sent SIGTERM, not SIGKILL, when the test process exits, so the master reaps its children.
   */
  processGroup: boolean;
  readyTimeoutMs: number;
  /** True once the service answers as it should when ready. */
  isReady(): Promise<boolean>;
  /** What readiness is, for failure messages: `answering PING` / `answer PING` make "exited before answering PING", "did not answer PING". */
  readiness: { before: string; didNot: string };
  /** The lines a start failure quotes, given the tail of the service's stdout and stderr. */
  readLog(output: string): Promise<string>;
  /** What readLog's lines are, for the failure message: `log`, `output and log`. */
  logName: string;
};

export type ServiceProcess = {
  /** Milliseconds from spawning the service to its first ready answer. */
  startMs: number;
  /** Stops the service and removes its scratch folder; safe to call more than once. */
  stop: () => Promise<void>;
};

/**
 * Spawns the service and resolves once it is ready; a service that exits, cannot be spawned or is not ready
 * in time is stopped, its folder removed, and the error quotes the last lines of its log (a PortInUseError
 * when they say its address was in use).
 */
export async function startServiceProcess(options: ServiceProcessOptions): Promise<ServiceProcess> {
  const { name, binary, args, dir } = options;
  const started = performance.now();
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: options.processGroup });
  // The pipes must be read or the service blocks once they fill; only the tail matters for error messages.
  let output = '';
  const keepTail = (data: Buffer) => {
    output = (output + data.toString('utf8')).slice(-OUTPUT_TAIL_BYTES);
  };
  child.stdout.on('data', keepTail);
  child.stderr.on('data', keepTail);
  // An object, not two lets: TypeScript would otherwise keep them narrowed to their initial values in the loop below.
  const state: { exit: number | string | null; spawnError: Error | null } = { exit: null, spawnError: null };
  const exited = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      state.exit = code ?? signal;
      resolve();
    });
    child.once('error', (error) => {
      state.spawnError = error;
      resolve();
    });
  });
  const signal = (sig: NodeJS.Signals) => {
    if (!options.processGroup) {
      child.kill(sig);
      return;
    }
    if (child.pid === undefined || state.exit !== null) return;
    try {
      process.kill(-child.pid, sig);
    } catch {
      // the group is already gone
    }
  };
  // If the test process ends without stop() (a crash, a killed worker), the service must not outlive it.
  const killOnExit = () => {
    signal(options.processGroup ? 'SIGTERM' : 'SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', killOnExit);

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      process.off('exit', killOnExit);
      if (state.exit === null && state.spawnError === null) {
        signal('SIGTERM');
        const timer = setTimeout(() => signal('SIGKILL'), STOP_TIMEOUT_MS);
        await exited;
        clearTimeout(timer);
      }
      await rm(dir, { recursive: true, force: true });
    })();
    return stopping;
  };

  const failure = async (what: string) => {
    const tail = (await options.readLog(output)).split('\n').slice(-15).join('\n');
    await stop();
    const message = `${what} (${[binary, ...args].join(' ')}). Last lines of its ${options.logName}:\n${tail || '(empty)'}`;
    return /Address already in use/i.test(tail) ? new PortInUseError(message) : new Error(message);
  };

  const deadline = Date.now() + options.readyTimeoutMs;
  for (;;) {
    if (state.spawnError) throw await failure(`${name} could not be started: ${state.spawnError.message}`);
    if (state.exit !== null) throw await failure(`${name} exited (${state.exit}) before ${options.readiness.before}`);
    if (await options.isReady()) break;
    if (Date.now() > deadline) throw await failure(`${name} did not ${options.readiness.didNot} within ${options.readyTimeoutMs / 1000} s`);
    await sleep(20);
  }
  return { startMs: performance.now() - started, stop };
}

/**
 * When the module at `moduleUrl` is the script node was started with, runs `start` and keeps the service
 * until Ctrl-C or SIGTERM stops it; a start that fails prints its message and exits 1.
 */
export function runAsScript(moduleUrl: string, start: () => Promise<Pick<ServiceProcess, 'stop'>>): void {
  if (!process.argv[1] || moduleUrl !== pathToFileURL(path.resolve(process.argv[1])).href) return;
  start().then(
    (service) => {
      const shutdown = () => {
        void service.stop().then(() => process.exit(0));
      };
      process.once('SIGINT', shutdown);
      process.once('SIGTERM', shutdown);
    },
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}

function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port > 0 ? resolve(port) : reject(new Error('no free TCP port on 127.0.0.1'))));
    });
  });
}

function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
