import { createHash } from 'node:crypto';
import type { Readable, Writable } from 'node:stream';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { z } from 'zod';
import type { Storage } from '../adapters/storage/port';
import { appliedMigrationCount, type Db } from '../platform/db/client';
import { writeArchive, type ArchiveEntry } from './archive';
import { createChannel } from './channel';
import { dumpDatabase, storedFiles, type StoredFile, type TableShape } from './backup.repository';

/**
 * What a backup archive holds, in this order:
 * - `clearbase-backup.json`: the format, when it was made, the schema's migration level, each table's columns;
 * - `database/<table>/<part>.jsonl.gz`: every row of every table, in one snapshot (backup.repository.ts), gzipped;
 * - `files/<driver>/<key>`: every stored object the snapshot points at (documents' files as stored,
 *   still encrypted under the master key; files waiting in staging; form builders' raw bodies kept for a
 *   replay), byte for byte;
 * - `manifest.json`: the count of rows per table, and each file's size and SHA-256, to check a restore against;
 *   in a backup that names the files in an S3 bucket by their versions instead of copying them (format 2),
 *   each such object's bucket, key, version id, ETag and size.
 * The master key is not in it: it is kept apart (printed on its recovery sheet), and a restore asks for it.
 */
export const BACKUP_FORMAT = 2;
/** The format of a backup holding every file's bytes: what any Clearbase that restores backups reads. */
const COPIES_FORMAT = 1;
export const HEADER_ENTRY = 'clearbase-backup.json';
export const MANIFEST_ENTRY = 'manifest.json';

export const ZBackupHeader = z.object({
  format: z.union([z.literal(COPIES_FORMAT), z.literal(BACKUP_FORMAT)]),
  createdAt: z.string(),
  /** Migrations applied to the database the rows were read from. */
  migrations: z.number().int().positive(),
  tables: z.array(z.object({ name: z.string(), columns: z.array(z.string()), identity: z.boolean() })),
});
export type BackupHeader = z.infer<typeof ZBackupHeader>;

export const ZStorageDriver = z.enum(['local', 's3']);
export const ZBucketObject = z.object({
  /** The bucket's address, `s3://bucket`. */
  bucket: z.string().startsWith('s3://'),
  key: z.string(),
  versionId: z.string().nullable(),
  etag: z.string(),
  bytes: z.number().int().nonnegative(),
});
export type BucketObject = z.infer<typeof ZBucketObject>;
export const ZBackupManifest = z.object({
  rows: z.record(z.string(), z.number().int().nonnegative()),
  files: z.array(z.object({ driver: ZStorageDriver, key: z.string(), bytes: z.number().int().nonnegative(), sha256: z.string() })),
  /** Files left in their S3 bucket, named by version: restored from there. */
  objects: z.array(ZBucketObject).default([]),
});
export type BackupManifest = z.infer<typeof ZBackupManifest>;

export type BackupSummary = {
  rows: number;
  tables: number;
  /** Files whose bytes the archive holds. */
  files: number;
  fileBytes: number;
  /** Files named by their version in an S3 bucket instead, and of those, the ones the bucket keeps no version id for. */
  objects: number;
  objectsWithoutVersion: number;
  missingFiles: number;
};

export type BackupDeps = {
  db: Db;
  /** The storage a document's `storage_driver` names; throws for one this server has not configured. */
  storageFor(driver: 'local' | 's3'): Storage;
  /** Where staged files and form builders' bodies are (the configured storage). */
  storage: Storage;
  now?: () => Date;
  /**
   * `copies` (the default): every file's bytes go into the archive. `versions`: a file in a store that keeps
   * versions (an S3 bucket) is named by its version, ETag and size instead, and stays where it is; the archive
   * then holds the database and the manifest, and a restore reads those files from the bucket.
   */
  files?: 'copies' | 'versions';
};

export type BackupProgress = { stage: 'database'; table: string; rows: number } | { stage: 'files'; done: number; total: number };

const gzipped = promisify(gzip);

export const fileEntryName = (file: StoredFile) => `files/${file.driver}/${file.key}`;

/**
 * Writes a backup of the whole install into `out` (encrypted with `passphrase`), and says what it holds.
 * A file the database points at that is not in storage is left out and counted in `missingFiles` (its
 * document could not be opened before the backup either); every other failure rejects, and `out` then
 * holds a partial archive that its owner must remove.
 */
