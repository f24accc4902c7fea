import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createLocalStorage } from '../src/server/adapters/storage/local-storage';
import type { Storage } from '../src/server/adapters/storage/port';
import { processesUsingFolder, otherSessions, rotateMasterKey, RotationRefusedError, STAGE_NAMES, type KeyPlace, type RotationProgress, type RotationStage } from '../src/server/key-rotation';
import { ConfigError, loadConfig, type Config } from '../src/server/platform/config';
import { openDatabase, type Database } from '../src/server/platform/db/client';
import { EmbeddedPostgresError } from '../src/server/platform/db/embedded-postgres';

/**
 * `npm run rotate-key [-- --new-key-file <path>]`: replaces the master key and wraps every file key again
 * with the new one (key-rotation/, decision 040). Exit codes: 0 done, 1 refused or failed, 2 bad arguments
 * or configuration.
 */

const USAGE = `Usage: npm run rotate-key [-- --new-key-file <path>]

Makes a new master key and seals every stored file's key with it; the files themselves are not rewritten.
Stop every Clearbase server using this data first. If it is interrupted, run it again: it finishes the job.

  --new-key-file <path>  only when the key comes from CLEARBASE_MASTER_KEY: where to save the new key
                         (a new file, or the one an interrupted run saved); you then put it in CLEARBASE_MASTER_KEY
  --help                 show this text`;

/** Only for the test that interrupts a run: one row per transaction, and this many milliseconds after each. */
const TEST_PAUSE_VARIABLE = 'CLEARBASE_ROTATE_KEY_TEST_PAUSE_MS';
const APPLICATION_NAME = `clearbase-rotate-key-${process.pid}`;

class Refusal extends Error {}
class UsageError extends Error {}

