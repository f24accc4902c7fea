import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalStorage } from '../../src/server/adapters/storage/local-storage';
import type { Storage } from '../../src/server/adapters/storage/port';
import { createS3Storage } from '../../src/server/adapters/storage/s3-storage';
import { seedDemoDataIfEmpty } from '../../src/server/demo';
import { openDeliveryBody, sealDeliveryBody } from '../../src/server/intake/providers/delivery-bodies';
import { decryptToBuffer, opensUnder } from '../../src/server/platform/crypto/envelope';
import { loadMasterKey, nextKeyFileOf, readMasterKeyFile, RotationUnfinishedError } from '../../src/server/platform/crypto/master-key';
import { openSecret, sealSecret, ZSealedSecret, type SealedSecret } from '../../src/server/platform/crypto/secret-box';
import { openDatabase, type Database, type DatabaseTarget } from '../../src/server/platform/db/client';
import { auditEvents, documentReadings, documents, settings, users } from '../../src/server/platform/db/schema';
import { documentsHoldingWords, searchHashes, wordHashes, wordKey } from '../../src/server/reading';
import { childServerEnv } from '../support/child-server';
import { createScratchPostgresDatabase, testDatabaseKinds, type TestDatabaseKind } from '../support/databases';
import { S3RVER_CLIENT, startS3rver, type RunningS3rver } from '../support/s3rver';

/**
 * `npm run rotate-key` as a person runs it, in a child process over a real database and storage: killed
 * (SIGKILL) halfway through the stored files, then run again, after which every file, secret, read text and
 * kept delivery opens under the new key, identical to before, and nothing opens under the old one.
 */

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const READ_TEXT = 'Certificate of live birth issued to Zebedee Quartermaine, born in Saskatoon';

type Case = { kind: TestDatabaseKind; storage: 'local' | 's3' };
const CASES: Case[] = testDatabaseKinds().map((kind) => ({ kind, storage: kind === 'pglite' ? 'local' : 's3' }));

type RunResult = { code: number | null; signal: NodeJS.Signals | null; output: string };

/** Runs the script; with `killWhenHalfway`, SIGKILLs it once its progress passes half of the stored files. */
function runRotateKey(env: NodeJS.ProcessEnv, killWhenHalfway = false, args: string[] = []): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/rotate-key.ts', ...args], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (!killWhenHalfway) return;
      for (const match of output.matchAll(/^Stored files: ([\d,]+) of ([\d,]+)$/gm)) {
        const [done, total] = [Number(match[1]?.replaceAll(',', '')), Number(match[2]?.replaceAll(',', ''))];
        if (done * 2 >= total && child.exitCode === null) child.kill('SIGKILL');
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve({ code, signal, output }));
  });
}

