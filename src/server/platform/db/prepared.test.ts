import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import { describe, expect, it } from 'vitest';
import type { Db } from './client';
import { preparedRead, type Preparable } from './prepared';
import { schema } from './schema';

/** Databases that never connect: the helper only builds and caches statements, which needs no server. */
const offlineDb = (): Db => drizzle({ connection: 'postgres://nobody@127.0.0.1:1/none', schema });

/** A statement that records how often it is built and prepared, and answers the values it was run with. */
function recordingRead() {
  const built: string[] = [];
  const prepared: string[] = [];
  const read = preparedRead('things', (kind: 'a' | 'b', value: number) => ({
    shape: kind,
    values: { value },
    build: (): Preparable<unknown[]> => {
      built.push(kind);
      return {
        prepare: (name) => {
          prepared.push(name);
          return { execute: (values) => Promise.resolve([name, values]) };
        },
        toSQL: () => ({ sql: `select ${kind} where x = $1 and y = $2`, params: [sql.placeholder('value'), 7] }),
      };
    },
  }));
  return { read, built, prepared };
}

describe('preparedRead', () => {
  it('builds and prepares each shape once per database, and runs it with each call’s values', async () => {
    const { read, built, prepared } = recordingRead();
    const db = offlineDb();
    expect(await read.run(db, 'a', 1)).toEqual(['things:a', { value: 1 }]);
    expect(await read.run(db, 'a', 2)).toEqual(['things:a', { value: 2 }]);
    expect(await read.run(db, 'b', 3)).toEqual(['things:b', { value: 3 }]);
    expect(built).toEqual(['a', 'b']);
    expect(prepared).toEqual(['things:a', 'things:b']);

    // Another database (another pool, or a transaction) gets its own prepared statement.
    await read.run(offlineDb(), 'a', 4);
    expect(prepared).toEqual(['things:a', 'things:b', 'things:a']);
  });

  it('gives identical calls made while one runs one further read, and runs different values or databases apart', async () => {
    const executed: unknown[] = [];
    let release = () => undefined as void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const read = preparedRead('gated', (value: number) => ({
      shape: 'one',
      values: { value },
      build: (): Preparable<unknown[]> => ({
        prepare: () => ({
          execute: async (values) => {
            executed.push(values);
            await gate;
            return [values];
          },
        }),
        toSQL: () => ({ sql: 'select $1', params: [sql.placeholder('value')] }),
      }),
    }));
    const db = offlineDb();
    const calls = [read.run(db, 1), read.run(db, 1), read.run(db, 1), read.run(db, 2), read.run(offlineDb(), 1)];
    release();
    expect(await Promise.all(calls)).toEqual([[{ value: 1 }], [{ value: 1 }], [{ value: 1 }], [{ value: 2 }], [{ value: 1 }]]);
    // The two calls that came while the first ran shared one read, begun once it had settled.
    expect(executed).toEqual([{ value: 1 }, { value: 2 }, { value: 1 }, { value: 1 }]);
    // Settled: the next identical call reads afresh.
    await read.run(db, 1);
    expect(executed).toHaveLength(5);
  });

  it('gives the statement a request sends: its name, SQL text and values with the placeholders filled', () => {
    const { read } = recordingRead();
    expect(read.statement(offlineDb(), 'b', 42)).toEqual({ name: 'things:b', text: 'select b where x = $1 and y = $2', values: [42, 7] });
  });

  it('refuses a name PostgreSQL would cut short, where two statements could collide', async () => {
    const read = preparedRead('x'.repeat(60), (shape: string) => ({
      shape,
      values: {},
      build: (): Preparable<unknown[]> => ({ prepare: () => ({ execute: () => Promise.resolve([]) }), toSQL: () => ({ sql: 'select 1', params: [] }) }),
    }));
    await expect(read.run(offlineDb(), 'ab')).resolves.toEqual([]);
    await expect(read.run(offlineDb(), 'abc')).rejects.toThrow(/prepared statement name too long/);
  });
});
