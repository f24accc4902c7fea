import { existsSync } from 'node:fs';
import { chmod, copyFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createLocalStorage } from '../src/server/adapters/storage/local-storage';
import { openStorage } from '../src/server/adapters/storage/open-storage';
import type { Storage } from '../src/server/adapters/storage/port';
import {
  ArchiveError,
  DestinationError,
  describeFailure,
  megabytes,
  readArchiveAt,
  recordRestore,
  restoreBackup,
  RestoreRefused,
  verifyDocuments,
  type RestoreProgress,
  type RestoreSummary,
} from '../src/server/backup';
import type { Config } from '../src/server/platform/config';
import { readMasterKeyFile } from '../src/server/platform/crypto/master-key';
import { makeDataFolder } from '../src/server/platform/data-folder';
import { openDatabase, type DatabaseTarget } from '../src/server/platform/db/client';
import { embeddedPostgresUnavailable } from '../src/server/platform/db/embedded-postgres';
import { processesUsingFolder } from '../src/server/key-rotation';
import { askSecret } from './ask-secret';
import { bucketOpener, prepare, UsageError } from './backup-cli';

/**
 * `npm run restore -- <archive>`: a backup archive restored into the configured data folder (or DATABASE_URL),
 * which must hold no data yet. `--verify`: restored into a scratch folder instead, every document opened
 * with the master key and checked against the fingerprint taken when it was received, then the scratch
 * folder removed: the live install is not touched. Exit codes: 0 restored (or verified whole), 1 failed
 * (or a document did not check out), 2 bad arguments, settings or passphrase.
 */

const USAGE = `Usage: npm run restore -- <archive> [--verify] [--master-key-file <file>]

  <archive>                 a clearbase-backup-….tar.age file made by npm run backup, or one in an S3
                            bucket: s3://bucket/folder/clearbase-backup-….tar.age (with the S3_* settings)
  --verify                  restore into a scratch folder, open every document, report, and remove it;
                            the installation in CLEARBASE_DATA_DIR / DATABASE_URL is not touched
  --master-key-file <file>  the master key the backed-up install used (its recovery sheet's key, in a
                            file); restoring puts it in the new data folder. Not needed when
                            CLEARBASE_MASTER_KEY is set, or the data folder already holds master.key
  --help                    show this text

The archive's passphrase is read from CLEARBASE_BACKUP_PASSPHRASE, or asked for.
Without --verify, the restore goes into the data folder CLEARBASE_DATA_DIR names (or the database
DATABASE_URL names), which must be new: nothing is ever overwritten.`;

type RestoreArgs = { archive: string; verify: boolean; masterKeyFile: string | undefined };

function parseRestoreArgs(argv: string[]): RestoreArgs | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: { verify: { type: 'boolean' }, 'master-key-file': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: true,
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (parsed.values.help) return 'help';
  const [archive, ...extra] = parsed.positionals;
  if (!archive || extra.length > 0) throw new UsageError('Name one backup archive to restore.');
  const inBucket = archive.startsWith('s3://');
  if (!inBucket && !existsSync(archive)) throw new UsageError(`There is no file ${archive}.`);
  const keyFile = parsed.values['master-key-file'];
  if (keyFile !== undefined && !existsSync(keyFile)) throw new UsageError(`There is no file ${keyFile}.`);
  return { archive: inBucket ? archive : path.resolve(archive), verify: parsed.values.verify === true, masterKeyFile: keyFile === undefined ? undefined : path.resolve(keyFile) };
}

/** The settings' passphrase (CLEARBASE_BACKUP_PASSPHRASE), else the one typed. */
async function passphrase(config: Config): Promise<string> {
  const given = config.backupPassphrase ?? (await askSecret('Backup passphrase: '));
  if (given === undefined) throw new UsageError('Set CLEARBASE_BACKUP_PASSPHRASE, or run the restore in a terminal so it can ask for the passphrase.');
  return given;
}

/** The master key to open documents with, if one is at hand: the environment's, the file given, or the data folder's. */
async function masterKeyOf(config: Config, args: RestoreArgs): Promise<Buffer | undefined> {
  if (config.masterKey) return config.masterKey;
  if (args.masterKeyFile) return readMasterKeyFile(args.masterKeyFile);
  if (existsSync(config.masterKeyFile)) return readMasterKeyFile(config.masterKeyFile);
  return undefined;
}

function reporter(): (progress: RestoreProgress) => void {
  let lastTable = '';
  let files = 0;
  return (progress) => {
    if (progress.stage === 'database' && progress.table !== lastTable) {
      lastTable = progress.table;
      process.stdout.write(`  database: ${progress.table}\n`);
    }
    if (progress.stage === 'files' && progress.done - files >= 500) {
      files = progress.done;
      process.stdout.write(`  files: ${progress.done.toLocaleString('en-US')}\n`);
    }
  };
}

const describe = (summary: RestoreSummary) =>
  `${summary.rows.toLocaleString('en-US')} rows of ${summary.tables} tables and ${summary.files.toLocaleString('en-US')} files ` +
  `(${megabytes(summary.fileBytes)}), from the backup made ${summary.createdAt}`;

