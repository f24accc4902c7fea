import { parseArgs } from 'node:util';
import { openStorage } from '../src/server/adapters/storage/open-storage';
import { DestinationError, describeFailure, megabytes, openDestination, passphraseProblem, pruneArchives, writeBackup, type BackupProgress } from '../src/server/backup';
import type { Config } from '../src/server/platform/config';
import { openDatabase, type Database } from '../src/server/platform/db/client';
import { runningEmbeddedPostgresUrl } from '../src/server/platform/db/embedded-postgres';
import { processesUsingFolder } from '../src/server/key-rotation';
import { askSecret } from './ask-secret';
import { bucketOpener, prepare, UsageError } from './backup-cli';

/**
 * `npm run backup -- <folder> [--keep N] [--s3-versions]`: one encrypted archive of the whole install (database,
 * stored files, settings) written into <folder>, a folder on this machine or `s3://bucket/folder`. Exit codes:
 * 0 written, 1 failed, 2 bad arguments, settings or passphrase.
 */

const USAGE = `Usage: npm run backup -- <folder> [--keep N] [--s3-versions]

  <folder>   where the archive goes: a folder (made if missing), or a folder in an S3 bucket,
             s3://bucket/folder, reached with the S3_* settings (S3_ENDPOINT, S3_REGION, the keys).
             The archive is named clearbase-backup-<date and time>.tar.age
  --keep N   afterwards, remove all but the N newest Clearbase backups in that folder
  --s3-versions
             with documents stored in S3: name each file by its version in the bucket instead of
             copying it into the archive (the archive then holds the database and that list; turn on
             versioning for the bucket, so a file changed or deleted later can still be restored)
  --help     show this text

The archive is encrypted with the passphrase in CLEARBASE_BACKUP_PASSPHRASE, or the one you type when asked.
Keep the passphrase and the master key (Settings → Security) apart from the archives: a restore needs all three.
With the embedded database, the backup reads it while Clearbase runs (bundled PostgreSQL) or once it is
stopped (PGlite).`;

type BackupArgs = { folder: string; keep: number | undefined; versions: boolean };

