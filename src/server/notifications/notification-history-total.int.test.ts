import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ZNotificationHistory, type TNotificationHistory } from '../../contract';
import { describeEachDatabase } from '../../../tests/support/databases';
import { startSignedInClearbase, type SignedInClearbase } from '../../../tests/support/signed-in-clearbase';

/** The exact count stops here in these tests, so a few hundred messages reach the estimate. */
const CAP = 50;
/** Messages in History: 12 send rounds of 20 families, every round's messages written at one instant, as a send writes them. */
const ROUNDS = 12;
const FAMILIES = 20;
const MESSAGES = ROUNDS * FAMILIES;

describeEachDatabase('the History total: exact up to the cap, estimated past it', ({ getDatabase }) => {
  let server: SignedInClearbase | undefined;
  const history = async (query: string): Promise<TNotificationHistory> => {
    if (!server) throw new Error('not started');
    const response = await server.app.inject({ method: 'GET', url: `/api/notifications/history?${query}`, headers: { cookie: server.cookie } });
    expect(response.statusCode, response.body).toBe(200);
    return ZNotificationHistory.parse(response.json());
  };

  beforeAll(async () => {
    const { db } = getDatabase();
    await db.execute(sql`
      insert into notification_history (type, recipient, subject, status, sent_at, created_at)
      select 'email', 'family' || f || '@example.org', 'Reminder ' || r, 'sent', t.at, t.at
      from generate_series(1, ${ROUNDS}::int) as r cross join generate_series(1, ${FAMILIES}::int) as f
      cross join lateral (select timestamptz '2025-09-01' + r * interval '2 days' as at) t`);
    // The estimate comes from the table's statistics, as on a live database (autovacuum keeps them).
    await db.execute(sql`analyze notification_history`);
    server = await startSignedInClearbase({ database: getDatabase(), prefix: 'cb-historytotal', listCountCap: CAP });
  });
  afterAll(() => server?.close());

  it('past the cap, answers the estimate, said to be one, and the page itself newest first', async () => {
    const first = await history('pageSize=20');
    expect(first.totalIsEstimate).toBe(true);
    expect(first.total).toBeGreaterThan(CAP);
    // Analysed statistics of a whole table: the estimate is its row count, give or take.
    expect(first.total).toBeGreaterThanOrEqual(MESSAGES * 0.8);
    expect(first.total).toBeLessThanOrEqual(MESSAGES * 1.2);
    expect(first.items).toHaveLength(20);
    expect(first.items.every((item) => item.subject === `Reminder ${ROUNDS}`)).toBe(true);
  });

  it('pages to the real end, every message once, and the last page makes the total exact', async () => {
    const seen = new Set<string>();
    for (let page = 1; ; page += 1) {
      const answer = await history(`pageSize=50&page=${page}`);
      for (const item of answer.items) seen.add(item.id);
      if (answer.items.length < answer.pageSize) {
        expect(answer).toMatchObject({ total: MESSAGES, totalIsEstimate: false });
        break;
      }
      expect(page).toBeLessThan(10);
    }
    expect(seen.size).toBe(MESSAGES);
  });

  it('a page past the end is empty, its total no more than the messages before it', async () => {
    const past = await history('pageSize=20&page=30');
    expect(past.items).toEqual([]);
    expect(past.totalIsEstimate).toBe(true);
    expect(past.total).toBeLessThanOrEqual(29 * 20);
  });
});
