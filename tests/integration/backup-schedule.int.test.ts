import { createReadStream } from 'node:fs';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKUP_RUN_PATH, BACKUP_SCHEDULE_PATH, BACKUPS_PATH, ZBackupState, ZHealth, type TApiError, type TBackupState, type TPrincipal } from '../../src/contract';
import { createLocalStorage } from '../../src/server/adapters/storage/local-storage';
import { createS3Storage } from '../../src/server/adapters/storage/s3-storage';
import { listAuditEventsByAction } from '../../src/server/audit/audit-events.repository';
import { ARCHIVE_NAME, createNightlyBackups, restoreBackup } from '../../src/server/backup';
import { DEMO_DEFAULTS, seedDemoDataIfEmpty } from '../../src/server/demo';
import { readMasterKeyFile } from '../../src/server/platform/crypto/master-key';
import { createLogger } from '../../src/server/platform/logger';
import { openDatabase } from '../../src/server/platform/db/client';
import { describeEachDatabase, openTestDatabase } from '../support/databases';
import { S3RVER_CLIENT, startS3rver } from '../support/s3rver';
import { signInAs } from '../support/sessions';
import { startSignedInClearbase, type SignedInClearbase } from '../support/signed-in-clearbase';

/**
 * Settings → System → Backups: the schedule an admin sets, a backup made now, its result on the screen and
 * on the health card, and the archive it wrote restoring; then the nightly timing itself, on a clock the test
 * sets.
 */

const PASSPHRASE = 'the nightly backup test passphrase';

