import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import type { ObjectVersion, Storage } from '../adapters/storage/port';
import { recordAuditEvent } from '../audit';
import { createDecryptor } from '../platform/crypto/envelope';
import { appliedMigrationCount, migrationCount, type Database, type Db } from '../platform/db/client';
import { ArchiveError, readArchive, type ReadEntry } from './archive';
import { BACKUP_FORMAT, HEADER_ENTRY, MANIFEST_ENTRY, readAll, ZBackupHeader, ZBackupManifest, ZStorageDriver, type BackupHeader, type BucketObject } from './backup';
import { databaseHoldsData, documentsToVerify, emptyMigrationFilledTables, loadTable, moveDocumentsToStorage, resetIdentitySequences } from './backup.repository';

export type RestoreSummary = { rows: number; tables: number; files: number; fileBytes: number; createdAt: string; migrations: number };

export type RestoreProgress = { stage: 'database'; table: string; rows: number } | { stage: 'files'; done: number; total: number };

export type RestoreDeps = {
  /**
   * Opens the database to restore into, with the first `migrations` migrations applied (the schema the
   * backup's rows were read from). It must hold no rows; it is closed by the restore.
   */
  open(migrations: number): Promise<Database>;
  /** Where the files go: the configured storage, which should hold none of the backup's keys yet. */
  storage: Storage;
  /**
   * Opens a bucket a backup by versions left its files in (`s3://bucket` names it), with the S3 settings this
   * Clearbase has; absent, only the configured storage's own bucket is reached.
   */
  openBucket?: (bucket: string) => Promise<Storage>;
  onProgress?: (progress: RestoreProgress) => void;
};

/** Why a restore would not start: said to the person running it. */
export class RestoreRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RestoreRefused';
  }
}

/**
 * Restores a backup archive into an empty database and the configured storage. The database's part is one
 * transaction: a restore that fails (a wrong passphrase, a damaged archive, a full disk) leaves the
 * database as empty as it found it, and can simply be run again (files already written are written again).
 * Every row count and every file's size and SHA-256 are checked against the archive's manifest before the
 * transaction commits. The database is then at the backup's migration level: opening it as the server
 * does applies the later migrations.
 */
export async function restoreBackup(input: Readable, passphrase: string, deps: RestoreDeps): Promise<RestoreSummary> {
  const entries = readArchive(input, passphrase)[Symbol.asyncIterator]();
  const first = await entries.next();
  if (first.done || first.value.name !== HEADER_ENTRY) throw new ArchiveError('This archive does not begin as a Clearbase backup does.');
  const header = parseHeader(await readAll(first.value.body));
  const latest = await migrationCount();
  if (header.migrations > latest) {
    throw new RestoreRefused('This backup was made by a newer version of Clearbase than this one. Update Clearbase, then restore it.');
  }

  const database = await deps.open(header.migrations);
  try {
    if ((await appliedMigrationCount(database.db)) !== header.migrations || (await databaseHoldsData(database.db))) {
      throw new RestoreRefused('The database to restore into is not empty. A restore only goes into a new, empty data folder or database, so nothing is overwritten.');
    }
    const shapes = new Map(header.tables.map((shape) => [shape.name, shape]));
    const loaded: Record<string, number> = {};
    const written = new Map<string, { bytes: number; sha256: string }>();
    const objects: BucketObject[] = [];
    let manifestSeen = false;
    const writes = boundedWrites();

    await database.db.transaction(async (tx) => {
      await emptyMigrationFilledTables(tx);
      for (let next = await entries.next(); !next.done; next = await entries.next()) {
        const entry = next.value;
        if (manifestSeen) throw new ArchiveError('This archive holds entries after its manifest; it was not made by Clearbase.');
        if (entry.name.startsWith('database/')) {
          const table = entry.name.split('/')[1] ?? '';
          const shape = shapes.get(table);
          if (!shape) throw new ArchiveError(`This archive holds rows of a table it does not describe (${table}).`);
          const rows = await loadTable(tx, shape, linesOf(entry));
          loaded[table] = (loaded[table] ?? 0) + rows;
          deps.onProgress?.({ stage: 'database', table, rows });
        } else if (entry.name.startsWith('files/')) {
          const [, driver, ...rest] = entry.name.split('/');
          ZStorageDriver.parse(driver);
          const key = rest.join('/');
          const body = await readAll(entry.body);
          written.set(`${driver}/${key}`, { bytes: body.length, sha256: createHash('sha256').update(body).digest('hex') });
          await writes.add(() => deps.storage.put(key, body), body.length);
          deps.onProgress?.({ stage: 'files', done: written.size, total: 0 });
        } else if (entry.name === MANIFEST_ENTRY) {
          // Every file is in storage, and on its disk, before the rows that point at them commit.
          await writes.settled();
          const manifest = ZBackupManifest.parse(JSON.parse((await readAll(entry.body)).toString('utf8')));
          checkAgainstManifest(manifest, loaded, written);
          // Files the backup named by their version in a bucket: read from there, checked, put in place.
          const source = bucketsOf(deps);
          for (const object of manifest.objects) {
            await writes.add(async () => {
              await restoreObject(object, await source(object.bucket), deps.storage);
              objects.push(object);
              deps.onProgress?.({ stage: 'files', done: written.size + objects.length, total: 0 });
            }, object.bytes);
          }
          await writes.settled();
          manifestSeen = true;
        } else {
          throw new ArchiveError(`This archive holds an entry Clearbase does not know (${entry.name}).`);
        }
      }
      await writes.settled();
      if (!manifestSeen) throw new ArchiveError('The backup archive is incomplete: it ends before its manifest.');
      await resetIdentitySequences(tx);
      // The files are now in the configured storage, whatever storage they were in when the backup was made.
      await moveDocumentsToStorage(tx, deps.storage.driver);
    });
    const rows = Object.values(loaded).reduce((sum, n) => sum + n, 0);
    const fileBytes = [...written.values(), ...objects].reduce((sum, file) => sum + file.bytes, 0);
    return { rows, tables: header.tables.length, files: written.size + objects.length, fileBytes, createdAt: header.createdAt, migrations: header.migrations };
  } finally {
    await entries.return?.(undefined);
    await database.close();
  }
}

