import { fillPlaceholders } from 'drizzle-orm';
import { sharedReads, type SharedReads } from '../shared-reads';
import type { Db } from './client';

/** What a drizzle query built with `sql.placeholder(…)` values offers: its SQL, and a prepared form of it. */
export type Preparable<Result> = {
  prepare(name: string): { execute(values?: Record<string, unknown>): Promise<Result> };
  toSQL(): { sql: string; params: unknown[] };
};

/** One call's statement: its shape (which SQL text), the values of its placeholders, and how to build it. */
export type PreparedShape<Result> = {
  /** Distinguishes the SQL texts of one read; short, since the statement's name must stay under 63 bytes. */
  shape: string;
  values: Record<string, unknown>;
  build: (db: Db) => Preparable<Result>;
};

/** A statement as the driver gets it: what the scale bench runs raw, the way the server runs it. */
export type NamedStatement = { name: string; text: string; values: unknown[] };

export type PreparedRead<Args extends unknown[], Result> = {
  run(db: Db, ...args: Args): Promise<Result>;
  statement(db: Db, ...args: Args): NamedStatement;
};

/** PostgreSQL's identifier limit (NAMEDATALEN - 1): a longer statement name would be cut, and two could collide. */
const MAX_NAME_BYTES = 63;

/**
 * A read that runs as a named prepared statement: drizzle builds each shape's SQL once per database handle,
 * and PostgreSQL parses and plans it once per connection, instead of both on every request. For the reads
 * the dashboard polls (stats, the missing report's first page, recent uploads) that halves the server's CPU
 * per request on the scale data (bench/scale.bench.ts). The values travel as parameters, so a shape is the
 * same text for every season, division, search or page; `shapeOf` names what does change the text (which
 * filters are present).
 *
 * On PGlite drizzle ignores the name and runs the query as it would unprepared.
 *
 * Identical calls (same shape and values, on the same handle) share answers read after they arrived
 * (shared-reads.ts): the dashboards that poll these reads ask in bursts. Their rows are read-only.
 */
export function preparedRead<Args extends unknown[], Result>(
  family: string,
  shapeOf: (...args: Args) => PreparedShape<Result>,
): PreparedRead<Args, Result> {
  const byDb = new WeakMap<Db, Map<string, { execute(values?: Record<string, unknown>): Promise<Result> }>>();
  const inFlight = new WeakMap<Db, SharedReads<string, Result>>();
  const nameOf = (shape: string) => {
    const name = `${family}:${shape}`;
    if (Buffer.byteLength(name) > MAX_NAME_BYTES) throw new Error(`prepared statement name too long: ${name}`);
    return name;
  };
  return {
    async run(db, ...args) {
      const { shape, values, build } = shapeOf(...args);
      let statements = byDb.get(db);
      if (!statements) {
        statements = new Map();
        byDb.set(db, statements);
      }
      let prepared = statements.get(shape);
      if (!prepared) {
        prepared = build(db).prepare(nameOf(shape));
        statements.set(shape, prepared);
      }
      let shared = inFlight.get(db);
      if (!shared) {
        shared = sharedReads();
        inFlight.set(db, shared);
      }
      const statement = prepared;
      return await shared.read(`${shape}\u0000${JSON.stringify(values)}`, () => statement.execute(values));
    },
    statement(db, ...args) {
      const { shape, values, build } = shapeOf(...args);
      const { sql, params } = build(db).toSQL();
      return { name: nameOf(shape), text: sql, values: fillPlaceholders(params, values) };
    },
  };
}
