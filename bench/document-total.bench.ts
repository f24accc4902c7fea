import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { z } from 'zod';
import type { Database, Db } from '../src/server/platform/db/client';
import { schema } from '../src/server/platform/db/schema';
import {
  countDocumentList,
  DOCUMENT_LIST_COUNT_CAP,
  documentListCappedCountQuery,
  documentListCountQuery,
  documentListMatchQuery,
  documentListPageQuery,
  type DocumentListFilter,
} from '../src/server/documents/documents.repository';
import { searchHashes, wordKey } from '../src/server/reading';
import { figure, oneMinuteLoad, type BenchFigure } from './figures';
import { withSeededLeague } from './seeded-league';
import { BENCH_SEASON, type BenchDatabase } from './support';

/**
 * The Documents screen's total at league scale (decision 033): the scale bench's league (`seedScaleData`:
 * 50,000 players, about 200,000 documents), then, for each filter the screen and the Review screen send, the
 * exact count the list used to run (`documentListCountQuery`) beside the total it runs now (`countDocumentList`:
 * the capped count, and past the cap the planner's estimate), and the first page of 50 they stand beside.
 *
 * What is measured is CPU, which other processes' load does not move: on PostgreSQL the CPU of the server
 * process that runs the statements (its /proc stat, over all rounds, through one connection), on PGlite this
 * process's own (PGlite runs in it). Then one EXPLAIN ANALYZE of each statement, for its plan and the
 * database's own timing, and the estimate beside the exact number. The target: the total costs at most what
 * its page costs.
 */

export const FULL_DOCUMENT_TOTAL_PLAYERS = 50_000;
export const QUICK_DOCUMENT_TOTAL_PLAYERS = 5_000;

export interface DocumentTotalBenchOptions {
  players?: number;
  databases?: BenchDatabase[];
  /** Admin connection for the PostgreSQL case (BENCH_POSTGRES_URL in bench/run.ts). */
  postgresUrl?: string;
  /** Untimed rounds first, then timed rounds of each statement. */
  warmupRounds?: number;
  rounds?: number;
  write?: (text: string) => void;
}

type Case = { name: string; filter: DocumentListFilter };

/** The filters measured: the screen's, a division-limited principal's, a search, and the Review screen's queue. */
function cases(): Case[] {
  // Staff who may open files search the words inside documents too: the same statement, with the word index's hashes.
  const key = wordKey(randomBytes(32));
  const search = (text: string): DocumentListFilter => ({ search: text, searchWordHashes: searchHashes(key, text) });
  return [
    { name: 'no filter', filter: {} },
    { name: 'status=pending', filter: { status: 'pending' } },
    { name: 'docType=medical', filter: { docType: 'medical' } },
    { name: 'season (current)', filter: { seasonId: BENCH_SEASON.id } },
    { name: 'status=pending & docType=birth_certificate', filter: { status: 'pending', docType: 'birth_certificate' } },
    { name: 'division scope (AAA)', filter: { scope: ['AAA'] } },
    { name: 'search "Grace Hopper"', filter: search('Grace Hopper') },
    { name: 'search "Ada"', filter: search('Ada') },
    { name: 'review queue (pending, oldest)', filter: { status: 'pending', sort: 'oldest' } },
    { name: 'review queue, division AA', filter: { status: 'pending', sort: 'oldest', scope: ['AA'] } },
  ];
}

export interface DocumentTotalCaseResult {
  database: BenchDatabase;
  players: number;
  documents: number;
  name: string;
  /** The exact number of matching documents. */
  actual: number;
  /** What the list answers now, and whether it is an estimate. */
  total: number;
  isEstimate: boolean;
  /** CPU per call, ms: the exact count, the capped count with its estimate, the first page of 50. */
  oldCpuMs: number;
  newCpuMs: number;
  pageCpuMs: number;
  /** EXPLAIN ANALYZE, planning + execution, ms: the exact count, the capped count, the estimate (planning only). */
  oldExplainMs: number;
  cappedExplainMs: number;
  estimateExplainMs: number | null;
  /** The nodes of the capped count's plan that read a table or an index. */
  cappedPlan: string[];
}

