import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../src/server/platform/db/client';
import { insertSeasons } from '../src/server/seasons/seasons.repository';
import { seedScaleData } from './scale.bench';
import { BENCH_EARLIER_SEASON, BENCH_SEASON, createScratchDatabase, DEFAULT_POSTGRES_URL, type BenchDatabase, type ScratchDatabase } from './support';

export type SeededLeague = { players: number; registrations: number; documents: number; seedSeconds: number };

/**
 * The scale bench's league (`seedScaleData`) in a database of its own for the length of `body`: a scratch
 * PostgreSQL database (`prefix` and a random suffix) or an in-memory PGlite, seeded, vacuumed and analysed,
 * then closed and dropped whatever `body` does. With `earlier`, the earlier season of returning children too.
 */
export async function withSeededLeague<T>(
  kind: BenchDatabase,
  options: { players: number; prefix: string; postgresUrl?: string | undefined; earlier?: boolean; write?: (text: string) => void },
  body: (database: Database, seeded: SeededLeague) => Promise<T>,
): Promise<T> {
  let scratch: ScratchDatabase | undefined;
  let database: Database | undefined;
  try {
    if (kind === 'postgres') scratch = await createScratchDatabase(options.postgresUrl ?? DEFAULT_POSTGRES_URL, options.prefix);
    database = await openDatabase(scratch ? { kind: 'postgres', url: scratch.url } : { kind: 'pglite', dir: undefined });
    options.write?.(`  ${kind}: seeding ${options.players.toLocaleString('en-US')} players…\n`);
    const started = performance.now();
    await insertSeasons(database.db, options.earlier ? [BENCH_SEASON, BENCH_EARLIER_SEASON] : [BENCH_SEASON]);
    const seeded = await seedScaleData(database.db, { players: options.players, season: BENCH_SEASON, ...(options.earlier ? { earlier: BENCH_EARLIER_SEASON } : {}) });
    await database.db.execute(sql`vacuum analyze`);
    return await body(database, { ...seeded, seedSeconds: (performance.now() - started) / 1000 });
  } finally {
    await database?.close().catch(() => undefined);
    await scratch?.drop();
  }
}