async function main(): Promise<number> {
  let args: { newKeyFile?: string; help: boolean };
  let config: Config;
  try {
    const { values } = parseArgs({ options: { 'new-key-file': { type: 'string' }, help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals: false });
    args = { newKeyFile: values['new-key-file'], help: values.help ?? false };
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) process.stderr.write(`The configuration has a problem:\n${error.message}\n`);
    else process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}\n`);
    return 2;
  }
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }

  try {
    const place = keyPlace(config, args.newKeyFile);
    await refuseWhileAServerUsesTheFolder(config);
    const database = await open(config);
    try {
      if (config.database.kind === 'postgres') {
        const others = await otherSessions(database.db, APPLICATION_NAME);
        if (others > 0) {
          throw new Refusal(
            `${others} other connection(s) are open to this database: stop every Clearbase server that uses it (and close any other tool connected to it), then run this again. Nothing was changed.`,
          );
        }
      }
      return await rotate(database, await createStorage(config.storage), place);
    } finally {
      await database.close();
    }
  } catch (error) {
    if (error instanceof Refusal || error instanceof RotationRefusedError || error instanceof EmbeddedPostgresError || error instanceof UsageError) {
      process.stderr.write(`${error.message}\n`);
      return error instanceof UsageError ? 2 : 1;
    }
    process.stderr.write(`The master key could not be changed: ${error instanceof Error ? error.message : String(error)}\nRun this again to finish; every file still opens with one of the two keys.\n`);
    return 1;
  }
}

function keyPlace(config: Config, newKeyFile: string | undefined): KeyPlace {
  if (config.masterKey) {
    if (!newKeyFile) {
      throw new Refusal(
        'The master key comes from CLEARBASE_MASTER_KEY, which this command cannot change. Run it with ' +
          '--new-key-file <path> (a place only you can read, outside the data folder): it saves the new key there and ' +
          'seals every file with it; then set CLEARBASE_MASTER_KEY to what that file holds before starting Clearbase again.',
      );
    }
    return { kind: 'environment', key: config.masterKey, newKeyFile: path.resolve(newKeyFile) };
  }
  if (newKeyFile) throw new UsageError('--new-key-file is only for a master key given in CLEARBASE_MASTER_KEY; this one is the file ' + config.masterKeyFile);
  if (!existsSync(config.masterKeyFile)) throw new Refusal(`There is no master key at ${config.masterKeyFile} yet, so there is nothing to change.`);
  return { kind: 'file', file: config.masterKeyFile };
}

/**
 * PGlite keeps its files open while a server runs. The bundled PostgreSQL refuses to start beside the server
 * that runs it (openDatabase says so). A PostgreSQL server is asked who else is connected, once open.
 */
async function refuseWhileAServerUsesTheFolder(config: Config): Promise<void> {
  if (config.database.kind !== 'pglite' || config.database.dir === undefined || !existsSync(config.database.dir)) return;
  const users = await processesUsingFolder(config.database.dir);
  if (users === undefined) {
    process.stdout.write('This system cannot tell whether a Clearbase server is running: make sure it is stopped.\n');
    return;
  }
  if (users.length > 0) throw new Refusal(`A Clearbase server (process ${users.join(', ')}) is using this data folder: stop it first. Nothing was changed.`);
}

function open(config: Config): Promise<Database> {
  if (config.database.kind !== 'postgres') return openDatabase(config.database);
  const url = new URL(config.database.url);
  url.searchParams.set('application_name', APPLICATION_NAME);
  return openDatabase({ kind: 'postgres', url: url.toString() });
}

async function createStorage(settings: Config['storage']): Promise<Storage> {
  if (settings.driver === 'local') return createLocalStorage(settings.dir);
  const { createS3Storage } = await import('../src/server/adapters/storage/s3-storage');
  return createS3Storage(settings);
}

async function rotate(database: Database, storage: Storage, place: KeyPlace): Promise<number> {
  const pauseMs = Number(process.env[TEST_PAUSE_VARIABLE] ?? '') || undefined;
  const say = (line: string) => process.stdout.write(`${line}\n`);
  const result = await rotateMasterKey({
    db: database.db,
    storage,
    place,
    say,
    onProgress: progressPrinter(say, pauseMs !== undefined),
    ...(pauseMs ? { pauseMs, rowsPerTransaction: 1 } : {}),
  });
  if (result.outcome === 'already-in-use') {
    say('CLEARBASE_MASTER_KEY already holds the new key: the change of master key is complete.');
    return 0;
  }
  const { counts } = result;
  const unreadable = Object.values(counts).reduce((sum, tally) => sum + tally.unreadable, 0);
  say('');
  for (const [stage, tally] of Object.entries(counts) as Array<[RotationStage, (typeof counts)[RotationStage]]>) {
    say(`  ${STAGE_NAMES[stage]}: ${format(tally.done + tally.rewrapped)}`);
  }
  if (unreadable > 0) {
    say(`  ${format(unreadable)} item(s) could not be opened with the old key either (damaged before this change); they were left as they were.`);
  }
  say('');
  if (place.kind === 'file') {
    say(`Done: the new master key is in use, in ${place.file}. The old key no longer opens anything.`);
    say(`Back up ${place.file} now: stored files cannot be opened without it. Backups of the database made before`);
    say('this change need the old key, which is gone; make a new backup. Then download the new key\'s recovery');
    say('sheet in Settings → Security.');
  } else {
    say(`Done: every file is sealed with the new key saved in ${place.newKeyFile}. The old key no longer opens anything.`);
    say('Before starting Clearbase again, set CLEARBASE_MASTER_KEY to what that file holds, e.g.');
    say(`  CLEARBASE_MASTER_KEY="$(cat ${place.newKeyFile})"`);
    say('then keep that file as safe as the key itself (or delete it once the key is stored where you keep secrets).');
  }
  return 0;
}

/** "Stored files: 1,200 of 5,000", at most once a second per stage, and always at a stage's end. */
function progressPrinter(say: (line: string) => void, everyStep: boolean): (progress: RotationProgress) => void {
  let lastAt = 0;
  return ({ stage, done, total }) => {
    const now = Date.now();
    if (!everyStep && done < total && now - lastAt < 1_000) return;
    lastAt = now;
    say(`${STAGE_NAMES[stage]}: ${format(done)} of ${format(total)}`);
  };
}

const format = (n: number) => n.toLocaleString('en-US');

process.exitCode = await main();
