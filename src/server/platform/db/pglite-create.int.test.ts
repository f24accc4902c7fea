import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from './client';
import { createdPglite, startCreatingPglite } from './pglite-create';

/** initdb is seconds of WebAssembly, many more on a busy machine. */
const CREATING = { timeout: 240_000 };

describe('creating the embedded database in a thread', () => {
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
      const shown = await database.db.execute<{ shared_buffers: string }>(sql`show shared_buffers`);
      expect(shown.rows[0]?.shared_buffers).toBe('32MB');
      const migrated = await database.db.execute<{ n: number }>(sql`select count(*)::int as n from information_schema.tables where table_name = 'documents'`);
      expect(migrated.rows[0]?.n).toBe(1);
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
      const shown = await again.db.execute<{ shared_buffers: string }>(sql`show shared_buffers`);
      expect(shown.rows[0]?.shared_buffers).toBe('32MB');
    } finally {
      await again.close();
    }
  });
});
