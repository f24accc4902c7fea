import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isNotNull, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createLocalStorage } from '../../src/server/adapters/storage/local-storage';
import { ArchiveError, RestoreRefused, verifyDocuments } from '../../src/server/backup';
import { MIGRATION_FILLED_TABLES } from '../../src/server/backup/backup.repository';
import { openDatabase } from '../../src/server/platform/db/client';
import { documents, settings } from '../../src/server/platform/db/schema';
import {
  backUp,
  flipBit,
  newInstall,
  PASSPHRASE,
  restore,
  runScript,
  scratchFolder,
  seedInstall,
  storedDocuments,
  tableCounts,
  withDatabase,
  ZId,
} from '../support/backup-install';
import { testDatabaseKinds } from '../support/databases';

/**
 * A seeded install (demo data with every document's file encrypted in local storage, and a sealed setting)
 * is backed up, destroyed, and restored into a new database and a new storage folder: every table holds the
 * same rows, every stored file is byte for byte the one that was backed up and opens with the master key
 * to the file that was received. Then what a restore must refuse, and what --verify must catch.
 */

// Each test seeds, backs up and restores a whole install: seconds alone, more on a busy machine.
describe('a backup and its restore', { timeout: 120_000 }, () => {
  it.each(testDatabaseKinds())('on %s with local storage: restored after the install is destroyed, every row and every document as it was', async (kind) => {
    const folder = await scratchFolder();
    const masterKey = randomBytes(32);
    const original = await newInstall(kind, folder, 'original');
    await seedInstall(original, masterKey);
    const before = await withDatabase(original.target, async (db) => ({ counts: await tableCounts(db), stored: await storedDocuments(db, original.storage, masterKey) }));
    expect(before.stored.length).toBeGreaterThan(10);

    const archive = path.join(folder, 'backup.tar.age');
    await backUp(original, archive);
    // Nothing in the archive is readable without the passphrase: no name, no file, no row.
    const bytes = await readFile(archive);
    expect(bytes.subarray(0, 21).toString('latin1')).toBe('age-encryption.org/v1');
    expect(bytes.includes(Buffer.from('documents'))).toBe(false);

    await original.drop();
    await rm(original.storageDir, { recursive: true, force: true });

    const restored = await newInstall(kind, folder, 'restored');
    const summary = await restore(archive, restored);
    expect(summary.files).toBe(before.stored.length);

    await withDatabase(restored.target, async (db) => {
      const { sessions: _sessions, login_attempts: _attempts, ...expected } = before.counts;
      const counts = await tableCounts(db);
      // The same rows in every table, plus the restore's own audit record once the server records it.
      expect({ ...counts, sessions: undefined, login_attempts: undefined }).toEqual({ ...expected, sessions: undefined, login_attempts: undefined });
      expect(await storedDocuments(db, restored.storage, masterKey)).toEqual(before.stored);
      expect(await verifyDocuments(db, restored.storage, masterKey)).toEqual({ checked: before.stored.length, failed: [] });
      const [setting] = await db.select().from(settings).where(sql`${settings.key} = 'backup-test.secret'`);
      expect(JSON.stringify(setting?.value)).not.toContain('a sealed mail password');
      expect(setting?.value).toMatchObject({ secret: { v: 1, hint: '••••word' } });
      // The identity sequences go on after the restored rows: a new audit record takes a new id.
      const result: unknown = await db.execute(sql`insert into audit_events (actor, action, subject_type, detail) values ('system', 'demo.seeded', 'database', '{}') returning id`);
      expect(ZId.parse(result).rows[0]?.id).toBeGreaterThan(before.counts.audit_events ?? 0);
    });
  });

  it('refuses a wrong passphrase, a database that holds data, and a damaged archive, and leaves the database as it was', async () => {
    const folder = await scratchFolder();
    const masterKey = randomBytes(32);
    const original = await newInstall('pglite', folder, 'original');
    await seedInstall(original, masterKey);
    const archive = path.join(folder, 'backup.tar.age');
    await backUp(original, archive);

    const empty = await newInstall('pglite', folder, 'empty');
    await expect(restore(archive, empty, 'not the passphrase at all')).rejects.toThrow(new ArchiveError('The passphrase does not open this backup archive.'));
    await expect(restore(archive, original)).rejects.toThrow(RestoreRefused);

    // One byte changed far into the archive: the restore fails at that chunk and rolls back.
    const damaged = path.join(folder, 'damaged.tar.age');
    const bytes = await readFile(archive);
    flipBit(bytes, Math.floor(bytes.length * 0.6), 0x01);
    await writeFile(damaged, bytes);
    await expect(restore(damaged, empty)).rejects.toThrow('The backup archive is damaged or incomplete');
    // Cut short: the end the archive should have is missing.
    const cut = path.join(folder, 'cut.tar.age');
    await writeFile(cut, (await readFile(archive)).subarray(0, bytes.length - 1000));
    await expect(restore(cut, empty)).rejects.toThrow('The backup archive is damaged or incomplete');
    await withDatabase(empty.target, async (db) => {
      const counts = await tableCounts(db);
      expect(Object.entries(counts).filter(([table, n]) => n > 0 && !(MIGRATION_FILLED_TABLES as readonly string[]).includes(table))).toEqual([]);
    });
    // After the failures, the same empty database takes the good archive.
    expect((await restore(archive, empty)).files).toBeGreaterThan(10);
  });

  it('npm run restore -- --verify restores into a scratch folder and names the one document whose file was damaged in storage', async () => {
    const folder = await scratchFolder();
    const masterKey = randomBytes(32);
    const original = await newInstall('pglite', folder, 'original');
    await seedInstall(original, masterKey);
    // Bit rot in storage: one stored file changes by one byte, unnoticed until it is opened.
    const victim = await withDatabase(original.target, async (db) => {
      const [row] = await db.select({ id: documents.id, key: documents.storageKey }).from(documents).where(isNotNull(documents.storageKey)).orderBy(documents.id).limit(1);
      return row as { id: string; key: string };
    });
    const file = path.join(original.storageDir, victim.key);
    const stored = await readFile(file);
    flipBit(stored, Math.floor(stored.length / 2), 0x40);
    await writeFile(file, stored);

    const archive = path.join(folder, 'backup.tar.age');
    await backUp(original, archive);
    const keyFile = path.join(folder, 'master.key');
    await writeFile(keyFile, `${masterKey.toString('base64')}\n`, { mode: 0o600 });
    const live = path.join(folder, 'live-data');
    const run = await runScript('scripts/restore.ts', [archive, '--verify', '--master-key-file', keyFile], { CLEARBASE_DATA_DIR: live, CLEARBASE_BACKUP_PASSPHRASE: PASSPHRASE });
    expect(run.stdout).toContain('The archive reads whole');
    expect(run.stderr).toContain(`1 of `);
    expect(run.stderr).toContain(`document ${victim.id}: its file does not open`);
    expect(run.code).toBe(1);
    // The live data folder was never touched.
    await expect(readFile(path.join(live, 'master.key'))).rejects.toThrow();
  });
});