function parseBackupArgs(argv: string[]): BackupArgs | 'help' {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { keep: { type: 'string' }, 's3-versions': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (parsed.values.help) return 'help';
  const [folder, ...extra] = parsed.positionals;
  if (!folder || extra.length > 0) throw new UsageError('Name one folder to write the backup into.');
  if (folder.startsWith('s3:') && !folder.startsWith('s3://')) throw new UsageError('Give a bucket as s3://bucket/folder.');
  const keep = parsed.values.keep;
  if (keep !== undefined && !/^[1-9]\d{0,3}$/.test(keep)) throw new UsageError('--keep must be a whole number from 1 to 9999.');
  return { folder, keep: keep === undefined ? undefined : Number(keep), versions: parsed.values['s3-versions'] === true };
}

/** The settings' passphrase (CLEARBASE_BACKUP_PASSPHRASE, checked with the other settings), else one typed twice. */
async function passphrase(config: Config): Promise<string> {
  if (config.backupPassphrase !== undefined) return config.backupPassphrase;
  const typed = await askSecret('Backup passphrase: ');
  if (typed === undefined) throw new UsageError('Set CLEARBASE_BACKUP_PASSPHRASE, or run the backup in a terminal so it can ask for the passphrase.');
  const problem = passphraseProblem(typed);
  if (problem) throw new UsageError(problem);
  if ((await askSecret('The same passphrase again: ')) !== typed) throw new UsageError('The two passphrases differ; nothing was written.');
  return typed;
}

/** The database to read: a running server's bundled PostgreSQL is read where it runs. */
async function openSource(config: Config): Promise<Database> {
  if (config.database.kind === 'embedded-postgres') {
    const url = await runningEmbeddedPostgresUrl(config.database.dir);
    if (url) return openDatabase({ kind: 'postgres', url });
  }
  if (config.database.kind === 'pglite' && config.database.dir !== undefined) {
    // PGlite allows one process: opened beside a running server it would be written by two at once.
    const holders = await processesUsingFolder(config.database.dir);
    if (holders && holders.length > 0) {
      throw new InUseError(`Clearbase (process ${holders.join(', ')}) is using its PGlite database. Stop it, then run the backup again.`);
    }
  }
  return openDatabase(config.database);
}

class InUseError extends Error {}

function reporter(): (progress: BackupProgress) => void {
  let lastTable = '';
  let lastFiles = 0;
  return (progress) => {
    if (progress.stage === 'database' && progress.table !== lastTable) {
      lastTable = progress.table;
      process.stdout.write(`  database: ${progress.table}\n`);
    }
    if (progress.stage === 'files' && progress.total > 0 && (progress.done === progress.total || progress.done - lastFiles >= Math.max(1, Math.floor(progress.total / 10)))) {
      lastFiles = progress.done;
      process.stdout.write(`  files: ${progress.done.toLocaleString('en-US')} of ${progress.total.toLocaleString('en-US')}\n`);
    }
  };
}

async function backup(args: BackupArgs, config: Config, secret: string): Promise<number> {
  const started = performance.now();
  const database = await openSource(config);
  try {
    const storage = await openStorage(config.storage);
    if (args.versions && storage.driver !== 's3') throw new UsageError('--s3-versions is for documents stored in S3; these are in a folder, so the backup copies them.');
    const storageFor = (driver: 'local' | 's3') => {
      if (driver === storage.driver) return storage;
      throw new Error(`some documents are in ${driver === 's3' ? 'S3' : 'local'} storage, which is not configured now`);
    };
    const destination = await openDestination(args.folder, bucketOpener(config));
    await destination.prepare();
    const { bytes, summary } = await writeBackup({ db: database.db, storage, storageFor, files: args.versions ? 'versions' : 'copies' }, destination, secret, {
      onStart: (location) => console.log(`Writing ${location}…`),
      onProgress: reporter(),
    });
    console.log(
      `Done in ${((performance.now() - started) / 1000).toFixed(1)} s: ${summary.rows.toLocaleString('en-US')} rows of ${summary.tables} tables and ` +
        `${summary.files.toLocaleString('en-US')} files (${megabytes(summary.fileBytes)}); the archive is ${megabytes(bytes)}.`,
    );
    if (summary.objects > 0) {
      console.log(`${summary.objects.toLocaleString('en-US')} files stay in ${storage.location}, named in the archive by their version.`);
      if (summary.objectsWithoutVersion > 0) {
        console.log(
          `The bucket keeps no versions of ${summary.objectsWithoutVersion.toLocaleString('en-US')} of them: if one is changed or deleted there, this backup cannot bring it back. Turn on versioning for the bucket.`,
        );
      }
    }
    if (summary.missingFiles > 0) {
      console.log(`${summary.missingFiles} file${summary.missingFiles === 1 ? ' the database names was' : 's the database names were'} not in storage, and could not be backed up.`);
    }
    if (args.keep !== undefined) {
      const removed = await pruneArchives(destination, args.keep);
      if (removed.length > 0) console.log(`Removed ${removed.length} older backup${removed.length === 1 ? '' : 's'}, keeping the ${args.keep} newest.`);
    }
    return 0;
  } finally {
    await database.close();
  }
}

async function runBackupCli(argv: string[]): Promise<number> {
  const prepared = await prepare<BackupArgs>(USAGE, () => parseBackupArgs(argv), passphrase);
  if ('exitCode' in prepared) return prepared.exitCode;
  const { args, config, secret } = prepared;
  try {
    return await backup(args, config, secret);
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(error.message);
      return 2;
    }
    if (error instanceof InUseError || error instanceof DestinationError) {
      console.error(`Nothing was backed up: ${error.message}`);
      return 1;
    }
    const message = describeFailure(error);
    console.error(`The backup failed, and no archive was left behind: ${message}`);
    return 1;
  }
}

process.exitCode = await runBackupCli(process.argv.slice(2));
