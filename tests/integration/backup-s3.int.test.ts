import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isNotNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createLocalStorage } from '../../src/server/adapters/storage/local-storage';
import type { Storage } from '../../src/server/adapters/storage/port';
import { createS3Storage } from '../../src/server/adapters/storage/s3-storage';
import { readArchiveAt, restoreBackup, RestoreRefused, verifyDocuments, writeBackup } from '../../src/server/backup';
import { bucketDestination } from '../../src/server/backup/destination';
import { openDatabase } from '../../src/server/platform/db/client';
import { documents } from '../../src/server/platform/db/schema';
import { cleanups, newInstall, PASSPHRASE, runScript, scratchFolder, seedInstall, storedDocuments, withDatabase, WORK_FACTOR, type Install } from '../support/backup-install';
import { S3RVER_CLIENT, startS3rver } from '../support/s3rver';

/**
 * Backups into an S3 bucket (s3rver, over HTTP), and backups that name the files of an S3 bucket by their
 * versions instead of copying them: written, pruned, refused in words, and restored, by the real scripts.
 */

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

    await expect(readArchiveAt(`s3://${s3.bucket}/backups/clearbase-backup-2021-01-01T00-00-00Z.tar.age`, () => Promise.resolve(bucket))).rejects.toThrow(
      'object not found: backups/clearbase-backup-2021-01-01T00-00-00Z.tar.age',
    );
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
    const restoreInto = (name: string) =>
      restoreBackup(createReadStream(path.join(backups, archive ?? '')), PASSPHRASE, {
        open: (migrations) => openDatabase({ kind: 'pglite', dir: path.join(folder, name) }, { migrations }),
        storage: bucket,
      });
    const same = await restoreInto('restored-same-bucket');
    expect(same.files).toBe(originalDocuments.length);
    await withDatabase({ kind: 'pglite', dir: path.join(folder, 'restored-same-bucket') }, async (db) => {
      expect(await verifyDocuments(db, bucket, masterKey)).toEqual({ checked: originalDocuments.length, failed: [] });
    });
    expect(await inBucket()).toEqual(objectsBefore);

    // One file overwritten in a bucket that keeps no versions: the backup cannot bring it back, and says so.
    const changed = (objectsBefore[0] ?? '').split(' ')[0] ?? '';
    await bucket.put(changed, randomBytes(100));
    await expect(restoreInto('restored-after-change')).rejects.toThrow(
      new RestoreRefused(
        `The file ${changed} in s3://${s3.bucket} was changed or removed after the backup, and the bucket keeps no earlier version of it, so this backup cannot be restored whole. Turn on versioning for the bucket, so that backups by version can always be restored.`,
      ),
    );
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