describeEachDatabase('The nightly backup', ({ getDatabase }) => {
  let server: SignedInClearbase | undefined;
  const folders: string[] = [];
  const started = () => {
    if (!server) throw new Error('not started');
    return server;
  };
  const call = (method: 'GET' | 'PUT' | 'POST', url: string, payload?: object, cookie = started().cookie) =>
    started().app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
  const state = async () => ZBackupState.parse((await call('GET', BACKUPS_PATH)).json());
  const untilDone = async (): Promise<TBackupState> => {
    for (let waited = 0; waited < 120_000; waited += 200) {
      const now = await state();
      if (!now.running) return now;
      await sleep(200);
    }
    throw new Error('the backup did not end within two minutes');
  };

  beforeAll(async () => {
    server = await startSignedInClearbase({ database: getDatabase(), prefix: 'cb-nightly', startWorkers: false, settings: { CLEARBASE_BACKUP_PASSPHRASE: PASSPHRASE }, backupWorkFactor: 10 });
    const storage = createLocalStorage(path.join(server.dataDir, 'storage'));
    // A league's worth of rows and files to back up, and their master key: the server's own.
    const masterKey = await readMasterKeyFile(path.join(server.dataDir, 'master.key'));
    await seedDemoDataIfEmpty(getDatabase().db, { ...DEMO_DEFAULTS, players: 6, idPrefix: 'CB', now: new Date(), files: { storage, masterKey } });
  });
  afterAll(async () => {
    await server?.close();
    for (const folder of folders) await rm(folder, { recursive: true, force: true });
  });

  const newFolder = async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'cb-nightly-backups-'));
    folders.push(folder);
    return folder;
  };

  it('is not scheduled at first, and only an admin may see or change it', async () => {
    expect(await state()).toEqual({ schedule: null, passphraseSet: true, running: false, last: null, nextAt: null });
    const { db } = getDatabase();
    for (const role of ['viewer', 'moderator'] as const) {
      const cookie = await signInAs(db, { role });
      expect((await call('GET', BACKUPS_PATH, undefined, cookie)).statusCode, role).toBe(403);
      expect((await call('PUT', BACKUP_SCHEDULE_PATH, { schedule: null }, cookie)).statusCode, role).toBe(403);
      expect((await call('POST', BACKUP_RUN_PATH, undefined, cookie)).statusCode, role).toBe(403);
    }
    const notYet = await call('POST', BACKUP_RUN_PATH);
    expect(notYet.statusCode).toBe(409);
    expect(notYet.json<TApiError>().message).toBe('Choose the folder the backups go into first.');
  });

  it('refuses a folder it cannot write into, or one that is not a full path, in words', async () => {
    const refused = await call('PUT', BACKUP_SCHEDULE_PATH, { schedule: { folder: '/proc/clearbase-backups', hour: 2, keep: 14 } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<TApiError>().message).toMatch(/^Clearbase cannot write into \/proc\/clearbase-backups: /);
    const relative = await call('PUT', BACKUP_SCHEDULE_PATH, { schedule: { folder: 'backups', hour: 2, keep: 14 } });
    expect(relative.statusCode).toBe(400);
    expect(JSON.stringify(relative.json())).toContain('Give the folder as a full path');
    expect((await state()).schedule).toBeNull();
  });

  it('makes a backup now into the folder, says so on the screen and the health card, and the archive restores', async () => {
    const folder = await newFolder();
    const saved = await call('PUT', BACKUP_SCHEDULE_PATH, { schedule: { folder, hour: 2, keep: 2 } });
    expect(saved.statusCode).toBe(200);
    expect(ZBackupState.parse(saved.json())).toMatchObject({ schedule: { folder, hour: 2, keep: 2 }, nextAt: expect.any(String) as unknown });

    const run = await call('POST', BACKUP_RUN_PATH);
    expect(run.statusCode).toBe(202);
    expect(ZBackupState.parse(run.json()).running).toBe(true);
    const done = await untilDone();
    expect(done.last).toMatchObject({ ok: true, file: expect.stringMatching(ARCHIVE_NAME) as unknown, files: expect.any(Number) as unknown });
    const file = path.join(folder, done.last?.file ?? '');
    expect((await stat(file)).size).toBe(done.last?.bytes);
    expect(done.last?.message).toMatch(/^Backed up [\d,]+ rows and [\d,]+ files into [\d.]+ MB\.$/);

    const health = ZHealth.parse((await call('GET', '/api/health')).json()).services.s3;
    expect(health.message).toContain('Last backup ');
    const audited = await listAuditEventsByAction(getDatabase().db, 'backup.created');
    expect(audited).toHaveLength(1);
    expect(JSON.stringify(audited)).not.toContain(PASSPHRASE);

    const restoredStorage = createLocalStorage(path.join(await newFolder(), 'storage'));
    const restored = await restoreBackup(createReadStream(file), PASSPHRASE, { open: (migrations) => openDatabase({ kind: 'pglite', dir: undefined }, { migrations }), storage: restoredStorage });
    expect(restored.files).toBe(done.last?.files);

    // Two more a second apart: the folder keeps the two newest.
    for (let n = 0; n < 2; n++) {
      await sleep(1_100);
      expect((await call('POST', BACKUP_RUN_PATH)).statusCode).toBe(202);
      expect((await untilDone()).last?.ok).toBe(true);
    }
    expect((await readdir(folder)).filter((name) => ARCHIVE_NAME.test(name))).toHaveLength(2);
  }, 120_000);

  it('says a failed backup on the screen and as a warning on the health card', async () => {
    const folder = await newFolder();
    expect((await call('PUT', BACKUP_SCHEDULE_PATH, { schedule: { folder, hour: 2, keep: 2 } })).statusCode).toBe(200);
    // The folder goes away after it was chosen, and its place cannot be made again (a file stands there).
    await rm(folder, { recursive: true });
    await writeFile(folder, 'not a folder');
    folders.push(folder);
    expect((await call('POST', BACKUP_RUN_PATH)).statusCode).toBe(202);
    const done = await untilDone();
    expect(done.last).toMatchObject({ ok: false, file: null });
    expect(done.last?.message).toMatch(/^The backup failed: /);
    const health = ZHealth.parse((await call('GET', '/api/health')).json()).services.s3;
    expect(health.status).toBe('warning');
    expect(health.message).toContain('The last backup failed');
    expect(await listAuditEventsByAction(getDatabase().db, 'backup.failed')).toHaveLength(1);
    await rm(folder, { force: true });

    // Turned off: no schedule, and health no longer speaks of backups.
    expect(ZBackupState.parse((await call('PUT', BACKUP_SCHEDULE_PATH, { schedule: null })).json()).schedule).toBeNull();
    expect(ZHealth.parse((await call('GET', '/api/health')).json()).services.s3.message).not.toContain('backup failed');
  });
});

