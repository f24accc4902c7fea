import { recordAuditEvent } from '../db/audit-events.repository';
import type { Db } from '../db/client';
import { lockDemoSeeding, truncateDemoTables, type DemoRowCounts } from '../db/demo.repository';
import { insertDocuments } from '../db/documents.repository';
import { insertNotificationHistory } from '../db/notification-history.repository';
import { insertNotificationTemplates } from '../db/notification-templates.repository';
import { insertPlayers } from '../db/players.repository';
import { insertRegistrations } from '../db/registrations.repository';
import { countSeasons, insertSeasons } from '../db/seasons.repository';
import { insertSubmissions } from '../db/submissions.repository';
import { insertUsers } from '../db/users.repository';
import {
  countDemoData,
  DEFAULT_DEMO_PLAYERS,
  DEFAULT_DEMO_SEED,
  generateDemoData,
  type DemoData,
  type DemoDataOptions,
} from './generate-demo-data';

/** What a fresh embedded database gets at first start: every screen filled, seeded in about a second. */
export const DEMO_DEFAULTS = { seed: DEFAULT_DEMO_SEED, players: DEFAULT_DEMO_PLAYERS } as const;

export type DemoTable = keyof DemoRowCounts;

export type SeedProgress =
  | { phase: 'generated'; counts: DemoRowCounts; ms: number }
  | { phase: 'inserted'; table: DemoTable; rows: number; ms: number };

export interface SeedDemoOptions extends DemoDataOptions {
  /** Called after generation and after each table is written, for the CLI's progress lines. */
  onProgress?: (progress: SeedProgress) => void;
}

export type SeedIfEmptyResult = { seeded: true; counts: DemoRowCounts } | { seeded: false };

/** Generates and writes demo data in one transaction, with one audit event. Returns the row counts. */
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

async function writeDemoData(tx: Db, options: SeedDemoOptions): Promise<DemoRowCounts> {
  const { onProgress, ...dataOptions } = options;
  let started = performance.now();
  const data = generateDemoData(dataOptions);
  const counts = countDemoData(data);
  onProgress?.({ phase: 'generated', counts, ms: performance.now() - started });

  const write = async <K extends DemoTable>(
    table: K,
    insert: (db: Db, rows: DemoData[K]) => Promise<void>,
  ): Promise<void> => {
    started = performance.now();
    await insert(tx, data[table]);
    onProgress?.({ phase: 'inserted', table, rows: data[table].length, ms: performance.now() - started });
  };
  // Parents before children: every foreign key points at rows already written.
  await write('seasons', insertSeasons);
  await write('players', insertPlayers);
  await write('registrations', insertRegistrations);
  await write('submissions', insertSubmissions);
  await write('documents', insertDocuments);
  await write('users', insertUsers);
  await write('notificationTemplates', insertNotificationTemplates);
  await write('notificationHistory', insertNotificationHistory);

  await recordAuditEvent(tx, {
    actor: 'system',
    action: 'demo.seeded',
    subjectType: 'database',
    subjectId: null,
    detail: { seed: options.seed, players: options.players, idPrefix: options.idPrefix, counts },
  });
  return counts;
}
