import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sendClamdCommand } from '../../src/server/adapters/antivirus/clamd';
import { findSystemBinary, runAsScript, startOnFreePort, startServiceProcess } from './service-process';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SERVICE_DIR = path.join(ROOT, 'tests/services/clamd');
const READY_TIMEOUT_MS = 30_000;
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
  /**
   * The unix socket, in a folder the caller owns, instead of one in the scratch folder: a test that stops clamd and
   * starts it again passes the same path, so the server finds it where it was (a TCP port, once free, may be taken
   * by another test's clamd meanwhile).
   */
  socketPath?: string;
};

/**
 * Starts a private clamd whose database is only the EICAR test signature (offline: the official databases
 * cannot be downloaded), listening on a unix socket in a fresh scratch folder and on 127.0.0.1.
 */
export async function startClamd(options: StartClamdOptions = {}): Promise<StartedClamd> {
  const streamMaxLength = options.streamMaxLength ?? '100M';
  if (!/^\d+[KM]?$/i.test(streamMaxLength)) throw new Error(`streamMaxLength must look like 100M or 512K, got ${streamMaxLength}`);
  const binary = findSystemBinary('clamd', INSTALL_HINT);
  return startOnFreePort(options.tcpPort, (port) => startOnce(binary, port, streamMaxLength, options.socketPath));
}

async function startOnce(binary: string, port: number, streamMaxLength: string, chosenSocket: string | undefined): Promise<StartedClamd> {
  const dir = await mkdtemp(path.join(tmpdir(), 'clearbase-clamd-'));
  await mkdir(path.join(dir, 'db'));
  await mkdir(path.join(dir, 'run'));
  await copyFile(path.join(SERVICE_DIR, 'eicar.ndb'), path.join(dir, 'db', 'eicar.ndb'));
  const template = await readFile(path.join(SERVICE_DIR, 'clamd.conf.template'), 'utf8');
  const socketPath = chosenSocket ?? path.join(dir, 'run', 'clamd.sock');
  // A socket file left by a clamd that was killed would stop the new one from listening there.
  if (chosenSocket) await rm(chosenSocket, { force: true });
  const runningAsRoot = process.getuid?.() === 0;
  const config = template
    .replaceAll('@SOCKET@', socketPath)
    .replaceAll('@DIR@', dir)
    .replaceAll('@PORT@', String(port))
    .replaceAll('@STREAM_MAX_LENGTH@', streamMaxLength)
    .split('\n')
    .filter((line) => runningAsRoot || !/^User\s/.test(line))
    .join('\n');
  const configPath = path.join(dir, 'clamd.conf');
  await writeFile(configPath, config);

  // Linux caps a unix socket path at 107 bytes; clamd's own error for that does not say so.
  if (Buffer.byteLength(socketPath) > 107) {
    await rm(dir, { recursive: true, force: true });
    throw new Error(`The clamd socket path ${socketPath} is longer than the 107 bytes a unix socket allows: set TMPDIR to a shorter folder`);
  }
  const url = `unix:${socketPath}`;
  const service = await startServiceProcess({
    name: 'clamd',
    binary,
    args: ['-c', configPath],
    dir,
    processGroup: false,
    readyTimeoutMs: READY_TIMEOUT_MS,
    isReady: async () => (await sendClamdCommand(url, 'PING', 1_000).catch(() => '')) === 'PONG',
    readiness: { before: 'answering PING', didNot: 'answer PING' },
    readLog: async (output) => output.trim() || (await readFile(path.join(dir, 'run', 'clamd.log'), 'utf8').catch(() => '')),
    logName: 'log',
  });
  return { url, tcpUrl: `tcp://127.0.0.1:${port}`, startMs: service.startMs, stop: service.stop };
}

async function main(): Promise<StartedClamd> {
  const clamd = await startClamd({ tcpPort: 3310 });
  process.stdout.write(`clamd ready in ${clamd.startMs.toFixed(0)} ms\n  ${clamd.url}\n  ${clamd.tcpUrl}\nCtrl-C stops it.\n`);
  return clamd;
}

runAsScript(import.meta.url, main);
