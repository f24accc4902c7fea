import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { isNotNull, sql } from 'drizzle-orm';
import { afterAll, expect } from 'vitest';
import { z } from 'zod';
import { createLocalStorage } from '../../src/server/adapters/storage/local-storage';
import type { Storage } from '../../src/server/adapters/storage/port';
import { createBackup, restoreBackup } from '../../src/server/backup';
import { tableShapes } from '../../src/server/backup/backup.repository';
import { DEMO_DEFAULTS, seedDemoDataIfEmpty } from '../../src/server/demo';
import { decryptToBuffer } from '../../src/server/platform/crypto/envelope';
import { sealSecret } from '../../src/server/platform/crypto/secret-box';
import { openDatabase, type Database, type DatabaseTarget, type Db } from '../../src/server/platform/db/client';
import { documents, settings } from '../../src/server/platform/db/schema';
import { createScratchPostgresDatabase, type TestDatabaseKind } from './databases';

/**
 * What the backup tests share: a seeded install (demo data with every document's file encrypted in its storage,
 * and a sealed setting), its documents as hashes to compare, a backup and a restore in process, and the backup
 * scripts run as a person runs them. Each test file that imports it cleans up its scratch folders after itself.
 */

export const PASSPHRASE = 'a long backup passphrase for the test';
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const WORK_FACTOR = 10; // age's scrypt at 2^10: the archive's format and checks are the same, in milliseconds.

const ZCount = z.object({ rows: z.array(z.object({ n: z.number() })) });
export const ZId = z.object({ rows: z.array(z.object({ id: z.coerce.number() })) });

export type Install = { target: DatabaseTarget; storage: Storage; storageDir: string; drop(): Promise<void> };

export const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
});

export async function scratchFolder(): Promise<string> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'clearbase-backup-test-'));
  cleanups.push(() => rm(folder, { recursive: true, force: true }));
  return folder;
}

/** A database in a folder of its own (PGlite) or a new database on the PostgreSQL server, and a storage folder. */
export async function newInstall(kind: TestDatabaseKind, folder: string, name: string): Promise<Install> {
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

export async function withDatabase<T>(target: DatabaseTarget, work: (db: Db, database: Database) => Promise<T>): Promise<T> {
  const database = await openDatabase(target);
  try {
    return await work(database.db, database);
  } finally {
    await database.close();
  }
}

export async function tableCounts(db: Db): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const shape of await tableShapes(db)) {
    const result: unknown = await db.execute(sql.raw(`select count(*)::int as n from "${shape.name}"`));
    counts[shape.name] = ZCount.parse(result).rows[0]?.n ?? 0;
  }
  return counts;
}

export type StoredDocument = { id: string; key: string; ciphertext: string; plaintext: string };

/** Each stored document: the SHA-256 of its stored bytes and of the file they open to with the master key. */
export async function storedDocuments(db: Db, storage: Storage, masterKey: Buffer): Promise<StoredDocument[]> {
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

export async function seedInstall(install: Install, masterKey: Buffer): Promise<void> {
  await withDatabase(install.target, async (db) => {
    const seeded = await seedDemoDataIfEmpty(db, { ...DEMO_DEFAULTS, players: 12, idPrefix: 'CB', now: new Date('2025-10-01T12:00:00Z'), files: { storage: install.storage, masterKey } });
    expect(seeded.seeded).toBe(true);
    await db.insert(settings).values({ key: 'backup-test.secret', value: { secret: sealSecret(masterKey, 'a sealed mail password', '••••word') } });
  });
}

export async function backUp(install: Install, file: string): Promise<void> {
  await withDatabase(install.target, async (db) => {
    const out = createWriteStream(file);
    const summary = await createBackup({ db, storage: install.storage, storageFor: () => install.storage }, out, PASSPHRASE, { workFactor: WORK_FACTOR });
    await finished(out);
    expect(summary.files).toBeGreaterThan(10);
    expect(summary.missingFiles).toBe(0);
  });
}

export function restore(archive: string, install: Install, passphrase = PASSPHRASE) {
  return restoreBackup(createReadStream(archive), passphrase, { open: (migrations) => openDatabase(install.target, { migrations }), storage: install.storage });
}

export function flipBit(bytes: Buffer, at: number, bit: number): void {
  bytes.writeUInt8(bytes.readUInt8(at) ^ bit, at);
}

export function runScript(script: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
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