describe('npm run backup', { timeout: 120_000 }, () => {
  it('writes one named archive into the folder, leaves no partial file, keeps the newest N, and refuses a short passphrase or a PGlite database in use', async () => {
    const folder = await scratchFolder();
    const dataDir = path.join(folder, 'data');
    const masterKey = randomBytes(32);
    // An install as `npm start` lays it out with PGlite: <data>/db and <data>/storage.
    await seedInstall({ target: { kind: 'pglite', dir: path.join(dataDir, 'db') }, storage: createLocalStorage(path.join(dataDir, 'storage')), storageDir: path.join(dataDir, 'storage'), drop: () => Promise.resolve() }, masterKey);
    const backups = path.join(folder, 'backups');
    // Two older archives of another day, and a file that is not a backup: --keep 2 removes the oldest archive only.
    await mkdir(backups, { recursive: true });
    await writeFile(path.join(backups, 'clearbase-backup-2020-01-01T00-00-00Z.tar.age'), 'old');
    await writeFile(path.join(backups, 'clearbase-backup-2020-01-02T00-00-00Z.tar.age'), 'old');
    await writeFile(path.join(backups, 'notes.txt'), 'keep me');
    const env = { CLEARBASE_DATA_DIR: dataDir, CLEARBASE_EMBEDDED_DATABASE: 'pglite' };

    // While another process has the PGlite database open (a running server), nothing is read.
    const holder = await openDatabase({ kind: 'pglite', dir: path.join(dataDir, 'db') });
    try {
      const refused = await runScript('scripts/backup.ts', [backups], { ...env, CLEARBASE_BACKUP_PASSPHRASE: PASSPHRASE });
      expect(refused.stderr).toContain(`Nothing was backed up: Clearbase (process ${process.pid}) is using its PGlite database. Stop it, then run the backup again.`);
      expect(refused.code).toBe(1);
    } finally {
      await holder.close();
    }
    expect((await readdir(backups)).sort()).toEqual(['clearbase-backup-2020-01-01T00-00-00Z.tar.age', 'clearbase-backup-2020-01-02T00-00-00Z.tar.age', 'notes.txt']);

    const short = await runScript('scripts/backup.ts', [backups], { ...env, CLEARBASE_BACKUP_PASSPHRASE: 'too short' });
    expect(short.code).toBe(2);
    expect(short.stderr).toContain('CLEARBASE_BACKUP_PASSPHRASE: must be at least 12 characters');

    const run = await runScript('scripts/backup.ts', [backups, '--keep', '2'], { ...env, CLEARBASE_BACKUP_PASSPHRASE: PASSPHRASE });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Done in [\d.]+ s: [\d,]+ rows of \d+ tables and [\d,]+ files/);
    const files = (await readdir(backups)).sort();
    expect(files).toHaveLength(3);
    expect(files).toContain('notes.txt');
    expect(files).toContain('clearbase-backup-2020-01-02T00-00-00Z.tar.age');
    const made = files.find((file) => /^clearbase-backup-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}Z\.tar\.age$/.test(file) && !file.startsWith('clearbase-backup-2020'));
    expect(made).toBeDefined();
    expect((await stat(path.join(backups, made ?? ''))).mode & 0o777).toBe(0o600);

    // What it wrote restores.
    const restored = await newInstall('pglite', folder, 'restored');
    expect((await restore(path.join(backups, made ?? ''), restored)).files).toBeGreaterThan(10);
  });
});
describe('a new database', () => {
  it('holds rows only in the tables a restore knows the migrations fill', async () => {
    const database = await openDatabase({ kind: 'pglite', dir: undefined });
    try {
      const filled = Object.entries(await tableCounts(database.db))
        .filter(([, n]) => n > 0)
        .map(([table]) => table);
      expect(filled.sort()).toEqual([...MIGRATION_FILLED_TABLES].sort());
    } finally {
      await database.close();
    }
  });
});
