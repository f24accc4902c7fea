import { count, sql, type SQL } from 'drizzle-orm';
import type { PgSelect } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import type { Db } from './client';

/**
 * A list's total that costs no more than its page (decision 033): counted exactly up to a cap, and past it the
 * planner's estimate for the same condition, said to be one. Counting every match read every matching row on
 * each request, and the big lists (a season's documents, the messages of years of reminders) grow without end.
 */

/** A total as a list answers it: exact, or the planner's estimate when more match than the count goes to. */
export type ListTotal = { total: number; isEstimate: boolean };

/**
 * How far a list's total is counted exactly: up to this many matches the count reads no more rows than that,
 * through the indexes the page uses; past it, the total is the planner's estimate, said to be one.
 */
export const LIST_COUNT_CAP = 1000;

/**
 * How many rows `match` (a select of every matching row, as a column of 1s) answers, counted no further than
 * `cap` + 1: `select count(*) from (… limit cap + 1)`. At most `cap` is the exact number; `cap` + 1 says there
 * are more. The builder, so a benchmark can run its SQL.
 */
export const cappedCountQuery = (db: Db, match: PgSelect, cap: number = LIST_COUNT_CAP) =>
  db.select({ n: count() }).from(match.limit(cap + 1).as('capped'));

/**
 * The planner's plan for reading every row `match` answers: `explain (format json) …`, planned for the values
 * given, as the count would be. Its top node's `Plan Rows` is the estimate of how many match, from the
 * tables' statistics, without reading a row.
 */
const estimateStatement = (match: PgSelect): SQL => sql`explain (format json) ${match.getSQL()}`;

/** What `explain (format json)` answers: one row, whose one column holds the plan as JSON (parsed, or as text). */
const ZExplained = z.object({ rows: z.array(z.object({ 'QUERY PLAN': z.unknown() })).min(1) });
const ZTopPlanRows = z.array(z.object({ Plan: z.object({ 'Plan Rows': z.number() }) })).min(1);

/** The rows the top node of an `explain (format json)` answer expects, rounded; undefined when it has no plan. */
export function planRows(explained: unknown): number | undefined {
  const answer = ZExplained.safeParse(explained);
  const json = answer.success ? answer.data.rows[0]?.['QUERY PLAN'] : undefined;
  const plan = ZTopPlanRows.safeParse(typeof json === 'string' ? JSON.parse(json) : json);
  return plan.success ? Math.round(plan.data[0]?.Plan['Plan Rows'] ?? 0) : undefined;
}

/**
 * How many rows `match` answers: exact up to `cap`; past it, the planner's estimate for the same condition,
 * never below `cap` + 1 (the capped count saw that many). `match` is called once per statement: a builder is
 * spent by `limit`.
 */
export async function countCapped(db: Db, match: () => PgSelect, cap: number = LIST_COUNT_CAP): Promise<ListTotal> {
  const [row] = await cappedCountQuery(db, match(), cap);
  const counted = row?.n ?? 0;
  if (counted <= cap) return { total: counted, isEstimate: false };
  const explained: unknown = await db.execute(estimateStatement(match()));
  const estimate = planRows(explained) ?? 0;
  return { total: Math.max(estimate, cap + 1), isEstimate: true };
}

/**
 * The list's total made to agree with its page, which was read beside it: a page that is not full ends the
 * list, so the rows before it and on it are the exact total (an estimate past the count's cap becomes exact
 * on the last page); an estimate is never below what the pages up to this one show, and an empty page past
 * the end caps it at the rows before that page.
 */
export function totalBesidePage(counted: ListTotal, page: { limit: number; offset: number }, rowsOnPage: number): ListTotal {
  if (!counted.isEstimate) return counted;
  if (rowsOnPage < page.limit && (rowsOnPage > 0 || page.offset === 0)) return { total: page.offset + rowsOnPage, isEstimate: false };
  // A full page: at least the rows up to its end. An empty one past the end: at most those before it.
  const total = rowsOnPage > 0 ? Math.max(counted.total, page.offset + rowsOnPage) : Math.min(counted.total, page.offset);
  return { total, isEstimate: true };
}
