import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { isNotNull, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createLocalStorage } from '../../src/server/adapters/storage/local-storage';
import { createS3Storage } from '../../src/server/adapters/storage/s3-storage';
import type { Storage } from '../../src/server/adapters/storage/port';
import { ArchiveError, createBackup, restoreBackup, RestoreRefused, verifyDocuments, writeBackup } from '../../src/server/backup';
import { bucketDestination } from '../../src/server/backup/destination';
import { MIGRATION_FILLED_TABLES, tableShapes } from '../../src/server/backup/backup.repository';
import { DEMO_DEFAULTS, seedDemoDataIfEmpty } from '../../src/server/demo';
import { decryptToBuffer } from '../../src/server/platform/crypto/envelope';
import { sealSecret } from '../../src/server/platform/crypto/secret-box';
import { openDatabase, type Database, type DatabaseTarget, type Db } from '../../src/server/platform/db/client';
import { documents, settings } from '../../src/server/platform/db/schema';
import { createScratchPostgresDatabase, testDatabaseKinds, type TestDatabaseKind } from '../support/databases';
import { S3RVER_CLIENT, startS3rver } from '../support/s3rver';

/**
 * A seeded install (demo data with every document's file encrypted in local storage, and a sealed setting)
 * is backed up, destroyed, and restored into a new database and a new storage folder: every table holds the
 * same rows, every stored file is byte for byte the one that was backed up and opens with the master key
 * to the file that was received. Then what a restore must refuse, and what --verify must catch.
 */

const PASSPHRASE = 'a long backup passphrase for the test';
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const WORK_FACTOR = 10; // age's scrypt at 2^10: the archive's format and checks are the same, in milliseconds.

const ZCount = z.object({ rows: z.array(z.object({ n: z.number() })) });
const ZId = z.object({ rows: z.array(z.object({ id: z.coerce.number() })) });

type Install = { target: DatabaseTarget; storage: Storage; storageDir: string; drop(): Promise<void> };

const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

async function scratchFolder(): Promise<string> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'clearbase-backup-test-'));
  cleanups.push(() => rm(folder, { recursive: true, force: true }));
  return folder;
}

/** A database in a folder of its own (PGlite) or a new database on the PostgreSQL server, and a storage folder. */
async function newInstall(kind: TestDatabaseKind, folder: string, name: string): Promise<Install> {
  const storageDir = path.join(folder, `${name}-storage`);
  const storage = createLocalStorage(storageDir);
  if (kind === 'pglite') {
    const dir = path.join(folder, `${name}-db`);
    return { target: { kind: 'pglite', dir }, storage, storageDir, drop: () => rm(dir, { recursive: true, force: true }) };
  }
  const scratch = await createScratchPostgresDatabase();
  cleanups.push(() => scratch.drop());
  return { target: { kind: 'postgres', url: scratch.url }, storage, storageDir, drop: () => scratch.drop() };
}

async function withDatabase<T>(target: DatabaseTarget, work: (db: Db, database: Database) => Promise<T>): Promise<T> {
  const database = await openDatabase(target);
  try {
    return await work(database.db, database);
  } finally {
    await database.close();
  }
}

async function tableCounts(db: Db): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const shape of await tableShapes(db)) {
    const result: unknown = await db.execute(sql.raw(`select count(*)::int as n from "${shape.name}"`));
    counts[shape.name] = ZCount.parse(result).rows[0]?.n ?? 0;
  }
  return counts;
}

type StoredDocument = { id: string; key: string; ciphertext: string; plaintext: string };

/** Each stored document: the SHA-256 of its stored bytes and of the file they open to with the master key. */
async function storedDocuments(db: Db, storage: Storage, masterKey: Buffer): Promise<StoredDocument[]> {
  const rows = await db
    .select({ id: documents.id, key: documents.storageKey, wrappedKey: documents.wrappedKey, iv: documents.iv, authTag: documents.authTag, sha256: documents.fileSha256 })
    .from(documents)
    .where(isNotNull(documents.storageKey))
    .orderBy(documents.id);
  const stored: StoredDocument[] = [];
  for (const row of rows) {
    if (!row.key || !row.wrappedKey || !row.iv || !row.authTag) throw new Error(`document ${row.id} has no envelope`);
    const chunks: Buffer[] = [];
    for await (const chunk of await storage.get(row.key)) chunks.push(chunk as Buffer);
    const ciphertext = Buffer.concat(chunks);
    const plaintext = await decryptToBuffer(masterKey, { wrappedKey: row.wrappedKey, iv: row.iv, authTag: row.authTag }, ciphertext);
    const plaintextSha = createHash('sha256').update(plaintext).digest('hex');
    expect(plaintextSha).toBe(row.sha256);
    stored.push({ id: row.id, key: row.key, ciphertext: createHash('sha256').update(ciphertext).digest('hex'), plaintext: plaintextSha });
  }
  return stored;
}