const gunzipped = promisify(gunzip);

/** Files written at once: each write waits on its own fsyncs, which the disk commits together. */
const PARALLEL_WRITES = 16;
const PARALLEL_WRITE_BYTES = 64 * 1024 * 1024;

/**
 * Storage writes run side by side, up to PARALLEL_WRITES and PARALLEL_WRITE_BYTES at once (one at a time,
 * a restore of 24,000 files waited 48,000 times for the disk). The first that fails fails the restore.
 */
function boundedWrites() {
  const running = new Set<Promise<void>>();
  let bytes = 0;
  let failure: Error | undefined;
  return {
    async add(write: () => Promise<unknown>, size: number): Promise<void> {
      while (running.size > 0 && (running.size >= PARALLEL_WRITES || bytes + size > PARALLEL_WRITE_BYTES)) await Promise.race(running);
      if (failure !== undefined) throw failure;
      bytes += size;
      const done: Promise<void> = write().then(
        () => undefined,
        (error: unknown) => {
          failure ??= error instanceof Error ? error : new Error(String(error));
        },
      ).finally(() => {
        bytes -= size;
        running.delete(done);
      });
      running.add(done);
    },
    async settled(): Promise<void> {
      await Promise.all(running);
      if (failure !== undefined) throw failure;
    },
  };
}

function parseHeader(bytes: Buffer): BackupHeader {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new ArchiveError('This archive does not begin as a Clearbase backup does.');
  }
  const format = (value as { format?: unknown } | null)?.format;
  if (typeof format === 'number' && format > BACKUP_FORMAT) {
    throw new RestoreRefused('This backup was made by a newer version of Clearbase than this one. Update Clearbase, then restore it.');
  }
  const header = ZBackupHeader.safeParse(value);
  if (!header.success) throw new ArchiveError('This archive does not begin as a Clearbase backup does.');
  return header.data;
}

async function* linesOf(entry: ReadEntry): AsyncGenerator<string> {
  const bytes = await readAll(entry.body);
  let text: string;
  try {
    text = (entry.name.endsWith('.gz') ? await gunzipped(bytes) : bytes).toString('utf8');
  } catch (error) {
    throw new ArchiveError('The backup archive is damaged: a table in it cannot be read.', { cause: error });
  }
  for (const line of text.split('\n')) if (line.length > 0) yield line;
}

/** The storage a backup's `s3://bucket` names: the configured one when it is that bucket, else opened once. */
function bucketsOf(deps: RestoreDeps): (bucket: string) => Promise<Storage> {
  const opened = new Map<string, Promise<Storage>>();
  return (bucket) => {
    if (deps.storage.location === bucket) return Promise.resolve(deps.storage);
    const { openBucket } = deps;
    if (!openBucket) return Promise.reject(new RestoreRefused(`The backup's files are in ${bucket}, which this Clearbase cannot reach.`));
    let storage = opened.get(bucket);
    if (!storage) {
      storage = openBucket(bucket.slice('s3://'.length));
      opened.set(bucket, storage);
    }
    return storage;
  };
}