export async function createBackup(
  deps: BackupDeps,
  out: Writable,
  passphrase: string,
  options: { workFactor?: number; onProgress?: (progress: BackupProgress) => void } = {},
): Promise<BackupSummary> {
  const entries = createChannel<ArchiveEntry>();
  const manifest: BackupManifest = { rows: {}, files: [], objects: [] };
  let missingFiles = 0;
  const produce = async () => {
    const migrations = await appliedMigrationCount(deps.db);
    let files: StoredFile[] = [];
    let headerWritten = false;
    const writeHeader = async (shapes: readonly TableShape[]) => {
      const header: BackupHeader = { format: deps.files === 'versions' ? BACKUP_FORMAT : COPIES_FORMAT, createdAt: (deps.now?.() ?? new Date()).toISOString(), migrations, tables: [...shapes] };
      const body = Buffer.from(JSON.stringify(header, null, 2));
      await entries.push({ name: HEADER_ENTRY, size: body.length, body });
      headerWritten = true;
    };
    const dumped = await dumpDatabase(
      deps.db,
      async (part, _shape, shapes) => {
        if (!headerWritten) await writeHeader(shapes);
        options.onProgress?.({ stage: 'database', table: part.table, rows: part.rows });
        // Rows are text and shrink some tenfold; stored files are ciphertext, which nothing shrinks.
        const body = await gzipped(part.lines);
        await entries.push({ name: `database/${part.table}/${String(part.part).padStart(6, '0')}.jsonl.gz`, size: body.length, body });
      },
      async (tx) => {
        files = await storedFiles(tx, deps.storage.driver);
      },
    );
    if (!headerWritten) await writeHeader(dumped.shapes);
    manifest.rows = dumped.rows;

    let done = 0;
    // Read a few files ahead while the archive takes the current one: each read waits on the disk (or S3).
    const reads: Array<Promise<ReadFile | undefined>> = [];
    const readAhead = (at: number) => {
      const file = files[at];
      if (!file || reads[at] !== undefined) return;
      const read = readFile(deps, file);
      // Awaited in its turn; a backup that stops before then must not leave its failure unheard.
      read.catch(() => undefined);
      reads[at] = read;
    };
    for (let at = 0; at < files.length; at++) {
      for (let ahead = at; ahead < at + READ_AHEAD; ahead++) readAhead(ahead);
      options.onProgress?.({ stage: 'files', done, total: files.length });
      const read = await reads[at];
      reads[at] = Promise.resolve(undefined);
      if (read === undefined) missingFiles++;
      else if ('object' in read) manifest.objects.push(read.object);
      else {
        await entries.push({ name: fileEntryName(read.file), size: read.body.length, body: read.body });
        manifest.files.push({ driver: read.file.driver, key: read.file.key, bytes: read.body.length, sha256: read.sha256 });
      }
      done++;
    }
    options.onProgress?.({ stage: 'files', done, total: files.length });
    const body = Buffer.from(JSON.stringify(manifest));
    await entries.push({ name: MANIFEST_ENTRY, size: body.length, body });
  };
  const producing = produce().then(
    () => entries.end(),
    (error: unknown) => {
      entries.fail(error);
      throw error;
    },
  );
  await Promise.all([writeArchive(entries, passphrase, out, { workFactor: options.workFactor }), producing]);
  const rows = Object.values(manifest.rows).reduce((sum, n) => sum + n, 0);
  return {
    rows,
    tables: Object.keys(manifest.rows).length,
    files: manifest.files.length,
    fileBytes: manifest.files.reduce((sum, file) => sum + file.bytes, 0),
    objects: manifest.objects.length,
    objectsWithoutVersion: manifest.objects.filter((object) => object.versionId === null).length,
    missingFiles,
  };
}

/** Files read from storage ahead of the one being written, at most. */
const READ_AHEAD = 8;

type ReadFile = { file: StoredFile; body: Buffer; sha256: string } | { object: BucketObject };

/**
 * One stored object, read whole: its size is needed before its bytes (the entry's header), and a document is
 * at most the upload cap. Or, in a backup by versions, what its bucket says of its current version. Undefined
 * when it is not in storage.
 */
async function readFile(deps: BackupDeps, file: StoredFile): Promise<ReadFile | undefined> {
  const storage = deps.storageFor(file.driver);
  if (deps.files === 'versions' && storage.versionOf) {
    const version = await storage.versionOf(file.key);
    return version && { object: { bucket: storage.location, key: file.key, ...version } };
  }
  if (!(await storage.exists(file.key))) return undefined;
  const chunks: Buffer[] = [];
  const hash = createHash('sha256');
  for await (const chunk of await storage.get(file.key)) {
    hash.update(chunk as Buffer);
    chunks.push(chunk as Buffer);
  }
  return { file, body: Buffer.concat(chunks), sha256: hash.digest('hex') };
}

/** The bytes of a Readable, for the small entries (header, manifest). */
export async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
