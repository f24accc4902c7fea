import { eq } from 'drizzle-orm';
import { loadavg } from 'node:os';
import { z } from 'zod';
import type { Database } from '../src/server/platform/db/client';
import type { NamedStatement } from '../src/server/platform/db/prepared';
import { players } from '../src/server/platform/db/schema';
import { missingReportCountsRead, missingReportPageRead, type ReportFilters } from '../src/server/reports/reports.repository';
import { withSeededLeague } from './seeded-league';
import type { BenchDatabase } from './support';

/**
 * The Players search at league scale, on PGlite (in this process) and PostgreSQL (a scratch database): the
 * scale bench's league (`seedScaleData`: 50,000 players, 200,000 documents), then the statements of
 * GET /api/report/missing (its counts and first page of 10, run one after the other through the repository's
 * prepared reads, as the server runs them) for a name typed without its accent, next to the same statements
 * without a search, measured in the same run, interleaved round by round so load from other processes moves
 * both alike. The ratio search p95 / floor p95 is what the search costs over the cheapest answer the screen
 * gets (season_totals and ten index entries).
 *
 * Then EXPLAIN ANALYZE of the search's statements: which index each plan reads (the counts must find the
 * matching registrations through registrations_search_text_trgm_idx, not by reading the season), and how long
 * the count takes with bitmap scans turned off in a transaction (the one way to a GIN index), which is what
 * the index saves. The answer is checked: the count equals the seeded players of that last name, every row of
 * the page has it.
 */

export const FULL_SEARCH_PLAYERS = 50_000;
export const QUICK_SEARCH_PLAYERS = 5_000;
/** The seed's 'Gödel' (one last name in fifty), typed as people type it: no accent, lowercase. */
export const SEARCH_TYPED = 'godel';
const SEARCHED_LAST_NAME = 'Gödel';
/** The index the search must use. */
export const SEARCH_INDEX = 'registrations_search_text_trgm_idx';

export interface SearchBenchOptions {
  players?: number;
  databases?: BenchDatabase[];
  /** Admin connection for the PostgreSQL case (BENCH_POSTGRES_URL in bench/run.ts). */
  postgresUrl?: string;
  /** Untimed rounds first (JIT, caches, PostgreSQL's plan cache), then timed rounds of each case. */
  warmupRounds?: number;
  rounds?: number;
  write?: (text: string) => void;
}

export type Latencies = { p50: number; p95: number };

export interface SearchCaseResult {
  database: BenchDatabase;
  players: number;
  matching: number;
  floor: Latencies;
  search: Latencies;
  /** search p95 / floor p95. */
  ratio: number;
  /** Whether the search's count reads SEARCH_INDEX (a Bitmap Index Scan on it). */
  countUsesIndex: boolean;
  /** The nodes of each plan that read a table or an index, outermost first. */
  countPlan: string[];
  pagePlan: string[];
  /** EXPLAIN ANALYZE execution time of the count, ms: as planned, and with bitmap scans off (no trigram index). */
  countMs: number;
  countWithoutIndexMs: number;
  seedSeconds: number;
  loadAverage: number;
}

export async function runSearchBench(options: SearchBenchOptions = {}): Promise<SearchCaseResult[]> {
  const players = options.players ?? FULL_SEARCH_PLAYERS;
  const write = options.write ?? (() => undefined);
  const results: SearchCaseResult[] = [];
  for (const kind of options.databases ?? (['pglite', 'postgres'] as const)) {
    await withSeededLeague(kind, { players, prefix: 'clearbase_search_', postgresUrl: options.postgresUrl, write }, async (database, seeded) => {
      results.push(await measure(database, { kind, players, seedSeconds: seeded.seedSeconds, warmupRounds: options.warmupRounds ?? 50, rounds: options.rounds ?? 300 }));
    });
  }
  write(formatSearchTable(results));
  return results;
}

async function measure(
  database: Database,
  run: { kind: BenchDatabase; players: number; seedSeconds: number; warmupRounds: number; rounds: number },
): Promise<SearchCaseResult> {
  const { db } = database;
  const everyone: ReportFilters = { division: 'all', status: 'all' };
  const searched: ReportFilters = { ...everyone, search: SEARCH_TYPED };
  const firstPage = { limit: 10, offset: 0 };
  // No `season` parameter: the current season, as the Players screen asks.
  const answer = async (filters: ReportFilters) => {
    const [counts] = await missingReportCountsRead.run(db, undefined, filters);
    const rows = await missingReportPageRead.run(db, undefined, filters, firstPage);
    return { matching: counts?.matching ?? 0, rows };
  };

  const expected = await db.$count(players, eq(players.lastName, SEARCHED_LAST_NAME));
  const checked = await answer(searched);
  if (checked.matching !== expected || checked.rows.length !== Math.min(10, expected) || checked.rows.some((row) => row.lastName !== SEARCHED_LAST_NAME)) {
    throw new Error(`"${SEARCH_TYPED}" found ${checked.matching} (${checked.rows.map((row) => row.lastName).join(', ')}), expected ${expected} players named ${SEARCHED_LAST_NAME}`);
  }

  const loadAverage = loadavg()[0] ?? Number.NaN;
  const floorTimes: number[] = [];
  const searchTimes: number[] = [];
  const timed = async (filters: ReportFilters, into: number[] | undefined) => {
    const at = performance.now();
    await answer(filters);
    into?.push(performance.now() - at);
  };
  for (let round = 0; round < run.warmupRounds + run.rounds; round++) {
    const keep = round >= run.warmupRounds;
    await timed(everyone, keep ? floorTimes : undefined);
    await timed(searched, keep ? searchTimes : undefined);
  }

  const countStatement = missingReportCountsRead.statement(db, undefined, searched);
  const pageStatement = missingReportPageRead.statement(db, undefined, searched, firstPage);
  const countPlan = await explain(database, countStatement, false);
  const pagePlan = await explain(database, pageStatement, false);
  const withoutIndex = await explain(database, countStatement, true);
  const floor = summarize(floorTimes);
  const search = summarize(searchTimes);
  return {
    database: run.kind,
    players: run.players,
    matching: checked.matching,
    floor,
    search,
    ratio: search.p95 / floor.p95,
    countUsesIndex: countPlan.nodes.includes(`Bitmap Index Scan on ${SEARCH_INDEX}`),
    countPlan: countPlan.nodes,
    pagePlan: pagePlan.nodes,
    countMs: countPlan.executionMs,
    countWithoutIndexMs: withoutIndex.executionMs,
    seedSeconds: run.seedSeconds,
    loadAverage,
  };
}

