import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './client';
import { createdPglite, startCreatingPglite } from './pglite-create';

/** One row's one column, asked of the PGlite underneath. */
async function one(database: Database, query: string): Promise<unknown> {
  if (database.driver.kind !== 'pglite') throw new Error('expected PGlite');
  const { rows } = await database.driver.pglite.query<Record<string, unknown>>(query);
  return Object.values(rows[0] ?? {})[0];
}

/** initdb is seconds of WebAssembly, many more on a busy machine. */
const CREATING = { timeout: 240_000 };

describe('creating the embedded database in a process of its own', () => {
  let root = '';
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'cb-pglite-create-'));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('creates a new database in its folder, with the small buffer pool, and leaves no temporary folder', CREATING, async () => {
    const dir = path.join(root, 'data', 'db');
    startCreatingPglite(dir);
    await createdPglite(dir);
    expect((await readFile(path.join(dir, 'PG_VERSION'), 'utf8')).trim()).toMatch(/^\d+$/);
    expect(await readFile(path.join(dir, 'postgresql.conf'), 'utf8')).toMatch(/^shared_buffers = 32MB/m);
    expect(await readdir(path.join(root, 'data'))).toEqual(['db']);

    // openDatabase takes the created database as it is, migrates it and runs with the same settings.
    const database = await openDatabase({ kind: 'pglite', dir });
    try {
      expect(await one(database, 'show shared_buffers')).toBe('32MB');
      expect(await one(database, "select count(*)::int from information_schema.tables where table_name = 'documents'")).toBe(1);
    } finally {
      await database.close();
    }
  });

  it('opens a folder nobody began creating: openDatabase creates it in the thread itself', CREATING, async () => {
    const dir = path.join(root, 'second', 'db');
    const database = await openDatabase({ kind: 'pglite', dir });
    await database.close();
    expect(await readdir(path.join(root, 'second'))).toEqual(['db']);
    // A second start finds the database there, and leaves it alone.
    startCreatingPglite(dir);
    await createdPglite(dir);
    const again = await openDatabase({ kind: 'pglite', dir });
    try {
      expect(await one(again, 'show shared_buffers')).toBe('32MB');
    } finally {
      await again.close();
    }
  });
});
