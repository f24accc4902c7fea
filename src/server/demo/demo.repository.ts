import { count, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../platform/db/client';
import {
  auditEvents,
  documentReadings,
  documents,
  intakeDeliveries,
  automaticReminders,
  notificationHistory,
  notificationTemplates,
  reminderSchedules,
  players,
  registrations,
  seasonRequirements,
  seasons,
  submissions,
  sessions,
  uploadLinks,
  users,
  userTokens,
} from '../platform/db/schema';

/** Row counts of the tables that demo data fills. */
export type DemoRowCounts = {
  seasons: number;
  players: number;
  registrations: number;
  submissions: number;
  documents: number;
  users: number;
  notificationTemplates: number;
  notificationHistory: number;
};

/** Arbitrary constant (the migration lock is 7_305_571_001): serialises demo seeding across instances. */
const DEMO_SEED_LOCK_KEY = 7_305_571_002;

/**
 * Holds the demo-seeding lock until the surrounding transaction ends, so two instances starting on one
 * empty PostgreSQL cannot both decide to seed. Call it with a transaction.
 */
export async function lockDemoSeeding(tx: Db): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${DEMO_SEED_LOCK_KEY})`);
}

/**
 * Empties every table demo data fills (and the audit trail) for `npm run seed -- --reset`. The people go, so
 * their sign-in links and sessions go with them: everyone signs in again after a reset.
 * No CASCADE on purpose: a table added later that points at players must be listed here deliberately,
 * not emptied silently; until then PostgreSQL refuses the truncate and says which table is in the way.
 */
export async function truncateDemoTables(db: Db): Promise<void> {
  await db.execute(
    sql`truncate table ${intakeDeliveries}, ${documentReadings}, ${documents}, ${submissions}, ${registrations}, ${players}, ${seasonRequirements}, ${seasons}, ${automaticReminders}, ${reminderSchedules}, ${uploadLinks}, ${notificationHistory}, ${notificationTemplates}, ${userTokens}, ${sessions}, ${users}, ${auditEvents} restart identity`,
  );
}

async function countRows(db: Db, table: PgTable): Promise<number> {
  const [row] = await db.select({ n: count() }).from(table);
  return row?.n ?? 0;
}

export async function countDemoRows(db: Db): Promise<DemoRowCounts> {
  return {
    seasons: await countRows(db, seasons),
    players: await countRows(db, players),
    registrations: await countRows(db, registrations),
    submissions: await countRows(db, submissions),
    documents: await countRows(db, documents),
    users: await countRows(db, users),
    notificationTemplates: await countRows(db, notificationTemplates),
    notificationHistory: await countRows(db, notificationHistory),
  };
}