describe.each(CASES)('npm run rotate-key, killed halfway and run again [$kind, $storage storage]', ({ kind, storage: storageKind }) => {
  let dataDir: string;
  let target: DatabaseTarget;
  let dropDatabase: () => Promise<void> = () => Promise.resolve();
  let s3: RunningS3rver | undefined;
  let storage: Storage;
  let env: NodeJS.ProcessEnv;
  let oldKey: Buffer;
  const plaintexts = new Map<string, Buffer>();
  let deliveryKey: string;
  const deliveryBody = Buffer.from(JSON.stringify({ formID: '123', answers: { name: 'Zebedee' } }));
  const secrets = { mailbox: 'mail-password-for-the-league', webhook: 'https://hooks.example.test/T000/B000/xyz', totp: 'JBSWY3DPEHPK3PXP' };
  let readDocumentId: string;
  let totpUserId: string;
  let damagedText: SealedSecret;
  let damagedDocumentId: string;

  const openDb = () => openDatabase(target);

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'cb-rotate-'));
    const childEnv: Record<string, string> = { CLEARBASE_DATA_DIR: dataDir, CLEARBASE_ROTATE_KEY_TEST_PAUSE_MS: '' };
    if (kind === 'pglite') {
      target = { kind: 'pglite', dir: path.join(dataDir, 'db') };
      childEnv.CLEARBASE_EMBEDDED_DATABASE = 'pglite';
    } else {
      const scratch = await createScratchPostgresDatabase();
      target = { kind: 'postgres', url: scratch.url };
      dropDatabase = () => scratch.drop();
      childEnv.DATABASE_URL = scratch.url;
    }
    if (storageKind === 's3') {
      s3 = await startS3rver();
      const settings = { driver: 's3' as const, bucket: s3.bucket, endpoint: s3.endpoint, ...S3RVER_CLIENT };
      storage = createS3Storage(settings);
      Object.assign(childEnv, {
        STORAGE_DRIVER: 's3',
        S3_BUCKET: s3.bucket,
        S3_ENDPOINT: s3.endpoint,
        S3_REGION: S3RVER_CLIENT.region,
        S3_ACCESS_KEY_ID: S3RVER_CLIENT.accessKeyId,
        S3_SECRET_ACCESS_KEY: S3RVER_CLIENT.secretAccessKey,
        S3_FORCE_PATH_STYLE: 'true',
      });
    } else {
      storage = createLocalStorage(path.join(dataDir, 'storage'));
    }
    env = childServerEnv(childEnv);

    oldKey = (await loadMasterKey(undefined, path.join(dataDir, 'master.key'))).key;
    const database = await openDb();
    try {
      const { db } = database;
      await seedDemoDataIfEmpty(db, { seed: 7, players: 12, idPrefix: 'CB', now: new Date(), files: { storage, masterKey: oldKey } });
      for (const row of await db.select().from(documents).where(isNotNull(documents.wrappedKey))) {
        const ciphertext = await storage.get(row.storageKey ?? '');
        plaintexts.set(row.id, await decryptToBuffer(oldKey, { wrappedKey: row.wrappedKey!, iv: row.iv!, authTag: row.authTag! }, ciphertext));
      }
      await db.insert(settings).values([
        { key: 'mailbox', value: { host: 'imap.example.test', password: sealSecret(oldKey, secrets.mailbox) } },
        { key: 'notifications', value: { slackWebhook: sealSecret(oldKey, secrets.webhook, '••••/xyz'), teamsWebhook: null, switches: { email: true } } },
      ]);
      const [user] = await db
        .insert(users)
        .values({ email: 'coach@example.test', firstName: 'Casey', lastName: 'Coach', role: 'admin', status: 'active', totpSecretSealed: JSON.stringify(sealSecret(oldKey, secrets.totp)) })
        .returning({ id: users.id });
      totpUserId = user!.id;
      readDocumentId = [...plaintexts.keys()][0]!;
      await db
        .insert(documentReadings)
        .values({ documentId: readDocumentId, state: 'done', text: sealSecret(oldKey, READ_TEXT), wordHashes: wordHashes(wordKey(oldKey), READ_TEXT) })
        .onConflictDoUpdate({ target: documentReadings.documentId, set: { state: 'done', text: sealSecret(oldKey, READ_TEXT), wordHashes: wordHashes(wordKey(oldKey), READ_TEXT) } });
      // A read text damaged before the change: its key opens, its text does not. It is left exactly as it was.
      const damaged = sealSecret(oldKey, 'a text altered on disk');
      damagedText = { ...damaged, ciphertext: Buffer.from('an altered text!!!!!!!').toString('base64') };
      damagedDocumentId = [...plaintexts.keys()][1]!;
      await db
        .insert(documentReadings)
        .values({ documentId: damagedDocumentId, state: 'done', text: damagedText })
        .onConflictDoUpdate({ target: documentReadings.documentId, set: { state: 'done', text: damagedText } });
      deliveryKey = await sealDeliveryBody({ storage, masterKey: oldKey }, deliveryBody);
    } finally {
      await database.close();
    }
    expect(plaintexts.size).toBeGreaterThan(10);
  }, 120_000);

  afterAll(async () => {
    await dropDatabase();
    await s3?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('refuses, changing nothing, while the database is in use or when the key comes from the environment', async () => {
    const keyFile = path.join(dataDir, 'master.key');
    const database = await openDb();
    try {
      // An open PGlite holds its files; an open pool holds a session on PostgreSQL: either is what a running server does.
      await database.db.select({ id: documents.id }).from(documents).limit(1);
      const refused = await runRotateKey(env);
      expect(refused.code, refused.output).toBe(1);
      expect(refused.output).toMatch(kind === 'pglite' ? /A Clearbase server \(process \d+\) is using this data folder: stop it first/ : /other connection\(s\) are open to this database/);
    } finally {
      await database.close();
    }
    const fromEnvironment = await runRotateKey({ ...env, CLEARBASE_MASTER_KEY: oldKey.toString('base64') });
    expect(fromEnvironment.code, fromEnvironment.output).toBe(1);
    expect(fromEnvironment.output).toContain('--new-key-file');
    expect(existsSync(nextKeyFileOf(keyFile))).toBe(false);
    expect((await readMasterKeyFile(keyFile)).equals(oldKey)).toBe(true);
  }, 60_000);

  it('finishes after a SIGKILL halfway: every file opens byte-identical under the new key, nothing under the old', async () => {
    const keyFile = path.join(dataDir, 'master.key');
    const killed = await runRotateKey({ ...env, CLEARBASE_ROTATE_KEY_TEST_PAUSE_MS: '40' }, true);
    expect(killed.signal, killed.output).toBe('SIGKILL');

    // Halfway: the new key waits beside the old, the files are split between the two, and a server refuses to start.
    const newKey = await readMasterKeyFile(nextKeyFileOf(keyFile));
    expect((await readMasterKeyFile(keyFile)).equals(oldKey)).toBe(true);
    let database: Database = await openDb();
    try {
      const rows = await database.db.select({ wrappedKey: documents.wrappedKey }).from(documents).where(isNotNull(documents.wrappedKey));
      const underNew = rows.filter((row) => opensUnder(newKey, row.wrappedKey!)).length;
      const underOld = rows.filter((row) => opensUnder(oldKey, row.wrappedKey!)).length;
      expect(underNew + underOld).toBe(rows.length);
      expect(underNew).toBeGreaterThan(0);
      expect(underOld).toBeGreaterThan(0);
    } finally {
      await database.close();
    }
    await expect(loadMasterKey(undefined, keyFile)).rejects.toBeInstanceOf(RotationUnfinishedError);

    const finished = await runRotateKey(env);
    expect(finished.code, finished.output).toBe(0);
    expect(finished.output).toContain('Finishing the change of master key that was interrupted earlier.');
    expect(finished.output).toContain('Done: the new master key is in use');
    expect(finished.output).not.toContain(newKey.toString('base64'));
    expect(finished.output).not.toContain(oldKey.toString('base64'));
    expect(existsSync(nextKeyFileOf(keyFile))).toBe(false);
    expect((await loadMasterKey(undefined, keyFile)).key.equals(newKey)).toBe(true);

    database = await openDb();
    try {
      const { db } = database;
      const rows = await db.select().from(documents).where(isNotNull(documents.wrappedKey));
      expect(rows).toHaveLength(plaintexts.size);
      for (const row of rows) {
        const envelope = { wrappedKey: row.wrappedKey!, iv: row.iv!, authTag: row.authTag! };
        const bytes = await decryptToBuffer(newKey, envelope, await storage.get(row.storageKey!));
        expect(bytes.equals(plaintexts.get(row.id)!)).toBe(true);
        await expect(decryptToBuffer(oldKey, envelope, await storage.get(row.storageKey!))).rejects.toThrow('failed authentication');
      }

      const stored = new Map((await db.select().from(settings)).map((row) => [row.key, row.value as Record<string, unknown>]));
      const mailboxPassword = ZSealedSecret.parse(stored.get('mailbox')?.password);
      expect(await openSecret(newKey, mailboxPassword)).toBe(secrets.mailbox);
      await expect(openSecret(oldKey, mailboxPassword)).rejects.toThrow();
      const webhook = ZSealedSecret.parse(stored.get('notifications')?.slackWebhook);
      expect(await openSecret(newKey, webhook)).toBe(secrets.webhook);
      expect(webhook.hint).toBe('••••/xyz');
      expect(stored.get('notifications')?.switches).toEqual({ email: true });

      const [user] = await db.select({ sealed: users.totpSecretSealed }).from(users).where(eq(users.id, totpUserId));
      expect(await openSecret(newKey, ZSealedSecret.parse(JSON.parse(user!.sealed!)))).toBe(secrets.totp);

      const [reading] = await db.select().from(documentReadings).where(eq(documentReadings.documentId, readDocumentId));
      expect(await openSecret(newKey, ZSealedSecret.parse(reading!.text))).toBe(READ_TEXT);
      const found = await documentsHoldingWords(db, searchHashes(wordKey(newKey), 'quartermaine saskatoon'));
      expect(found.map((row) => row.id)).toEqual([readDocumentId]);
      expect(await documentsHoldingWords(db, searchHashes(wordKey(oldKey), 'quartermaine'))).toEqual([]);
      const [damaged] = await db.select().from(documentReadings).where(eq(documentReadings.documentId, damagedDocumentId));
      expect(damaged!.text).toEqual(damagedText);

      expect((await openDeliveryBody({ storage, masterKey: newKey }, deliveryKey)).equals(deliveryBody)).toBe(true);
      await expect(openDeliveryBody({ storage, masterKey: oldKey }, deliveryKey)).rejects.toThrow('failed authentication');

      const events = await db.select().from(auditEvents).where(eq(auditEvents.action, 'master_key.rotated'));
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ subjectType: 'settings', actor: 'system' });
      expect(events[0]!.detail).toMatchObject({ files: plaintexts.size, readings: 1, settings: 2, twoStep: 1, deliveries: 1, unreadable: 1 });
      const detail = JSON.stringify(events[0]!.detail);
      for (const key of [oldKey, newKey]) {
        expect(detail).not.toContain(key.toString('base64'));
        expect(detail).not.toContain(key.toString('hex'));
      }
    } finally {
      await database.close();
    }
  }, 180_000);

  it('with the key in CLEARBASE_MASTER_KEY, saves the new key where asked and says how to put it in place', async () => {
    const keyFile = path.join(dataDir, 'master.key');
    const inUse = await readMasterKeyFile(keyFile);
    const newKeyFile = path.join(dataDir, 'outside', 'new-master.key');
    await mkdir(path.dirname(newKeyFile), { mode: 0o700 });
    const fromEnvironment = { ...env, CLEARBASE_MASTER_KEY: inUse.toString('base64') };
    const run = await runRotateKey(fromEnvironment, false, ['--new-key-file', newKeyFile]);
    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain(`set CLEARBASE_MASTER_KEY to what that file holds`);
    expect((await stat(newKeyFile)).mode & 0o777).toBe(0o600);
    const newKey = await readMasterKeyFile(newKeyFile);
    expect(run.output).not.toContain(newKey.toString('base64'));
    // The key file of the data folder is not the key in use, and is left alone.
    expect((await readMasterKeyFile(keyFile)).equals(inUse)).toBe(true);

    const database = await openDb();
    try {
      const rows = await database.db.select({ wrappedKey: documents.wrappedKey }).from(documents).where(isNotNull(documents.wrappedKey));
      expect(rows.every((row) => opensUnder(newKey, row.wrappedKey!))).toBe(true);
      expect(await database.db.select().from(auditEvents).where(eq(auditEvents.action, 'master_key.rotated'))).toHaveLength(2);
    } finally {
      await database.close();
    }

    const again = await runRotateKey({ ...env, CLEARBASE_MASTER_KEY: newKey.toString('base64') }, false, ['--new-key-file', newKeyFile]);
    expect(again.code, again.output).toBe(0);
    expect(again.output).toContain('CLEARBASE_MASTER_KEY already holds the new key');
  }, 120_000);
});
