import { recordAuditEvent } from '../audit';
import type { Db } from '../platform/db/client';
import { lockDemoSeeding, truncateDemoTables, type DemoRowCounts } from './demo.repository';
import { insertDocuments } from '../documents';
import { queueReadings } from '../reading';
import { insertNotificationHistory, insertNotificationTemplates, insertReminderSchedules } from '../notifications';
import { generateReminderSchedules } from './demo-notifications';
import { insertPlayers, insertRegistrations } from '../players';
import { countSeasons, insertSeasons } from '../seasons';
import { insertSubmissions } from '../pipeline';
import { insertUsers } from '../users';
import { attachDemoFiles, type DemoFileStore } from './demo-files';
import {
  countDemoData,
  DEFAULT_DEMO_PLAYERS,
  DEFAULT_DEMO_SEED,
  generateDemoDataInChunks,
  type DemoData,
  type DemoDataOptions,
} from './generate-demo-data';

/** What a fresh embedded database gets at first start: every screen filled, seeded in about a second. */
export const DEMO_DEFAULTS = { seed: DEFAULT_DEMO_SEED, players: DEFAULT_DEMO_PLAYERS } as const;

export type DemoTable = keyof DemoRowCounts;

/** Running totals, reported after each chunk is written. */
export type SeedProgress = {
  players: number;
  totalPlayers: number;
  written: DemoRowCounts;
  generateMs: number;
  writeMs: number;
};

export interface SeedDemoOptions extends DemoDataOptions {
  /** Called after each chunk of players is written, for the CLI's progress lines. */
  onProgress?: (progress: SeedProgress) => void;
  /** Players generated and written per step; bounds memory for very large seeds. */
  playersPerChunk?: number;
  /** Where every document's generated file is stored, encrypted; left out, documents point at no file (large benchmark seeds). */
  files?: DemoFileStore;
}

const DEFAULT_PLAYERS_PER_CHUNK = 10_000;

export type SeedIfEmptyResult = { seeded: true; counts: DemoRowCounts } | { seeded: false };

/**
 * Generates and writes demo data in one transaction, with one audit event, and returns the generated
 * row counts. Meant for an empty database: the repositories skip rows whose keys already exist, so on a
 * seeded one the counts would overstate what was written. Callers that cannot know use the two below.
 */
export function seedDemoData(db: Db, options: SeedDemoOptions): Promise<DemoRowCounts> {
  return db.transaction(async (tx) => {
    await lockDemoSeeding(tx);
    return writeDemoData(tx, options);
  });
}

/**
 * Seeds only a database without seasons, and says whether it did. The advisory lock is taken before
 * the check, so when two instances start together on one PostgreSQL the second waits, then sees the
 * first one's seasons and leaves them alone.
 */
export function seedDemoDataIfEmpty(db: Db, options: SeedDemoOptions): Promise<SeedIfEmptyResult> {
  return db.transaction(async (tx): Promise<SeedIfEmptyResult> => {
    await lockDemoSeeding(tx);
    if ((await countSeasons(tx)) > 0) return { seeded: false };
    return { seeded: true, counts: await writeDemoData(tx, options) };
  });
}

/** Empties the demo tables and seeds afresh, all or nothing: a failed reset leaves the old data in place. */
export function replaceWithDemoData(db: Db, options: SeedDemoOptions): Promise<DemoRowCounts> {
  return db.transaction(async (tx) => {
    await lockDemoSeeding(tx);
    await truncateDemoTables(tx);
    return writeDemoData(tx, options);
  });
}

/**
 * Writes chunk by chunk inside the caller's transaction: memory stays at one chunk (~60 MB for 10,000
 * players) while the whole seed still commits or rolls back as one.
 */
async function writeDemoData(tx: Db, options: SeedDemoOptions): Promise<DemoRowCounts> {
  const { onProgress, playersPerChunk = DEFAULT_PLAYERS_PER_CHUNK, files, ...dataOptions } = options;
  const written: DemoRowCounts = {
    seasons: 0,
    players: 0,
    registrations: 0,
    submissions: 0,
    documents: 0,
    users: 0,
    notificationTemplates: 0,
    notificationHistory: 0,
  };
  let generateMs = 0;
  let writeMs = 0;

  const chunks = generateDemoDataInChunks(dataOptions, playersPerChunk);
  for (;;) {
    let started = performance.now();
    const next = chunks.next();
    generateMs += performance.now() - started;
    if (next.done) break;

    started = performance.now();
    await writeChunk(tx, next.value, files);
    writeMs += performance.now() - started;
    const counts = countDemoData(next.value);
    for (const table of Object.keys(written) as DemoTable[]) written[table] += counts[table];
    onProgress?.({ players: written.players, totalPlayers: options.players, written: { ...written }, generateMs, writeMs });
  }

  await recordAuditEvent(tx, {
    actor: 'system',
    action: 'demo.seeded',
    subjectType: 'database',
    subjectId: null,
    detail: { seed: options.seed, players: options.players, idPrefix: options.idPrefix, counts: written },
  });
  return written;
}

/**
 * Parents before children: every foreign key points at a row already written, in this chunk or before. The
 * documents' files are written while their parents' rows are, and the documents once their files are stored.
 */
async function writeChunk(tx: Db, chunk: DemoData, files: DemoFileStore | undefined): Promise<void> {
  const parents = async () => {
    await insertSeasons(tx, chunk.seasons);
    await insertPlayers(tx, chunk.players);
    await insertRegistrations(tx, chunk.registrations);
    await insertSubmissions(tx, chunk.submissions);
  };
  await Promise.all([parents(), files ? attachDemoFiles(chunk, files) : undefined]);
  await insertDocuments(tx, chunk.documents);
  // The documents under review are read like uploads, so the Review screen shows what reading finds.
  if (files) await queueReadings(tx, chunk.documents.flatMap((document) => (document.status === 'pending' && document.storageKey && document.id ? [document.id] : [])));
  await insertUsers(tx, chunk.users);
  await insertNotificationTemplates(tx, chunk.notificationTemplates);
  await insertNotificationHistory(tx, chunk.notificationHistory);
  await insertReminderSchedules(tx, generateReminderSchedules(chunk.seasons));
}
