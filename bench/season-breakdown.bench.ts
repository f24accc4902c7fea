import { loadavg } from 'node:os';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { z } from 'zod';
import { SEASON_REPORT_MAX_PLAYERS } from '../src/contract';
import { openDatabase, POSTGRES_POOL_SIZE, type Database } from '../src/server/platform/db/client';
import { seasonReportQueries } from '../src/server/reports/season-report.repository';
import { insertSeasons } from '../src/server/seasons/seasons.repository';
import { figure, type BenchFigure } from './figures';
import { seedScaleData } from './scale.bench';
import { processCpuMs, summarize } from './server-process';
import { BENCH_EARLIER_SEASON, BENCH_SEASON, createScratchDatabase, DEFAULT_POSTGRES_URL, type ScratchDatabase } from './support';

/**
 * The season report's breakdown at league scale, on PostgreSQL: the scale bench's league (`seedScaleData`,
 * 50,000 players and their documents by default) in a scratch database, then VACUUM ANALYZE, then
 *
 * - EXPLAIN ANALYZE, `rounds` times each, of GET /api/reports/season's three statements as the repository
 *   builds them (`seasonReportQueries(db, undefined, 'all', …)`), and of the breakdown recomputed from the
 *   season's registrations (the grouping the report ran per request before season_breakdown kept it):
 *   execution time p50 and p95, the plan's reads, and the PostgreSQL backend's CPU per run (/proc);
 * - the three statements at once, as the service runs them, by `clients` concurrent callers on a pool the size
 *   of the server's, `rounds` rounds each: p95 of a round, next to the same with the recomputed breakdown;
 * - the same read after every group's count is spread over the eight slots (as eight sessions writing it
 *   would leave it; the seed wrote it from one), the most rows the read can meet;
 * - what a write pays: single document status changes, one statement each, in the backend's CPU.
 *
 * The breakdown read is checked against the recomputed one (same groups, same counts) before and after the
 * spread; a difference is a failure. Latencies are wall-clock on a possibly shared machine (the load average is
 * reported with them); CPU figures are the backend's own and do not depend on others' load.
 */

export const FULL_BREAKDOWN_PLAYERS = 50_000;
export const QUICK_BREAKDOWN_PLAYERS = 5_000;
/** GET /api/reports/season at 50,000 players with 20 concurrent clients: p95 at most this, in ms. */
export const SEASON_REPORT_P95_TARGET_MS = 25;
/** The server's pool: the callers share as many connections. */
const SERVER_POOL_SIZE = POSTGRES_POOL_SIZE;
/** The slots season_breakdown spreads writers over (pg_backend_pid() % 8, migration 0018). */
const SLOTS = 8;

export interface SeasonBreakdownBenchOptions {
  players?: number;
  /** Admin connection for the scratch database (BENCH_POSTGRES_URL in bench/run.ts). */
  postgresUrl?: string;
  /** EXPLAIN ANALYZE runs per statement, and rounds per concurrent caller. */
  rounds?: number;
  clients?: number;
  /** Single document status changes timed. */
  writes?: number;
  write?: (text: string) => void;
}

/**
 * The season's registrations grouped as the report's breakdown, read from registrations itself: what
 * GET /api/reports/season computed on every request before season_breakdown (the same columns and order).
 */
const RECOMPUTED_BREAKDOWN = `
  select division, complete_types = 4 as complete,
    birth_certificate_status, residency_status, medical_status, waiver_status,
    to_char(date_trunc('month', registered_at at time zone 'UTC'), 'YYYY-MM') as registered_month,
    to_char(date_trunc('month', completed_at at time zone 'UTC'), 'YYYY-MM') as completed_month,
    count(*)::int as count
  from registrations
  where season_id = $1
  group by division, complete_types = 4, birth_certificate_status, residency_status, medical_status, waiver_status,
    date_trunc('month', registered_at at time zone 'UTC'), date_trunc('month', completed_at at time zone 'UTC')`;

type Statement = { text: string; values: unknown[] };
const toStatement = (query: { toSQL(): { sql: string; params: unknown[] } }): Statement => {
  const { sql: text, params: values } = query.toSQL();
  return { text, values };
};