export async function runDocumentTotalBench(options: DocumentTotalBenchOptions = {}): Promise<{ results: DocumentTotalCaseResult[]; figures: BenchFigure[] }> {
  const players = options.players ?? FULL_DOCUMENT_TOTAL_PLAYERS;
  const write = options.write ?? (() => undefined);
  const results: DocumentTotalCaseResult[] = [];
  for (const kind of options.databases ?? (['postgres', 'pglite'] as const)) {
    await withSeededLeague(kind, { players, prefix: 'clearbase_doctotal_', postgresUrl: options.postgresUrl, earlier: true, write }, async (database, seeded) => {
      const session = await openSession(database);
      try {
        for (const c of cases()) {
          const result = await measure(session, c, { warmupRounds: options.warmupRounds ?? 10, rounds: options.rounds ?? 100 });
          results.push({ database: kind, players, documents: seeded.documents, ...result });
          write(formatCase(results.at(-1) as DocumentTotalCaseResult));
        }
      } finally {
        await session.close();
      }
    });
  }
  return { results, figures: results.flatMap(toFigures) };
}

/**
 * One connection whose CPU can be read: on PostgreSQL a client of its own (its server process's /proc stat),
 * on PGlite the database in this process (this process's CPU).
 */
type Session = {
  db: Db;
  cpuMs(): number;
  /** The one row, one column of a statement's answer (EXPLAIN's JSON). */
  value(statement: { sql: string; params: unknown[] }): Promise<unknown>;
  close(): Promise<void>;
};

async function openSession(database: Database): Promise<Session> {
  if (database.driver.kind === 'pglite') {
    const { pglite } = database.driver;
    return {
      db: database.db,
      cpuMs: () => {
        const used = process.cpuUsage();
        return (used.user + used.system) / 1000;
      },
      value: async (statement) => firstValue((await pglite.query(statement.sql, statement.params)).rows[0]),
      close: () => Promise.resolve(),
    };
  }
  const client = database.driver.newClient();
  await client.connect();
  const pid = z.object({ pid: z.number() }).parse((await client.query('select pg_backend_pid() as pid')).rows[0]).pid;
  const ticksPerMs = 100 / 1000; // USER_HZ: 100 on Linux
  return {
    db: drizzle(client, { schema }),
    cpuMs: () => {
      // utime and stime, fields 14 and 15, after the command name in parentheses.
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      return (Number(fields[11]) + Number(fields[12])) / ticksPerMs;
    },
    value: async (statement) => firstValue((await client.query(statement.sql, statement.params)).rows[0]),
    close: () => client.end(),
  };
}

const firstValue = (row: unknown): unknown => {
  const value: unknown = row !== null && typeof row === 'object' ? Object.values(row)[0] : undefined;
  return typeof value === 'string' ? JSON.parse(value) : value;
};

type PlanNode = { 'Node Type': string; 'Relation Name'?: string | undefined; 'Index Name'?: string | undefined; Plans?: PlanNode[] | undefined };
const ZPlanNode: z.ZodType<PlanNode> = z.lazy(() =>
  z.object({ 'Node Type': z.string(), 'Relation Name': z.string().optional(), 'Index Name': z.string().optional(), Plans: z.array(ZPlanNode).optional() }),
);
const ZExplain = z.array(z.object({ Plan: ZPlanNode, 'Planning Time': z.number(), 'Execution Time': z.number().optional() })).min(1);

/** EXPLAIN of a statement with its values: planning (+ execution, with ANALYZE) time and the nodes that read a table or an index. */
async function explain(session: Session, statement: { sql: string; params: unknown[] }, analyze: boolean): Promise<{ ms: number; nodes: string[] }> {
  const [top] = ZExplain.parse(await session.value({ sql: `explain (${analyze ? 'analyze, ' : ''}summary, format json) ${statement.sql}`, params: statement.params }));
  if (!top) throw new Error('EXPLAIN answered no plan');
  const nodes: string[] = [];
  const walk = (node: PlanNode) => {
    if (node['Index Name']) nodes.push(`${node['Node Type']} on ${node['Index Name']}`);
    else if (node['Relation Name']) nodes.push(`${node['Node Type']} on ${node['Relation Name']}`);
    for (const child of node.Plans ?? []) walk(child);
  };
  walk(top.Plan);
  return { ms: top['Planning Time'] + (top['Execution Time'] ?? 0), nodes };
}

/** The smallest of three EXPLAINs: what the statement costs when nothing else gets in its way. */
async function bestOf(session: Session, statement: { sql: string; params: unknown[] }, analyze: boolean) {
  const runs = [await explain(session, statement, analyze), await explain(session, statement, analyze), await explain(session, statement, analyze)];
  return runs.reduce((best, run) => (run.ms < best.ms ? run : best));
}