describe('the nightly timing', () => {
  it('makes one backup a night, at the hour set or the first check after it, and none without a passphrase', async () => {
    const test = await openTestDatabase('pglite');
    const folder = await mkdtemp(path.join(tmpdir(), 'cb-nightly-clock-'));
    try {
      const storage = createLocalStorage(path.join(folder, 'storage'));
      let now = new Date(2026, 10, 27, 1, 30);
      const made = (passphrase: string | undefined) =>
        createNightlyBackups({ db: test.database.db, storage, storageFor: () => storage, passphrase, log: createLogger('silent'), now: () => now, workFactor: 10 });
      const backups = made(PASSPHRASE);
      const principal: TPrincipal = { kind: 'shared', userId: null, name: 'Shared password', email: null, role: 'admin', divisions: null, twoFactorEnabled: false, twoFactorSetupRequired: false };
      await backups.setSchedule({ folder: path.join(folder, 'backups'), hour: 2, keep: 5 }, { requestId: 'test', principal });
      const archives = async () => (await readdir(path.join(folder, 'backups'))).filter((name) => ARCHIVE_NAME.test(name)).length;

      await backups.runIfDue();
      expect(await archives()).toBe(0);
      expect((await backups.state()).nextAt).toBe(new Date(2026, 10, 27, 2, 0).toISOString());

      now = new Date(2026, 10, 27, 2, 5);
      // Without a passphrase the server makes none, whatever the hour.
      await made(undefined).runIfDue();
      expect(await archives()).toBe(0);
      await backups.runIfDue();
      await backups.settled();
      expect(await archives()).toBe(1);

      now = new Date(2026, 10, 27, 4, 0);
      await backups.runIfDue();
      await backups.settled();
      expect(await archives()).toBe(1);
      expect((await backups.state()).nextAt).toBe(new Date(2026, 10, 28, 2, 0).toISOString());

      // Another instance on the same database, the same night: the night is taken.
      await made(PASSPHRASE).runIfDue();
      expect(await archives()).toBe(1);

      now = new Date(2026, 10, 28, 2, 1);
      await backups.runIfDue();
      await backups.settled();
      expect(await archives()).toBe(2);
    } finally {
      await test.drop();
      await rm(folder, { recursive: true, force: true });
    }
  }, 120_000);

  it('into a folder of an S3 bucket: refused while the bucket cannot be reached, then written there and the newest N kept', async () => {
    const test = await openTestDatabase('pglite');
    const folder = await mkdtemp(path.join(tmpdir(), 'cb-nightly-s3-'));
    const s3 = await startS3rver();
    try {
      const storage = createLocalStorage(path.join(folder, 'storage'));
      const openBucket = (bucket: string) => Promise.resolve(createS3Storage({ ...S3RVER_CLIENT, endpoint: s3.endpoint, bucket }));
      const bucket = await openBucket(s3.bucket);
      let now = new Date(2026, 10, 27, 2, 30);
      const backups = createNightlyBackups({ db: test.database.db, storage, storageFor: () => storage, passphrase: PASSPHRASE, openBucket, log: createLogger('silent'), now: () => now, workFactor: 10 });
      const principal: TPrincipal = { kind: 'shared', userId: null, name: 'Shared password', email: null, role: 'admin', divisions: null, twoFactorEnabled: false, twoFactorSetupRequired: false };
      const actor = { requestId: 'test', principal };

      await expect(backups.setSchedule({ folder: 's3://no-such-bucket/nightly', hour: 2, keep: 2 }, actor)).rejects.toThrow(/^Clearbase cannot reach s3:\/\/no-such-bucket\/nightly: .*NoSuchBucket/);
      expect((await backups.state()).schedule).toBeNull();

      await backups.setSchedule({ folder: `s3://${s3.bucket}/nightly`, hour: 2, keep: 2 }, actor);
      const archives = async () => {
        const names: string[] = [];
        for await (const object of bucket.list('nightly')) names.push(object.key.slice('nightly/'.length));
        return names.sort();
      };
      for (const night of [27, 28, 29]) {
        now = new Date(2026, 10, night, 2, 30);
        await backups.runIfDue();
        await backups.settled();
      }
      const kept = await archives();
      expect(kept).toHaveLength(2);
      expect(kept.every((name) => ARCHIVE_NAME.test(name))).toBe(true);
      const last = (await backups.state()).last;
      expect(last).toMatchObject({ ok: true, file: kept[1] });
      expect(last?.message).toContain('1 older backup was removed.');

      // The newest restores.
      const summary = await restoreBackup(await bucket.get(`nightly/${kept[1]}`), PASSPHRASE, {
        open: (migrations) => openDatabase({ kind: 'pglite', dir: path.join(folder, 'restored-db') }, { migrations }),
        storage: createLocalStorage(path.join(folder, 'restored-storage')),
      });
      expect(summary.rows).toBeGreaterThan(0);
    } finally {
      await s3.stop();
      await test.drop();
      await rm(folder, { recursive: true, force: true });
    }
  }, 120_000);
});