export async function runSeasonBreakdownBench(options: SeasonBreakdownBenchOptions = {}): Promise<BenchFigure[]> {
  const players = options.players ?? FULL_BREAKDOWN_PLAYERS;
  const rounds = options.rounds ?? 100;
  const clients = options.clients ?? 20;
  const writes = options.writes ?? 300;
  const write = options.write ?? (() => undefined);
  const section = 'season-breakdown';
  const detail = { database: 'postgres', players };
  const figures: BenchFigure[] = [];

  let scratch: ScratchDatabase | undefined;
  let database: Database | undefined;
  let client: pg.Client | undefined;
  let pool: pg.Pool | undefined;
  try {
    scratch = await createScratchDatabase(options.postgresUrl ?? DEFAULT_POSTGRES_URL, 'clearbase_breakdown_');
    database = await openDatabase({ kind: 'postgres', url: scratch.url });
    await insertSeasons(database.db, [BENCH_SEASON, BENCH_EARLIER_SEASON]);

    write(`  seeding ${players.toLocaleString('en-US')} players into a scratch database (one transaction, one backend)…\n`);
    const started = performance.now();
    const seedCpuMs = await database.db.transaction(async (tx) => {
      const pid = backendPid(await tx.execute(sql`select pg_backend_pid() as pid`));
      const before = processCpuMs(pid);
      await seedScaleData(tx, { players, season: BENCH_SEASON, earlier: BENCH_EARLIER_SEASON });
      const after = processCpuMs(pid);
      return before === undefined || after === undefined ? undefined : after - before;
    });
    const seedSeconds = (performance.now() - started) / 1000;
    await database.db.execute(sql`vacuum analyze`);
    write(`  seeded in ${seedSeconds.toFixed(1)} s${seedCpuMs === undefined ? '' : `, ${(seedCpuMs / 1000).toFixed(1)} s of the backend's CPU`}\n`);
    figures.push(figure({ section, name: 'seed (players, registrations, documents) wall', value: seedSeconds, unit: 's', detail }));
    if (seedCpuMs !== undefined) figures.push(figure({ section, name: 'seed backend CPU', value: seedCpuMs / 1000, unit: 's', detail }));

    client = new pg.Client({ connectionString: scratch.url });
    await client.connect();
    const session = client;
    const pid = backendPid(await session.query('select pg_backend_pid() as pid'));

    const report = Object.entries(seasonReportQueries(database.db, undefined, 'all', SEASON_REPORT_MAX_PLAYERS)).map(([label, query]) => ({ label, ...toStatement(query) }));
    const recomputed = { label: 'breakdown recomputed from registrations', text: RECOMPUTED_BREAKDOWN, values: [BENCH_SEASON.id] };
    const breakdown = report.find((statement) => statement.label === 'breakdown');
    if (!breakdown) throw new Error('seasonReportQueries has no breakdown');

    await expectSameBreakdown(session, breakdown, recomputed);
    const groups = await session.query<{ rows: number; slots: number }>('select count(*)::int as rows, count(distinct slot)::int as slots from season_breakdown');
    write(`  season_breakdown: ${groups.rows[0]?.rows ?? 0} rows in ${groups.rows[0]?.slots ?? 0} slot(s); the read equals the grouping of registrations\n`);

    write(`  EXPLAIN ANALYZE, ${rounds} runs each (execution ms), and the backend's CPU per run:\n`);
    for (const statement of [...report, recomputed]) {
      const measured = await measureStatement(session, pid, statement, rounds);
      write(`    ${statement.label.padEnd(40)} p50 ${measured.execution.p50.toFixed(2)} p95 ${measured.execution.p95.toFixed(2)}  cpu ${formatCpu(measured.cpuMs)}  ${measured.nodes.join(' → ')}\n`);
      figures.push(figure({ section, name: `${statement.label} execution p95`, value: measured.execution.p95, unit: 'ms', detail: { ...detail, p50: measured.execution.p50 } }));
      if (measured.cpuMs !== undefined) figures.push(figure({ section, name: `${statement.label} backend CPU per run`, value: measured.cpuMs, unit: 'ms', detail }));
    }

    pool = new pg.Pool({ connectionString: scratch.url, max: SERVER_POOL_SIZE });
    // The scratch database is dropped with (force) at the end: a connection it ends is no failure of the bench.
    pool.on('error', () => undefined);
    const callers = pool;
    const answer = (statements: readonly Statement[]) => () => Promise.all(statements.map((statement) => callers.query({ text: statement.text, values: statement.values, rowMode: 'array' })));
    const withRecomputed = report.map((statement) => (statement.label === 'breakdown' ? recomputed : statement));
    const concurrent = async (label: string, statements: readonly Statement[], target: boolean, extra: Record<string, string | number>) => {
      await runCallers(clients, Math.max(2, Math.ceil(rounds / 10)), answer(statements));
      const loadAverage = loadavg()[0] ?? Number.NaN;
      const latencies = summarize(await runCallers(clients, rounds, answer(statements)));
      write(`    ${label.padEnd(58)} p50 ${latencies.p50.toFixed(1)} p95 ${latencies.p95.toFixed(1)} (load ${loadAverage.toFixed(1)})\n`);
      figures.push(
        figure({
          section,
          name: `GET /api/reports/season statements, ${label}, p95`,
          value: latencies.p95,
          unit: 'ms',
          ...(target ? { target: { atMost: SEASON_REPORT_P95_TARGET_MS } } : {}),
          loadAverage,
          detail: { ...detail, clients, pool: SERVER_POOL_SIZE, p50: latencies.p50, ...extra },
        }),
      );
    };
    write(`  the report's three statements at once, ${clients} concurrent callers on a pool of ${SERVER_POOL_SIZE}, ${rounds} rounds each (ms per round):\n`);
    await concurrent('breakdown read from season_breakdown', report, players >= FULL_BREAKDOWN_PLAYERS, { slots: 'as seeded' });
    await concurrent('breakdown recomputed from registrations (before)', withRecomputed, false, {});

    const spreadRows = await spreadOverSlots(session);
    await session.query('analyze season_breakdown');
    await expectSameBreakdown(session, breakdown, recomputed);
    write(`  every group spread over the ${SLOTS} slots: ${spreadRows} rows; the read still equals the grouping of registrations\n`);
    const spread = await measureStatement(session, pid, breakdown, rounds);
    write(`    ${`breakdown, ${SLOTS} slots`.padEnd(40)} p50 ${spread.execution.p50.toFixed(2)} p95 ${spread.execution.p95.toFixed(2)}  cpu ${formatCpu(spread.cpuMs)}  ${spread.nodes.join(' → ')}\n`);
    figures.push(figure({ section, name: `breakdown over ${SLOTS} slots execution p95`, value: spread.execution.p95, unit: 'ms', detail: { ...detail, rows: spreadRows, p50: spread.execution.p50 } }));
    if (spread.cpuMs !== undefined) figures.push(figure({ section, name: `breakdown over ${SLOTS} slots backend CPU per run`, value: spread.cpuMs, unit: 'ms', detail: { ...detail, rows: spreadRows } }));
    await concurrent(`breakdown read from season_breakdown, ${SLOTS} slots`, report, players >= FULL_BREAKDOWN_PLAYERS, { slots: SLOTS, rows: spreadRows });

    const writeCost = await measureDocumentWrites(session, pid, writes);
    await expectSameBreakdown(session, breakdown, recomputed);
    write(
      `  ${writeCost.writes} document status changes (pending → verified), one statement each: ${formatCpu(writeCost.cpuMs)} of the backend's CPU and ` +
        `${writeCost.wall.p50.toFixed(2)} ms (p50) each; the read still equals the grouping of registrations\n`,
    );
    figures.push(figure({ section, name: 'document status change wall p50', value: writeCost.wall.p50, unit: 'ms', detail: { ...detail, writes: writeCost.writes } }));
    if (writeCost.cpuMs !== undefined) figures.push(figure({ section, name: 'document status change backend CPU', value: writeCost.cpuMs, unit: 'ms', detail: { ...detail, writes: writeCost.writes } }));
    return figures;
  } finally {
    await client?.end().catch(() => undefined);
    await pool?.end().catch(() => undefined);
    await database?.close().catch(() => undefined);
    await scratch?.drop();
  }
}

const formatCpu = (ms: number | undefined) => (ms === undefined ? 'n/a' : `${ms.toFixed(2)} ms`);

/** The backend's process id from the result of `select pg_backend_pid() as pid`. */
function backendPid(result: unknown): number {
  const [row] = z.object({ rows: z.array(z.object({ pid: z.number() })).min(1) }).parse(result).rows;
  if (!row) throw new Error('no backend pid');
  return row.pid;
}

type PlanNode = { 'Node Type': string; 'Relation Name'?: string | undefined; 'Index Name'?: string | undefined; Plans?: PlanNode[] | undefined };
const ZPlanNode: z.ZodType<PlanNode> = z.lazy(() =>
  z.object({ 'Node Type': z.string(), 'Relation Name': z.string().optional(), 'Index Name': z.string().optional(), Plans: z.array(ZPlanNode).optional() }),
);
const ZExplain = z.array(z.object({ Plan: ZPlanNode, 'Execution Time': z.number() })).min(1);

/**
 * EXPLAIN ANALYZE of a statement `runs` times (execution time p50 and p95, and the nodes of the last plan that
 * read a table or an index), then the statement itself `runs` times: the backend's CPU per run.
 */
async function measureStatement(client: pg.Client, pid: number, statement: Statement, runs: number) {
  const times: number[] = [];
  let nodes: string[] = [];
  for (let run = 0; run < runs; run++) {
    const { rows } = await client.query({ text: `explain (analyze, format json) ${statement.text}`, values: statement.values, rowMode: 'array' });
    const value: unknown = rows[0]?.[0];
    const [top] = ZExplain.parse(typeof value === 'string' ? JSON.parse(value) : value);
    if (!top) throw new Error('EXPLAIN answered no plan');
    times.push(top['Execution Time']);
    nodes = [];
    const walk = (node: PlanNode) => {
      if (node['Index Name']) nodes.push(`${node['Node Type']} on ${node['Index Name']}`);
      else if (node['Relation Name']) nodes.push(`${node['Node Type']} on ${node['Relation Name']}`);
      for (const child of node.Plans ?? []) walk(child);
    };
    walk(top.Plan);
  }
  const before = processCpuMs(pid);
  for (let run = 0; run < runs; run++) await client.query({ text: statement.text, values: statement.values, rowMode: 'array' });
  const after = processCpuMs(pid);
  return { execution: summarize(times), nodes, cpuMs: before === undefined || after === undefined ? undefined : (after - before) / runs };
}

/** `callers` at once, each running `rounds` rounds one after another; every round's latency in ms. */
async function runCallers(callers: number, rounds: number, round: () => Promise<unknown>): Promise<number[]> {
  const latencies: number[] = [];
  await Promise.all(
    Array.from({ length: callers }, async () => {
      for (let i = 0; i < rounds; i++) {
        const at = performance.now();
        await round();
        latencies.push(performance.now() - at);
      }
    }),
  );
  return latencies;
}

/** The breakdown statement's groups and counts must be the recomputed ones, in any order. */
async function expectSameBreakdown(client: pg.Client, read: Statement, recomputed: Statement): Promise<void> {
  const rowsOf = async (statement: Statement) =>
    (await client.query({ text: statement.text, values: statement.values, rowMode: 'array' })).rows.map((row: unknown) => JSON.stringify(row)).sort();
  const [got, expected] = [await rowsOf(read), await rowsOf(recomputed)];
  const missing = expected.filter((row) => !got.includes(row));
  const extra = got.filter((row) => !expected.includes(row));
  if (missing.length > 0 || extra.length > 0) {
    throw new Error(`the breakdown read differs from registrations: missing ${missing.slice(0, 5).join(' ')}; extra ${extra.slice(0, 5).join(' ')}`);
  }
}

/**
 * Rewrites season_breakdown as eight sessions writing it would leave it: each group's count split evenly over
 * the slots (a slot that would get nothing gets no row). The sums stay; the read meets up to eight rows a group.
 */
async function spreadOverSlots(client: pg.Client): Promise<number> {
  const key = 'season_id, division, complete, birth_certificate_status, residency_status, medical_status, waiver_status, registered_month, completed_month';
  await client.query('begin');
  try {
    await client.query(`create temporary table breakdown_sums on commit drop as select ${key}, sum(players)::int as players from season_breakdown group by ${key}`);
    await client.query('delete from season_breakdown');
    const { rowCount } = await client.query(`
      insert into season_breakdown (${key}, slot, players)
      select ${key}, s.slot, b.players / ${SLOTS} + (s.slot < b.players % ${SLOTS})::int
      from breakdown_sums b cross join generate_series(0, ${SLOTS - 1}) as s(slot)
      where b.players / ${SLOTS} + (s.slot < b.players % ${SLOTS})::int <> 0`);
    await client.query('commit');
    return rowCount ?? 0;
  } catch (error) {
    await client.query('rollback');
    throw error;
  }
}

/**
 * `writes` of the season's pending documents verified, one UPDATE each (as a reviewer does): each recomputes
 * its registration (migration 0016's triggers) and moves it between breakdown groups. The backend's CPU per
 * write, and each write's wall time.
 */
async function measureDocumentWrites(client: pg.Client, pid: number, writes: number) {
  const { rows } = await client.query<{ id: string }>(
    `select id from documents where season_id = $1 and status = 'pending' and doc_type is not null order by id limit $2`,
    [BENCH_SEASON.id, writes],
  );
  const times: number[] = [];
  const before = processCpuMs(pid);
  for (const { id } of rows) {
    const at = performance.now();
    await client.query(`update documents set status = 'verified', reviewed_at = now() where id = $1`, [id]);
    times.push(performance.now() - at);
  }
  const after = processCpuMs(pid);
  return { writes: rows.length, wall: summarize(times), cpuMs: before === undefined || after === undefined || rows.length === 0 ? undefined : (after - before) / rows.length };
}