async function cpuPerCall(session: Session, call: () => Promise<unknown>, run: { warmupRounds: number; rounds: number }): Promise<number> {
  for (let i = 0; i < run.warmupRounds; i++) await call();
  const before = session.cpuMs();
  for (let i = 0; i < run.rounds; i++) await call();
  return (session.cpuMs() - before) / run.rounds;
}

async function measure(session: Session, c: Case, run: { warmupRounds: number; rounds: number }): Promise<Omit<DocumentTotalCaseResult, 'database' | 'players' | 'documents'>> {
  const { db } = session;
  const page = { limit: 50, offset: 0 };
  const [exact] = await documentListCountQuery(db, c.filter);
  const actual = exact?.n ?? 0;
  const answered = await countDocumentList(db, c.filter);
  if (!answered.isEstimate && answered.total !== actual) throw new Error(`${c.name}: counted ${answered.total}, exactly ${actual}`);
  if (answered.isEstimate !== actual > DOCUMENT_LIST_COUNT_CAP) throw new Error(`${c.name}: ${actual} match, but the total's estimate flag is ${answered.isEstimate}`);

  const oldCpuMs = await cpuPerCall(session, () => documentListCountQuery(db, c.filter), run);
  const newCpuMs = await cpuPerCall(session, () => countDocumentList(db, c.filter), run);
  const pageCpuMs = await cpuPerCall(session, () => documentListPageQuery(db, c.filter, page), run);

  const old = await bestOf(session, documentListCountQuery(db, c.filter).toSQL(), true);
  const capped = await bestOf(session, documentListCappedCountQuery(db, c.filter).toSQL(), true);
  // The estimate's statement is itself an EXPLAIN: its cost is planning the statement it explains, which EXPLAIN (SUMMARY) reports.
  const estimated = answered.isEstimate ? await bestOf(session, documentListMatchQuery(db, c.filter).toSQL(), false) : undefined;
  return {
    name: c.name,
    actual,
    total: answered.total,
    isEstimate: answered.isEstimate,
    oldCpuMs,
    newCpuMs,
    pageCpuMs,
    oldExplainMs: old.ms,
    cappedExplainMs: capped.ms,
    estimateExplainMs: estimated?.ms ?? null,
    cappedPlan: capped.nodes,
  };
}

export function formatCase(c: DocumentTotalCaseResult): string {
  const estimate = c.isEstimate ? `estimate ${c.total.toLocaleString('en-US')} (${((c.total / c.actual - 1) * 100).toFixed(0)}% off)` : 'exact';
  return (
    `  ${c.database.padEnd(8)} ${c.name.padEnd(44)} ${c.actual.toLocaleString('en-US').padStart(7)} match, ${estimate}\n` +
    `           CPU/call: exact count ${c.oldCpuMs.toFixed(2)} ms → capped+estimate ${c.newCpuMs.toFixed(2)} ms; page ${c.pageCpuMs.toFixed(2)} ms. ` +
    `EXPLAIN ANALYZE: exact ${c.oldExplainMs.toFixed(2)} ms, capped ${c.cappedExplainMs.toFixed(2)} ms` +
    `${c.estimateExplainMs === null ? '' : `, estimate's planning ${c.estimateExplainMs.toFixed(2)} ms`}\n` +
    `           capped count's plan: ${c.cappedPlan.join(' → ')}\n`
  );
}

function toFigures(c: DocumentTotalCaseResult): BenchFigure[] {
  const detail = { database: c.database, players: c.players, documents: c.documents, matching: c.actual, total: c.total, estimate: c.isEstimate };
  const loadAverage = oneMinuteLoad();
  return [
    figure({ section: 'document-total', name: `${c.name}: exact count CPU`, value: c.oldCpuMs, unit: 'ms', loadAverage, detail }),
    figure({ section: 'document-total', name: `${c.name}: total CPU`, value: c.newCpuMs, unit: 'ms', loadAverage, detail }),
    figure({
      section: 'document-total',
      name: `${c.name}: total CPU / first page CPU`,
      value: c.newCpuMs / c.pageCpuMs,
      unit: 'ratio',
      target: { atMost: 1 },
      loadAverage,
      detail: { ...detail, pageCpuMs: c.pageCpuMs },
    }),
  ];
}