async function seedInstall(install: Install, masterKey: Buffer): Promise<void> {
  await withDatabase(install.target, async (db) => {
    const seeded = await seedDemoDataIfEmpty(db, { ...DEMO_DEFAULTS, players: 12, idPrefix: 'CB', now: new Date('2025-10-01T12:00:00Z'), files: { storage: install.storage, masterKey } });
    expect(seeded.seeded).toBe(true);
    await db.insert(settings).values({ key: 'backup-test.secret', value: { secret: sealSecret(masterKey, 'a sealed mail password', '••••word') } });
  });
}

async function backUp(install: Install, file: string): Promise<void> {
  await withDatabase(install.target, async (db) => {
    const out = createWriteStream(file);
    const summary = await createBackup({ db, storage: install.storage, storageFor: () => install.storage }, out, PASSPHRASE, { workFactor: WORK_FACTOR });
    await finished(out);
    expect(summary.files).toBeGreaterThan(10);
    expect(summary.missingFiles).toBe(0);
  });
}

function restore(archive: string, install: Install, passphrase = PASSPHRASE) {
  return restoreBackup(createReadStream(archive), passphrase, { open: (migrations) => openDatabase(install.target, { migrations }), storage: install.storage });
}

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

describe('a backup in an S3 bucket', { timeout: 180_000 }, () => {
  it('npm run backup -- s3://bucket/folder writes one archive there and keeps the newest N; npm run restore reads it back from the bucket, every document as it was', async () => {
    const s3 = await startS3rver();
    cleanups.push(() => s3.stop());
    const bucket = createS3Storage({ ...S3RVER_CLIENT, endpoint: s3.endpoint, bucket: s3.bucket });
    const keysIn = async (folder: string) => {
      const keys: string[] = [];
      for await (const object of bucket.list(folder)) keys.push(object.key);
      return keys.sort();
    };
    const folder = await scratchFolder();
    const masterKey = randomBytes(32);
    const original: Install = { target: { kind: 'pglite', dir: path.join(folder, 'data', 'db') }, storage: createLocalStorage(path.join(folder, 'data', 'storage')), storageDir: path.join(folder, 'data', 'storage'), drop: () => Promise.resolve() };
    await seedInstall(original, masterKey);
    const originalDocuments = await withDatabase(original.target, (db) => storedDocuments(db, original.storage, masterKey));
    // Two older archives, one in a folder below, and an object that is not a backup: --keep 2 removes the oldest only.
    for (const key of ['backups/clearbase-backup-2020-01-01T00-00-00Z.tar.age', 'backups/clearbase-backup-2020-01-02T00-00-00Z.tar.age', 'backups/older/clearbase-backup-2019-01-01T00-00-00Z.tar.age', 'backups/notes.txt']) {
      await bucket.put(key, Buffer.from('not this backup'));
    }
    // The SDK's own notice (Node.js 20 loses its support in 2027) is printed once a process; the test reads the script's words.
    const s3Env = { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', S3_ENDPOINT: s3.endpoint, S3_REGION: S3RVER_CLIENT.region, S3_ACCESS_KEY_ID: S3RVER_CLIENT.accessKeyId, S3_SECRET_ACCESS_KEY: S3RVER_CLIENT.secretAccessKey, S3_FORCE_PATH_STYLE: 'true' };
    const env = { ...s3Env, CLEARBASE_DATA_DIR: path.join(folder, 'data'), CLEARBASE_EMBEDDED_DATABASE: 'pglite', CLEARBASE_BACKUP_PASSPHRASE: PASSPHRASE };

    const missing = await runScript('scripts/backup.ts', ['s3://no-such-bucket/backups'], env);
    expect(missing.stderr).toContain('Nothing was backed up: Clearbase cannot reach s3://no-such-bucket/backups: there is no such bucket (NoSuchBucket).');
    expect(missing.stderr).not.toContain(S3RVER_CLIENT.secretAccessKey);
    expect(missing.code).toBe(1);
    const bare = await runScript('scripts/backup.ts', [`s3://${s3.bucket}`], env);
    expect(bare.stderr).toContain(`Nothing was backed up: Name a folder in the bucket too, such as s3://${s3.bucket}/clearbase`);
    expect(bare.code).toBe(1);

    const run = await runScript('scripts/backup.ts', [`s3://${s3.bucket}/backups/`, '--keep', '2'], env);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const made = /Writing s3:\/\/[^/]+\/backups\/(clearbase-backup-[^…]+\.tar\.age)…/.exec(run.stdout)?.[1];
    expect(made).toBeDefined();
    expect(run.stdout).toContain('Removed 1 older backup, keeping the 2 newest.');
    expect(await keysIn('backups')).toEqual(
      ['backups/clearbase-backup-2020-01-02T00-00-00Z.tar.age', `backups/${made}`, 'backups/notes.txt', 'backups/older/clearbase-backup-2019-01-01T00-00-00Z.tar.age'].sort(),
    );

    // Restored from the bucket into a new data folder: every document opens, byte for byte the one backed up.
    const keyFile = path.join(folder, 'master.key');
    await writeFile(keyFile, `${masterKey.toString('base64')}\n`, { mode: 0o600 });
    const restoredDir = path.join(folder, 'restored');
    const restored = await runScript('scripts/restore.ts', [`s3://${s3.bucket}/backups/${made}`, '--master-key-file', keyFile], { ...s3Env, CLEARBASE_DATA_DIR: restoredDir, CLEARBASE_EMBEDDED_DATABASE: 'pglite', CLEARBASE_BACKUP_PASSPHRASE: PASSPHRASE });
    expect(restored.stderr).toBe('');
    expect(restored.stdout).toContain('Every document opens and matches what was received');
    expect(restored.code).toBe(0);
    const restoredStorage = createLocalStorage(path.join(restoredDir, 'storage'));
    expect(await withDatabase({ kind: 'pglite', dir: path.join(restoredDir, 'db') }, (db) => storedDocuments(db, restoredStorage, masterKey))).toEqual(originalDocuments);

    const absent = await runScript('scripts/restore.ts', [`s3://${s3.bucket}/backups/clearbase-backup-2021-01-01T00-00-00Z.tar.age`, '--verify', '--master-key-file', keyFile], env);
    expect(absent.stderr).toContain('object not found: backups/clearbase-backup-2021-01-01T00-00-00Z.tar.age');
    expect(absent.code).toBe(1);
  });

  it('with documents in S3, --s3-versions names each file by its version instead of copying it; a restore reads them from the bucket, or leaves them where they are, and refuses once one changed in a bucket that keeps no versions', async () => {
    const s3 = await startS3rver();
    cleanups.push(() => s3.stop());
    const bucket = createS3Storage({ ...S3RVER_CLIENT, endpoint: s3.endpoint, bucket: s3.bucket });
    let folders: string[] = [];
    const inBucket = async () => {
      const objects: string[] = [];
      for (const top of folders) for await (const object of bucket.list(top)) objects.push(`${object.key} ${object.lastModified.toISOString()}`);
      return objects.sort();
    };
    const folder = await scratchFolder();
    const masterKey = randomBytes(32);
    const dataDir = path.join(folder, 'data');
    const original: Install = { target: { kind: 'pglite', dir: path.join(dataDir, 'db') }, storage: bucket, storageDir: '', drop: () => Promise.resolve() };
    await seedInstall(original, masterKey);
    const originalDocuments = await withDatabase(original.target, (db) => storedDocuments(db, bucket, masterKey));
    folders = [...new Set(originalDocuments.map((document) => document.key.split('/')[0] ?? ''))];
    const objectsBefore = await inBucket();
    expect(objectsBefore.length).toBe(originalDocuments.length);

    const s3Env = { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', S3_ENDPOINT: s3.endpoint, S3_REGION: S3RVER_CLIENT.region, S3_ACCESS_KEY_ID: S3RVER_CLIENT.accessKeyId, S3_SECRET_ACCESS_KEY: S3RVER_CLIENT.secretAccessKey, S3_FORCE_PATH_STYLE: 'true' };
    const inS3 = { ...s3Env, STORAGE_DRIVER: 's3', S3_BUCKET: s3.bucket, CLEARBASE_EMBEDDED_DATABASE: 'pglite', CLEARBASE_BACKUP_PASSPHRASE: PASSPHRASE };
    const backups = path.join(folder, 'backups');
    const run = await runScript('scripts/backup.ts', [backups, '--s3-versions'], { ...inS3, CLEARBASE_DATA_DIR: dataDir });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`and 0 files (0.0 MB)`);
    expect(run.stdout).toContain(`${originalDocuments.length} files stay in s3://${s3.bucket}, named in the archive by their version.`);
    // s3rver keeps no versions, as a bucket whose versioning was never turned on.
    expect(run.stdout).toContain(`The bucket keeps no versions of ${originalDocuments.length} of them`);
    const [archive] = await readdir(backups);
    const keyFile = path.join(folder, 'master.key');
    await writeFile(keyFile, `${masterKey.toString('base64')}\n`, { mode: 0o600 });

    // Into local storage: every file is read from the bucket, byte for byte the one backed up.
    const localDir = path.join(folder, 'restored-local');
    const local = await runScript('scripts/restore.ts', [path.join(backups, archive ?? ''), '--master-key-file', keyFile], { ...s3Env, CLEARBASE_DATA_DIR: localDir, CLEARBASE_EMBEDDED_DATABASE: 'pglite', CLEARBASE_BACKUP_PASSPHRASE: PASSPHRASE });
    expect(local.stderr).toBe('');
    expect(local.stdout).toContain('Every document opens and matches what was received');
    expect(local.code).toBe(0);
    const localStorage = createLocalStorage(path.join(localDir, 'storage'));
    expect(await withDatabase({ kind: 'pglite', dir: path.join(localDir, 'db') }, (db) => storedDocuments(db, localStorage, masterKey))).toEqual(originalDocuments);

    // Into a new database over the same bucket: the files are where the backup found them, and stay untouched.
    const sameDir = path.join(folder, 'restored-same-bucket');
    const same = await runScript('scripts/restore.ts', [path.join(backups, archive ?? ''), '--master-key-file', keyFile], { ...inS3, CLEARBASE_DATA_DIR: sameDir });
    expect(same.stderr).toBe('');
    expect(same.stdout).toContain('Every document opens and matches what was received');
    expect(await inBucket()).toEqual(objectsBefore);

    // One file overwritten in a bucket that keeps no versions: the backup cannot bring it back, and says so.
    const changed = (objectsBefore[0] ?? '').split(' ')[0] ?? '';
    await bucket.put(changed, randomBytes(100));
    const refused = await runScript('scripts/restore.ts', [path.join(backups, archive ?? ''), '--verify', '--master-key-file', keyFile], { ...inS3, CLEARBASE_DATA_DIR: path.join(folder, 'unused') });
    expect(refused.stderr).toContain(`The restore failed: The file ${changed} in s3://${s3.bucket} was changed or removed after the backup, and the bucket keeps no earlier version of it`);
    expect(refused.code).toBe(1);
  });

  it('a backup that fails part-way, its upload under way, leaves nothing in the bucket', async () => {
    const s3 = await startS3rver();
    cleanups.push(() => s3.stop());
    const commands: string[] = [];
    const bucket = createS3Storage({ ...S3RVER_CLIENT, endpoint: s3.endpoint, bucket: s3.bucket, onRequest: ({ command }) => commands.push(command) });
    const folder = await scratchFolder();
    const masterKey = randomBytes(32);
    const install = await newInstall('pglite', folder, 'original');
    await seedInstall(install, masterKey);
    // The first file the archive takes is 7 MiB (a multipart upload is under way once it is in), and the last one
    // cannot be read (a disk error): the backup fails with parts of its upload in the bucket.
    const keys = await withDatabase(install.target, async (db) =>
      (await db.select({ key: documents.storageKey }).from(documents).where(isNotNull(documents.storageKey))).map((row) => row.key ?? '').sort(),
    );
    await writeFile(path.join(install.storageDir, keys[0] ?? ''), randomBytes(7 * 1024 * 1024));
    const failing: Storage = {
      ...install.storage,
      get: async (key) => {
        if (key === keys.at(-1)) throw new Error('the disk could not be read');
        return install.storage.get(key);
      },
    };
    await withDatabase(install.target, async (db) => {
      await expect(writeBackup({ db, storage: failing, storageFor: () => failing }, bucketDestination(bucket, s3.bucket, 'nightly'), PASSPHRASE, { workFactor: WORK_FACTOR })).rejects.toThrow(
        'the disk could not be read',
      );
    });
    expect(commands).toContain('UploadPartCommand');
    expect(commands).toContain('AbortMultipartUploadCommand');
    expect(commands).not.toContain('CompleteMultipartUploadCommand');
    const left: string[] = [];
    for await (const object of bucket.list('nightly')) left.push(object.key);
    expect(left).toEqual([]);
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

function flipBit(bytes: Buffer, at: number, bit: number): void {
  bytes.writeUInt8(bytes.readUInt8(at) ^ bit, at);
}

function runScript(script: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: process.env.TMPDIR, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
