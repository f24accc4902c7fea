import { spawn, type ChildProcess } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Storage } from '../../src/server/adapters/storage/port';
import { CONFIG_VARIABLES } from '../../src/server/platform/config';
import { decryptToBuffer } from '../../src/server/platform/crypto/envelope';
import type { DocumentRow } from '../../src/server/documents/documents.repository';

/**
 * The real server (`src/server/main.ts`, as `npm start` runs it) in a child process, for tests that must
 * SIGKILL it: a crash is only a crash when the process dies with nothing run after it.
 */

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const HEALTHY_WITHIN_MS = 30_000;

export type ChildServer = {
  /** Where it listens: `http://127.0.0.1:<port>`. */
  url: string;
  /** SIGKILL (no shutdown hook runs), and resolves once the process is gone; a no-op when it already is. */
  kill(): Promise<void>;
  /** The tail of its stdout and stderr, for a failure message. */
  output(): string;
};

/**
 * The environment of a server: this process's, with every Clearbase setting emptied (empty means unset,
 * so nothing from the developer's shell reaches it), then `settings`.
 */
export function childServerEnv(settings: Record<string, string>): NodeJS.ProcessEnv {
  return { ...process.env, ...Object.fromEntries(CONFIG_VARIABLES.map((name) => [name, ''])), NODE_ENV: 'test', ...settings };
}

/**
 * Starts the server with `env` (HOST must be 127.0.0.1 and PORT set) and resolves once /healthz answers.
 * Every server started is pushed to `started`, so an afterAll can kill whatever a failed test left.
 * `entry` is the script to run, relative to the repository: the server itself, or a test's entry around it;
 * `healthyWithinMs` how long it may take (a first start that seeds demo data takes longer).
 */
export async function startChildServer(
  env: NodeJS.ProcessEnv,
  started: ChildServer[],
  options: { entry?: string; healthyWithinMs?: number } = {},
): Promise<ChildServer> {
  const entry = options.entry ?? 'src/server/main.ts';
  const healthyWithinMs = options.healthyWithinMs ?? HEALTHY_WITHIN_MS;
  const port = env.PORT ?? '';
  if (env.HOST !== '127.0.0.1' || !/^\d+$/.test(port)) throw new Error('startChildServer needs HOST=127.0.0.1 and a PORT');
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', entry], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const server: ChildServer = {
    url,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    output: () => output,
  };
  started.push(server);

  const deadline = performance.now() + healthyWithinMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode} before it was healthy:\n${output}`);
    const healthy = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1_000) }).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) return server;
    if (performance.now() > deadline) {
      await server.kill();
      throw new Error(`server not healthy within ${healthyWithinMs / 1000} s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A TCP port free on 127.0.0.1 right now. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve, reject) => probe.close((error) => (error ? reject(error) : resolve())));
  return port;
}

/** Signs in with the shared password and answers the session cookie (`name=value`) to send with each call. */
export async function signIn(url: string, password: string): Promise<string> {
  const response = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ password }),
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) throw new Error(`sign-in answered ${response.status}: ${await response.text()}`);
  const cookie = response.headers.getSetCookie().map((line) => line.split(';')[0] ?? '').find((pair) => pair.includes('='));
  if (!cookie) throw new Error('sign-in set no cookie');
  return cookie;
}

/** The master key the server created in its data folder, to decrypt what it stored. */
export async function readMasterKey(dataDir: string): Promise<Buffer> {
  return Buffer.from((await readFile(path.join(dataDir, 'master.key'), 'utf8')).trim(), 'base64');
}

/** A stored document's object, decrypted with the master key. */
export async function readDecrypted(storage: Storage, document: DocumentRow, masterKey: Buffer): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of (await storage.get(document.storageKey ?? '')) as AsyncIterable<Buffer>) chunks.push(chunk);
  const envelope = { wrappedKey: document.wrappedKey ?? Buffer.alloc(0), iv: document.iv ?? Buffer.alloc(0), authTag: document.authTag ?? Buffer.alloc(0) };
  return decryptToBuffer(masterKey, envelope, Buffer.concat(chunks));
}

/** The keys of every object under `prefix` in storage. */
export async function listKeys(storage: Storage, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of storage.list(prefix)) keys.push(object.key);
  return keys;
}

/** Regular files under a directory, temporary ones included: what is really on the disk. */
export async function countFiles(directory: string): Promise<number> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).length;
}
