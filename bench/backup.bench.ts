import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { chmod, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { createLocalStorage } from '../src/server/adapters/storage/local-storage';
import { createBackup, restoreBackup, verifyDocuments } from '../src/server/backup';
import { DEMO_DEFAULTS, seedDemoDataIfEmpty } from '../src/server/demo';
import { makeDataFolder } from '../src/server/platform/data-folder';
import { openDatabase, type DatabaseTarget } from '../src/server/platform/db/client';
import { embeddedPostgresUnavailable } from '../src/server/platform/db/embedded-postgres';
import { figure, type BenchFigure } from './figures';

/**
 * `npm run backup` and `npm run restore` on the embedded database (the bundled PostgreSQL; PGlite where it
 * cannot run), in process: an install seeded with the demo data (every document's file encrypted in local
 * storage) backed up into an archive, and that archive restored into a new database and storage folder, then
 * every document opened and checked (what `--verify` does). Timed apart: the backup, the restore, the check;
 * and the archive's size beside the stored files'. At the demo's size and at 5,000 players with files.
 * The archive's passphrase is stretched with scrypt at age's default (2^18) as the command does.
 */

export type BackupBenchCase = { label: string; players: number };
export const FULL_CASES: BackupBenchCase[] = [
  { label: 'demo data', players: DEMO_DEFAULTS.players },
  { label: '5,000 players with files', players: 5_000 },
];
export const QUICK_CASES: BackupBenchCase[] = [{ label: 'demo data', players: DEMO_DEFAULTS.players }];

const PASSPHRASE = 'the backup bench passphrase';

export async function runBackupBench(options: { cases?: BackupBenchCase[]; write?: (text: string) => void } = {}): Promise<BenchFigure[]> {
  const write = options.write ?? (() => undefined);
  const figures: BenchFigure[] = [];
  for (const benchCase of options.cases ?? FULL_CASES) {
    const folder = await mkdtemp(path.join(tmpdir(), 'clearbase-backup-bench-'));
    // Passable (not listable): as root, the bundled PostgreSQL runs as another account inside it.
    await chmod(folder, 0o711);
    try {
      figures.push(...(await runCase(benchCase, folder, write)));
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  }
  return figures;
}

/** The bundled PostgreSQL in `<folder>/<name>`, or PGlite where it cannot run. */
async function targetIn(folder: string, name: string): Promise<DatabaseTarget> {
  const dataDir = path.join(folder, name);
  await makeDataFolder(dataDir);
  return embeddedPostgresUnavailable(dataDir) ? { kind: 'pglite', dir: path.join(dataDir, 'db') } : { kind: 'embedded-postgres', dir: path.join(dataDir, 'postgres') };
}

async function runCase(benchCase: BackupBenchCase, folder: string, write: (text: string) => void): Promise<BenchFigure[]> {
  const masterKey = randomBytes(32);
  const source = await targetIn(folder, 'source');
  const sourceStorage = createLocalStorage(path.join(folder, 'source-storage'), { durable: false });
  write(`  ${benchCase.label}: seeding ${benchCase.players.toLocaleString('en-US')} players with their files on ${source.kind}…\n`);
  const database = await openDatabase(source);
  let archiveBytes = 0;
  let backupSeconds = 0;
  let summary;
  const archive = path.join(folder, 'backup.tar.age');
  try {
    await seedDemoDataIfEmpty(database.db, { ...DEMO_DEFAULTS, players: benchCase.players, idPrefix: 'CB', now: new Date(), files: { storage: sourceStorage, masterKey } });
    const started = performance.now();
    const out = createWriteStream(archive);
    summary = await createBackup({ db: database.db, storage: sourceStorage, storageFor: () => sourceStorage }, out, PASSPHRASE);
    await finished(out);
    backupSeconds = (performance.now() - started) / 1000;
    archiveBytes = (await stat(archive)).size;
  } finally {
    await database.close();
  }

  const restored = await targetIn(folder, 'restored');
  const restoredStorage = createLocalStorage(path.join(folder, 'restored-storage'));
  const restoreStarted = performance.now();
  await restoreBackup(createReadStream(archive), PASSPHRASE, { open: (migrations) => openDatabase(restored, { migrations }), storage: restoredStorage });
  const reopened = await openDatabase(restored);
  let verifySeconds;
  let restoreSeconds;
  try {
    restoreSeconds = (performance.now() - restoreStarted) / 1000;
    const verifyStarted = performance.now();
    const verified = await verifyDocuments(reopened.db, restoredStorage, masterKey);
    verifySeconds = (performance.now() - verifyStarted) / 1000;
    if (verified.checked === 0 || verified.failed.length > 0) throw new Error(`${verified.failed.length} of ${verified.checked} documents did not open after the restore`);
  } finally {
    await reopened.close();
  }
  const detail = { database: source.kind, players: benchCase.players, rows: summary.rows, files: summary.files, fileMB: Math.round(summary.fileBytes / 1e5) / 10 };
  const section = 'backup';
  const result = [
    figure({ section, name: `backup time (${benchCase.label})`, value: backupSeconds, unit: 's', detail }),
    figure({ section, name: `archive size (${benchCase.label})`, value: archiveBytes / 1e6, unit: 'MB', detail }),
    figure({ section, name: `restore time (${benchCase.label})`, value: restoreSeconds, unit: 's', detail }),
    figure({ section, name: `every document opened and checked after the restore (${benchCase.label})`, value: verifySeconds, unit: 's', detail }),
  ];
  write(
    `  ${benchCase.label}: ${summary.rows.toLocaleString('en-US')} rows, ${summary.files.toLocaleString('en-US')} files (${(summary.fileBytes / 1e6).toFixed(1)} MB): ` +
      `backup ${backupSeconds.toFixed(1)} s, archive ${(archiveBytes / 1e6).toFixed(1)} MB, restore ${restoreSeconds.toFixed(1)} s, check ${verifySeconds.toFixed(1)} s\n`,
  );
  return result;
}