const sameVersion = (found: ObjectVersion, named: BucketObject) =>
  found.etag === named.etag && found.bytes === named.bytes && (named.versionId === null || found.versionId === named.versionId);

/**
 * One file a backup named by its version: left as it is when it is still the current version of its key in
 * the bucket restored into; else read (at its version) from its bucket, checked against what the backup says
 * of it, and put into the configured storage. A bucket that keeps no versions holds only the current content:
 * a file changed or removed since the backup cannot be brought back, and the restore says so.
 */
async function restoreObject(object: BucketObject, source: Storage, target: Storage): Promise<void> {
  const lost = () =>
    new RestoreRefused(
      `The file ${object.key} in ${object.bucket} was changed or removed after the backup, and the bucket keeps no earlier version of it, so this backup cannot be restored whole. Turn on versioning for the bucket, so that backups by version can always be restored.`,
    );
  if (target === source) {
    const current = await target.versionOf?.(object.key);
    if (current && sameVersion(current, object)) return;
    if (object.versionId === null) throw lost();
  }
  if (!source.getVersion) throw new RestoreRefused(`The backup's files are in ${object.bucket}, which keeps no versions Clearbase can read.`);
  if (object.versionId === null && target !== source && !(await source.versionOf?.(object.key))) throw lost();
  const got = await source.getVersion(object.key, object.versionId);
  if (!sameVersion(got.version, object)) {
    got.body.destroy();
    throw lost();
  }
  await target.put(object.key, got.body);
}

function checkAgainstManifest(manifest: ReturnType<typeof ZBackupManifest.parse>, loaded: Record<string, number>, written: Map<string, { bytes: number; sha256: string }>): void {
  for (const [table, rows] of Object.entries(manifest.rows)) {
    if ((loaded[table] ?? 0) !== rows) throw new ArchiveError(`The backup archive is incomplete: the table ${table} should hold ${rows} rows, and ${loaded[table] ?? 0} were found.`);
  }
  if (manifest.files.length !== written.size) throw new ArchiveError(`The backup archive is incomplete: it should hold ${manifest.files.length} files, and ${written.size} were found.`);
  for (const file of manifest.files) {
    const found = written.get(`${file.driver}/${file.key}`);
    if (!found || found.bytes !== file.bytes || found.sha256 !== file.sha256) throw new ArchiveError('A file in the backup archive differs from what the archive says it holds.');
  }
}

/** A restored install's first audit record: when, and from a backup made when. */
export async function recordRestore(db: Db, summary: RestoreSummary): Promise<void> {
  await recordAuditEvent(db, {
    actor: 'system',
    action: 'backup.restored',
    subjectType: 'database',
    subjectId: null,
    detail: { backupMadeAt: summary.createdAt, rows: summary.rows, files: summary.files },
  });
}

export type VerifyResult = { checked: number; failed: Array<{ documentId: string; reason: 'missing' | 'does-not-open' | 'differs' }> };

/**
 * Opens every stored document with the master key and compares its SHA-256 with the one recorded when it
 * was received: what a restore must give back, byte for byte.
 */
export async function verifyDocuments(db: Db, storage: Storage, masterKey: Buffer, onProgress?: (done: number, total: number) => void): Promise<VerifyResult> {
  const rows = await documentsToVerify(db);
  const failed: VerifyResult['failed'] = [];
  let done = 0;
  for (const row of rows) {
    onProgress?.(done++, rows.length);
    if (!row.key || !row.wrappedKey || !row.iv || !row.authTag) continue;
    if (!(await storage.exists(row.key))) {
      failed.push({ documentId: row.id, reason: 'missing' });
      continue;
    }
    const hash = createHash('sha256');
    try {
      await pipeline(await storage.get(row.key), createDecryptor(masterKey, { wrappedKey: row.wrappedKey, iv: row.iv, authTag: row.authTag }), async (plain: AsyncIterable<Buffer>) => {
        for await (const chunk of plain) hash.update(chunk);
      });
    } catch {
      failed.push({ documentId: row.id, reason: 'does-not-open' });
      continue;
    }
    if (hash.digest('hex') !== row.sha256) failed.push({ documentId: row.id, reason: 'differs' });
  }
  onProgress?.(done, rows.length);
  return { checked: rows.length, failed };
}