type PlanNode = { 'Node Type': string; 'Relation Name'?: string | undefined; 'Index Name'?: string | undefined; Plans?: PlanNode[] | undefined };
const ZPlanNode: z.ZodType<PlanNode> = z.lazy(() =>
  z.object({ 'Node Type': z.string(), 'Relation Name': z.string().optional(), 'Index Name': z.string().optional(), Plans: z.array(ZPlanNode).optional() }),
);
/** EXPLAIN (FORMAT JSON)'s one value: the plan and, with ANALYZE, the execution time. */
const ZExplain = z.array(z.object({ Plan: ZPlanNode, 'Execution Time': z.number() })).min(1);
type Explained = { nodes: string[]; executionMs: number };

/**
 * EXPLAIN (ANALYZE) of a statement with its values: the nodes that read a table or an index, and the execution
 * time. `withoutBitmapScans`: in a transaction with bitmap scans off, so no GIN index can be used.
 */
async function explain(database: Database, statement: NamedStatement, withoutBitmapScans: boolean): Promise<Explained> {
  const text = `explain (analyze, format json) ${statement.text}`;
  const off = 'set local enable_bitmapscan = off';
  let output: unknown;
  if (database.driver.kind === 'pglite') {
    const { pglite } = database.driver;
    output = withoutBitmapScans
      ? await pglite.transaction(async (tx) => {
          await tx.exec(off);
          return (await tx.query(text, statement.values)).rows[0];
        })
      : (await pglite.query(text, statement.values)).rows[0];
  } else {
    const client = database.driver.newClient();
    await client.connect();
    try {
      if (withoutBitmapScans) await client.query(`begin; ${off}`);
      output = (await client.query(text, statement.values)).rows[0];
      if (withoutBitmapScans) await client.query('rollback');
    } finally {
      await client.end();
    }
  }
  // One row, one column ("QUERY PLAN"): the JSON, parsed by the driver or as text.
  const value: unknown = output !== null && typeof output === 'object' ? Object.values(output)[0] : undefined;
  const [top] = ZExplain.parse(typeof value === 'string' ? JSON.parse(value) : value);
  if (!top) throw new Error('EXPLAIN answered no plan');
  const nodes: string[] = [];
  const walk = (node: PlanNode) => {
    if (node['Index Name']) nodes.push(`${node['Node Type']} on ${node['Index Name']}`);
    else if (node['Relation Name']) nodes.push(`${node['Node Type']} on ${node['Relation Name']}`);
    for (const child of node.Plans ?? []) walk(child);
  };
  walk(top.Plan);
  return { nodes, executionMs: top['Execution Time'] };
}

function summarize(latencies: number[]): Latencies {
  const sorted = [...latencies].sort((a, b) => a - b);
  // Nearest rank: the smallest value with at least p of the samples at or below it.
  const at = (p: number) => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)] ?? Number.NaN;
  return { p50: at(0.5), p95: at(0.95) };
}

export function formatSearchTable(results: SearchCaseResult[]): string {
  const lines = [
    `Players search "${SEARCH_TYPED}" (finds ${SEARCHED_LAST_NAME}) at scale: the counts and first page of GET /api/report/missing, run one after the other`,
    `through the prepared reads; floor = the same without a search, interleaved round by round. Latencies in ms.`,
  ];
  for (const c of results) {
    lines.push(
      `  ${c.database.padEnd(8)} ${c.players.toLocaleString('en-US')} players, ${c.matching} found: search p50 ${c.search.p50.toFixed(2)} p95 ${c.search.p95.toFixed(2)}, ` +
        `floor p50 ${c.floor.p50.toFixed(2)} p95 ${c.floor.p95.toFixed(2)}, search/floor ${c.ratio.toFixed(2)} (load ${c.loadAverage.toFixed(1)}, seeded in ${c.seedSeconds.toFixed(1)} s)`,
      `           count's plan: ${c.countPlan.join(' → ')}; ${c.countUsesIndex ? `uses ${SEARCH_INDEX}` : `DOES NOT USE ${SEARCH_INDEX}`}; ` +
        `${c.countMs.toFixed(2)} ms, ${c.countWithoutIndexMs.toFixed(2)} ms without it`,
      `           page's plan:  ${c.pagePlan.join(' → ')}`,
    );
  }
  return `${lines.join('\n')}\n`;
}
