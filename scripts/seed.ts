import { parseArgs } from 'node:util';
import { z } from 'zod';
import { ConfigError, loadConfig, type Config } from '../src/server/platform/config';
import { makeDataFolder } from '../src/server/platform/data-folder';
import { openDatabase, type Database } from '../src/server/platform/db/client';
import { countDemoRows, type DemoRowCounts } from '../src/server/demo/demo.repository';
import { DEFAULT_DEMO_PLAYERS, DEFAULT_DEMO_SEED, MAX_DEMO_PLAYERS } from '../src/server/demo/generate-demo-data';
import { replaceWithDemoData, seedDemoDataIfEmpty, type SeedProgress } from '../src/server/demo/seed-demo-data';

/**
 * `npm run seed -- --players 50000 [--seed 42] [--reset]`: fills the configured database (DATABASE_URL, or
 * the embedded one) with demo data. Exit codes: 0 seeded, 1 refused or failed, 2 bad arguments or config.
 */

const USAGE = `Usage: npm run seed -- [--players N] [--seed N] [--reset]

  --players N   distinct player rows to create, 1 to ${MAX_DEMO_PLAYERS.toLocaleString('en-US')} (default ${DEFAULT_DEMO_PLAYERS})
  --seed N      random seed, 0 to 4294967295; the same seed gives the same data (default ${DEFAULT_DEMO_SEED})
  --reset       first empty players, registrations, submissions, documents, seasons, users,
                notification templates and history, and the audit trail
  --help        show this text

Writes to DATABASE_URL, or to the embedded database under CLEARBASE_DATA_DIR when DATABASE_URL is unset.`;

const wholeNumber = (name: string, min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, `--${name} must be a whole number from ${min} to ${max.toLocaleString('en-US')}`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `--${name} must be a whole number from ${min} to ${max.toLocaleString('en-US')}`);

const ZSeedArgs = z.object({
  players: wholeNumber('players', 1, MAX_DEMO_PLAYERS).default(DEFAULT_DEMO_PLAYERS),
  seed: wholeNumber('seed', 0, 0xffff_ffff).default(DEFAULT_DEMO_SEED),
  reset: z.boolean().default(false),
  help: z.boolean().default(false),
});
type SeedArgs = z.infer<typeof ZSeedArgs>;

class UsageError extends Error {}

function parseSeedArgs(argv: string[]): SeedArgs {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        players: { type: 'string' },
        seed: { type: 'string' },
        reset: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const parsed = ZSeedArgs.safeParse(values);
  if (!parsed.success) throw new UsageError(parsed.error.issues.map((issue) => issue.message).join('\n'));
  return parsed.data;
}

const formatCount = (n: number) => n.toLocaleString('en-US');
const formatSeconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function describeCounts(counts: DemoRowCounts): string {
  return Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([table, n]) => `${formatCount(n)} ${table}`)
    .join(', ');
}

/** Where the data goes, without the password a DATABASE_URL may hold. */
function describeTarget(database: Config['database']): string {
  if (database.kind === 'pglite') return `embedded database at ${database.dir}`;
  if (database.kind === 'embedded-postgres') return `embedded PostgreSQL at ${database.dir}`;
  const url = new URL(database.url);
  return `PostgreSQL at ${url.hostname}${url.port ? `:${url.port}` : ''}${url.pathname}`;
}

function reportProgress(timings: { generateMs: number; writeMs: number }) {
  return (progress: SeedProgress): void => {
    timings.generateMs = progress.generateMs;
    timings.writeMs = progress.writeMs;
    const { written } = progress;
    console.log(
      `  ${formatCount(progress.players).padStart(9)} / ${formatCount(progress.totalPlayers)} players, ` +
        `${formatCount(written.registrations)} registrations, ${formatCount(written.submissions)} submissions, ` +
        `${formatCount(written.documents)} documents (${formatSeconds(progress.generateMs + progress.writeMs)})`,
    );
  };
}

async function seed(args: SeedArgs, config: Config): Promise<number> {
  if (config.database.kind !== 'postgres') await makeDataFolder(config.dataDir);
  console.log(`Opening the ${describeTarget(config.database)}…`);
  const database: Database = await openDatabase(config.database);
  try {
    const options = { seed: args.seed, players: args.players, idPrefix: config.idPrefix, now: new Date() };
    const timings = { generateMs: 0, writeMs: 0 };
    const started = performance.now();
    const refusal = 'Nothing was written. Run again with --reset to replace its contents with demo data.';

    if (args.reset) {
      console.log(`Emptying the demo tables and seeding ${formatCount(args.players)} players (seed ${args.seed})…`);
      await replaceWithDemoData(database.db, { ...options, onProgress: reportProgress(timings) });
    } else {
      const existing = await countDemoRows(database.db);
      if (Object.values(existing).some((n) => n > 0)) {
        console.error(`The database already holds data (${describeCounts(existing)}). ${refusal}`);
        return 1;
      }
      console.log(`Seeding ${formatCount(args.players)} players (seed ${args.seed})…`);
      const result = await seedDemoDataIfEmpty(database.db, { ...options, onProgress: reportProgress(timings) });
      if (!result.seeded) {
        console.error(`Another process seeded the database meanwhile. ${refusal}`);
        return 1;
      }
    }
    const counts = await countDemoRows(database.db);
    console.log(`Wrote ${describeCounts(counts)}.`);
    console.log(
      `Done in ${formatSeconds(performance.now() - started)}: ` +
        `generating ${formatSeconds(timings.generateMs)}, writing ${formatSeconds(timings.writeMs)}, in one transaction.`,
    );
    return 0;
  } finally {
    await database.close();
  }
}

async function runSeedCli(argv: string[]): Promise<number> {
  let args: SeedArgs;
  let config: Config;
  try {
    args = parseSeedArgs(argv);
    if (args.help) {
      console.log(USAGE);
      return 0;
    }
    config = loadConfig();
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`${error.message}\n\n${USAGE}`);
      return 2;
    }
    if (error instanceof ConfigError) {
      console.error(error.message);
      return 2;
    }
    throw error;
  }
  try {
    return await seed(args, config);
  } catch (error) {
    console.error(`Seeding failed, nothing was written: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

process.exitCode = await runSeedCli(process.argv.slice(2));