async function restoreInto(archive: string, config: Config, secret: string, target: DatabaseTarget, storage: Storage): Promise<RestoreSummary> {
  const openBucket = bucketOpener(config);
  const body = await readArchiveAt(archive, openBucket);
  if (!body) throw new UsageError(`There is no file ${archive}.`);
  const summary = await restoreBackup(body, secret, {
    openBucket,
    open: (migrations) => openDatabase(target, { migrations }),
    storage,
    onProgress: reporter(),
  });
  // Opened as the server opens it: the migrations made since the backup are applied now.
  const database = await openDatabase(target);
  try {
    await recordRestore(database.db, summary);
  } finally {
    await database.close();
  }
  return summary;
}

async function verifyAll(target: DatabaseTarget, storage: Storage, masterKey: Buffer): Promise<boolean> {
  const database = await openDatabase(target);
  try {
    const result = await verifyDocuments(database.db, storage, masterKey, (done, total) => {
      if (total > 0 && (done === total || done % 500 === 0)) process.stdout.write(`  documents opened: ${done.toLocaleString('en-US')} of ${total.toLocaleString('en-US')}\n`);
    });
    if (result.failed.length === 0) {
      console.log(`Every document opens and matches what was received (${result.checked.toLocaleString('en-US')}).`);
      return true;
    }
    const words = { missing: 'its file is missing', 'does-not-open': 'its file does not open (damaged, or another master key)', differs: 'its file differs from what was received' };
    console.error(`${result.failed.length} of ${result.checked.toLocaleString('en-US')} documents did not check out:`);
    for (const failure of result.failed.slice(0, 50)) console.error(`  document ${failure.documentId}: ${words[failure.reason]}`);
    if (result.failed.length > 50) console.error(`  …and ${result.failed.length - 50} more.`);
    return false;
  } finally {
    await database.close();
  }
}

async function verify(args: RestoreArgs, config: Config, secret: string): Promise<number> {
  const masterKey = await masterKeyOf(config, args);
  if (!masterKey) throw new UsageError('--verify opens every document, which needs the master key: give it with --master-key-file, or CLEARBASE_MASTER_KEY.');
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'clearbase-verify-'));
  try {
    // Passable (not listable): as root, the bundled PostgreSQL runs as another account inside it.
    await chmod(scratch, 0o711);
    const dataDir = path.join(scratch, 'data');
    await makeDataFolder(dataDir);
    const target: DatabaseTarget = embeddedPostgresUnavailable(dataDir) ? { kind: 'pglite', dir: path.join(dataDir, 'db') } : { kind: 'embedded-postgres', dir: path.join(dataDir, 'postgres') };
    const storage = createLocalStorage(path.join(scratch, 'storage'), { durable: false });
    console.log(`Restoring ${args.archive} into a scratch folder to check it…`);
    const summary = await restoreInto(args.archive, config, secret, target, storage);
    console.log(`The archive reads whole: ${describe(summary)}.`);
    return (await verifyAll(target, storage, masterKey)) ? 0 : 1;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

async function restore(args: RestoreArgs, config: Config, secret: string): Promise<number> {
  if (config.database.kind !== 'postgres') await makeDataFolder(config.dataDir);
  if (config.database.kind === 'pglite' && config.database.dir !== undefined) {
    const holders = await processesUsingFolder(config.database.dir);
    if (holders && holders.length > 0) throw new RestoreRefused(`Clearbase (process ${holders.join(', ')}) is using the database in this data folder; a restore goes only into a new one.`);
  }
  if (args.masterKeyFile && !config.masterKey && existsSync(config.masterKeyFile)) {
    const kept = await readMasterKeyFile(config.masterKeyFile);
    if (!kept.equals(await readMasterKeyFile(args.masterKeyFile))) throw new RestoreRefused(`${config.masterKeyFile} already holds another master key; nothing was restored.`);
  }
  const storage = await openStorage(config.storage);
  console.log(`Restoring ${args.archive}…`);
  const summary = await restoreInto(args.archive, config, secret, config.database, storage);
  if (args.masterKeyFile && !config.masterKey && !existsSync(config.masterKeyFile)) await copyFile(args.masterKeyFile, config.masterKeyFile);
  console.log(`Restored ${describe(summary)}.`);
  const masterKey = await masterKeyOf(config, args);
  if (!masterKey) {
    console.log(`No master key is at hand, so no document could be opened to check it. Put the key of the backed-up install in ${config.masterKeyFile} (mode 600), or set CLEARBASE_MASTER_KEY, before starting Clearbase.`);
    return 0;
  }
  return (await verifyAll(config.database, storage, masterKey)) ? 0 : 1;
}

async function runRestoreCli(argv: string[]): Promise<number> {
  const prepared = await prepare<RestoreArgs>(USAGE, () => parseRestoreArgs(argv), passphrase);
  if ('exitCode' in prepared) return prepared.exitCode;
  const { args, config, secret } = prepared;
  try {
    return await (args.verify ? verify(args, config, secret) : restore(args, config, secret));
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(error.message);
      return 2;
    }
    const known = error instanceof ArchiveError || error instanceof RestoreRefused || error instanceof DestinationError;
    console.error(`The restore failed: ${known ? error.message : `${describeFailure(error)}. The database was left as it was before the restore.`}`);
    return 1;
  }
}

process.exitCode = await runRestoreCli(process.argv.slice(2));
