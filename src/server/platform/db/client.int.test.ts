import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startCuttingProxy, type CuttingProxy } from '../../../../tests/support/cutting-proxy';
import { createScratchPostgresDatabase } from '../../../../tests/support/databases';
import { openDatabase, type Database } from './client';
import { isDatabaseUnreachable } from './errors';
import { settings } from './schema';

/** One more than the pool holds: with a client lost per dropped BEGIN, this many would exhaust it. */
const DROPS = 11;

const postgresAdminUrl = inject('postgresAdminUrl');

if (!postgresAdminUrl) describe.skip('database client [postgres] — SKIPPED: PostgreSQL not reachable', () => undefined);

describe.skipIf(!postgresAdminUrl)('database client: transactions whose connection drops [postgres]', () => {
  let scratch: Awaited<ReturnType<typeof createScratchPostgresDatabase>> | undefined;
  let proxy: CuttingProxy | undefined;
  let database: Database | undefined;

  beforeAll(async () => {
    scratch = await createScratchPostgresDatabase();
    const direct = new URL(scratch.url);
    // Every connection of the pool goes through a proxy that can cut one at a chosen statement.
    proxy = await startCuttingProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    const throughProxy = new URL(scratch.url);
    throughProxy.host = `${proxy.host}:${proxy.port}`;
    database = await openDatabase({ kind: 'postgres', url: throughProxy.toString() });
  });
  afterAll(async () => {
    await database?.close();
    await proxy?.close();
    await scratch?.drop();
  });

  it('gives the pool its client back when the connection drops at BEGIN, so drops never exhaust it', async () => {
    const db = database?.db;
    const cutter = proxy;
    if (!db || !cutter) throw new Error('not set up');
    for (let drop = 0; drop < DROPS; drop++) {
      const cut = cutter.cutOnce({ when: /begin/i, afterBytes: 0 });
      const failure = await db.transaction(() => Promise.resolve('never reached')).then(
        () => undefined,
        (error: unknown) => error,
      );
      // A leaked client shows here first: the pool has none left to give, and says so after its connect timeout.
      expect(String(failure)).not.toContain('timeout exceeded when trying to connect');
      expect(isDatabaseUnreachable(failure), String(failure)).toBe(true);
      await cut;
    }
    // The pool still has every one of its clients: a transaction and a plain query go through at once.
    await db.transaction((tx) => tx.insert(settings).values({ key: 'after-the-drops', value: { ok: true } }));
    expect(await db.select({ n: count() }).from(settings).where(eq(settings.key, 'after-the-drops'))).toEqual([{ n: 1 }]);
  });
});
