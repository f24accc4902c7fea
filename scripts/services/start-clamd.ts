import { spawn } from 'node:child_process';
import { accessSync, constants, rmSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { sendClamdCommand } from '../../src/server/adapters/antivirus/clamd';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SERVICE_DIR = path.join(ROOT, 'tests/services/clamd');
const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 5_000;
const OUTPUT_TAIL_BYTES = 8 * 1024;
const INSTALL_HINT = 'apt-get install -y --no-install-recommends clamav-daemon clamdscan clamav-testfiles';

export type StartedClamd = {
  /** `unix:/…/clamd.sock` in the scratch folder: it cannot clash with another clamd, so use it by default. */
  url: string;
  /** `tcp://127.0.0.1:<port>` of the same clamd, for tests of the TCP transport. */
  tcpUrl: string;
  /** Milliseconds from spawning clamd to its first PONG. */
  startMs: number;
  /** Kills clamd and removes its scratch folder; safe to call more than once. */
  stop(): Promise<void>;
};

export type StartClamdOptions = {
  /** clamd's StreamMaxLength (`100M`, `512K`, …): small values let tests provoke the size-limit answer. */
  streamMaxLength?: string;
  /** TCP port to try first; a busy or absent one means any free port. */
  tcpPort?: number;
};

/**
 * Starts a private clamd whose database is only the EICAR test signature (offline: the official databases
 * cannot be downloaded), listening on a unix socket in a fresh scratch folder and on 127.0.0.1.
 */
export async function startClamd(options: StartClamdOptions = {}): Promise<StartedClamd> {
  const streamMaxLength = options.streamMaxLength ?? '100M';
  if (!/^\d+[KM]?$/i.test(streamMaxLength)) throw new Error(`streamMaxLength must look like 100M or 512K, got ${streamMaxLength}`);
  const binary = findClamd();
  // A port taken between our probe and clamd's bind makes clamd exit; a second free port is then all it takes.
  for (let attempt = 1; ; attempt += 1) {
    const port = attempt === 1 && options.tcpPort !== undefined && (await isPortFree(options.tcpPort)) ? options.tcpPort : await findFreePort();
    try {
      return await startOnce(binary, port, streamMaxLength);
    } catch (error) {
      if (!(error instanceof PortInUseError) || attempt >= 3) throw error;
    }
  }
}

class PortInUseError extends Error {}

async function startOnce(binary: string, port: number, streamMaxLength: string): Promise<StartedClamd> {
  const dir = await mkdtemp(path.join(tmpdir(), 'clearbase-clamd-'));
  await mkdir(path.join(dir, 'db'));
  await mkdir(path.join(dir, 'run'));
  await copyFile(path.join(SERVICE_DIR, 'eicar.ndb'), path.join(dir, 'db', 'eicar.ndb'));
  const template = await readFile(path.join(SERVICE_DIR, 'clamd.conf.template'), 'utf8');
  const runningAsRoot = process.getuid?.() === 0;
  const config = template
    .replaceAll('@DIR@', dir)
    .replaceAll('@PORT@', String(port))
    .replaceAll('@STREAM_MAX_LENGTH@', streamMaxLength)
    .split('\n')
    .filter((line) => runningAsRoot || !/^User\s/.test(line))
    .join('\n');
  const configPath = path.join(dir, 'clamd.conf');
  await writeFile(configPath, config);

  const socketPath = path.join(dir, 'run', 'clamd.sock');
  // Linux caps a unix socket path at 107 bytes; clamd's own error for that does not say so.
  if (Buffer.byteLength(socketPath) > 107) {
    await rm(dir, { recursive: true, force: true });
    throw new Error(`The clamd socket path ${socketPath} is longer than the 107 bytes a unix socket allows: set TMPDIR to a shorter folder`);
  }
  const url = `unix:${socketPath}`;
  const started = performance.now();
  const child = spawn(binary, ['-c', configPath], { stdio: ['ignore', 'pipe', 'pipe'] });
  // The pipes must be read or clamd blocks once they fill; only the tail matters for error messages.
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
  // If the test process ends without stop() (a crash, a killed worker), clamd must not outlive it.
  const killOnExit = () => {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', killOnExit);

  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      process.off('exit', killOnExit);
      if (state.exit === null && state.spawnError === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
        await exited;
        clearTimeout(timer);
      }
      await rm(dir, { recursive: true, force: true });
    })();
    return stopping;
  };

  const failure = async (what: string) => {
    const tail = (output.trim() || (await readFile(path.join(dir, 'run', 'clamd.log'), 'utf8').catch(() => ''))).split('\n').slice(-15).join('\n');
    await stop();
    const message = `${what} (${binary} -c ${configPath}). Last lines of its log:\n${tail || '(empty)'}`;
    return /Address already in use/i.test(tail) ? new PortInUseError(message) : new Error(message);
  };

  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (state.spawnError) throw await failure(`clamd could not be started: ${state.spawnError.message}`);
    if (state.exit !== null) throw await failure(`clamd exited (${state.exit}) before answering PING`);
    const pong = await sendClamdCommand(url, 'PING', 1_000).catch(() => '');
    if (pong === 'PONG') break;
    if (Date.now() > deadline) throw await failure(`clamd did not answer PING within ${READY_TIMEOUT_MS / 1000} s`);
    await sleep(20);
  }

  return { url, tcpUrl: `tcp://127.0.0.1:${port}`, startMs: performance.now() - started, stop };
}

/** clamd lives in /usr/sbin, which is not on every user's PATH. */
function findClamd(): string {
  const directories = [...(process.env.PATH ?? '').split(path.delimiter), '/usr/sbin', '/usr/local/sbin'].filter(Boolean);
  for (const directory of directories) {
    const candidate = path.join(directory, 'clamd');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here; try the next directory
    }
  }
  throw new Error(`clamd is not installed. Install it with: ${INSTALL_HINT}`);
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

async function main(): Promise<void> {
  const clamd = await startClamd({ tcpPort: 3310 });
  process.stdout.write(`clamd ready in ${clamd.startMs.toFixed(0)} ms\n  ${clamd.url}\n  ${clamd.tcpUrl}\nCtrl-C stops it.\n`);
  const shutdown = () => {
    void clamd.stop().then(() => process.exit(0));
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
