import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ZDocumentList, type TDocumentList } from '../../contract';
import { describeEachDatabase } from '../../../tests/support/databases';
import { FALL_2025 } from '../../../tests/support/pipeline';
import { signInAsUser } from '../../../tests/support/sessions';
import { startSignedInClearbase, type SignedInClearbase } from '../../../tests/support/signed-in-clearbase';
import { insertSeasons } from '../seasons/seasons.repository';
import { countDocumentList } from './documents.repository';

/** The exact count stops here in these tests, so a few hundred documents reach the estimate. */
const CAP = 100;

/**
 * 60 players, 5 documents each (300), written by the database itself: every third document is pending (100,
 * exactly the cap), the rest verified (200); the even players are in AA (150 documents), the others in A;
 * players 1-6 are 'Grace Hopper' (30 documents), the others 'Ada Lovelace' (270).
 */
async function seedLeague(db: Parameters<typeof countDocumentList>[0]): Promise<void> {
  await insertSeasons(db, [FALL_2025]);
  const id = sql.raw(`'CB-2025-' || lpad(to_hex(i), 8, '0')`);
  await db.execute(sql`
    insert into players (id, first_name, last_name, birth_date, guardian_name, guardian_email, guardian_phone)
    select ${id}, case when i <= 6 then 'Grace' else 'Ada' end, case when i <= 6 then 'Hopper' else 'Lovelace' end,
      date '2014-01-01' + i, 'Guardian ' || i, 'guardian' || i || '@example.org', '555-0100'
    from generate_series(1, 60) as i`);
  await db.execute(sql`
    insert into registrations (player_id, season_id, division, registered_at)
    select ${id}, ${FALL_2025.id}, case when i % 2 = 0 then 'AA' else 'A' end, timestamptz '2025-08-20'
    from generate_series(1, 60) as i`);
  await db.execute(sql`
    insert into documents (player_id, season_id, doc_type, original_filename, status, bytes, mime, file_sha256, uploaded_at, retain_until)
    select ${id}, ${FALL_2025.id}, 'waiver', 'form ' || k || '.pdf',
      case when (i * 5 + k) % 3 = 0 then 'pending' else 'verified' end,
      1000, 'application/pdf', md5(i || ' ' || k) || md5(k || ' ' || i),
      timestamptz '2025-09-01' + (i * 5 + k) * interval '1 minute', timestamptz '2032-09-01'
    from generate_series(1, 60) as i cross join generate_series(0, 4) as k`);
  // The estimate comes from the tables' statistics, as on a live database (autovacuum keeps them).
  await db.execute(sql`analyze`);
}

describeEachDatabase('the documents total: exact up to the cap, estimated past it', ({ getDatabase }) => {
  let server: SignedInClearbase | undefined;
  let everyone = '';
  let aa = '';
  const list = async (query: string, cookie = everyone): Promise<TDocumentList> => {
    if (!server) throw new Error('not started');
    const response = await server.app.inject({ method: 'GET', url: `/api/documents?${query}`, headers: { cookie } });
    expect(response.statusCode, response.body).toBe(200);
    return ZDocumentList.parse(response.json());
  };
  const exactly = (total: number) => ({ total, totalIsEstimate: false });

  beforeAll(async () => {
    const { db } = getDatabase();
    await seedLeague(db);
    server = await startSignedInClearbase({ database: getDatabase(), prefix: 'cb-doctotal', listCountCap: CAP });
    everyone = server.cookie;
    ({ cookie: aa } = await signInAsUser(db, { role: 'moderator', divisions: ['AA'] }));
  });
  afterAll(() => server?.close());

  it('counts exactly up to the cap, the cap itself included', async () => {
    expect(await list('status=pending&pageSize=10')).toMatchObject(exactly(100));
    expect(await list('search=grace&pageSize=10')).toMatchObject(exactly(30));
    expect(await list('status=rejected')).toMatchObject({ ...exactly(0), documents: [] });
    const { db } = getDatabase();
    expect(await countDocumentList(db, { status: 'pending' }, CAP)).toEqual({ total: 100, isEstimate: false });
  });

  it('past the cap, answers the planner’s estimate for the same filter, above the cap, and says it is one', async () => {
    const all = await list('pageSize=10');
    expect(all.totalIsEstimate).toBe(true);
    expect(all.documents).toHaveLength(10);
    // Analysed statistics of a whole table: the estimate is its row count, give or take.
    expect(all.total).toBeGreaterThan(CAP);
    expect(all.total).toBeGreaterThanOrEqual(250);
    expect(all.total).toBeLessThanOrEqual(350);

    const verified = await list('status=verified&pageSize=10');
    expect(verified.totalIsEstimate).toBe(true);
    expect(verified.total).toBeGreaterThanOrEqual(150);
    expect(verified.total).toBeLessThanOrEqual(250);

    // A search's estimate cannot see how many players match: it is never below what the capped count saw.
    const ada = await list('search=ada&pageSize=10');
    expect(ada.totalIsEstimate).toBe(true);
    expect(ada.total).toBeGreaterThan(CAP);

    const { db } = getDatabase();
    const counted = await countDocumentList(db, {}, CAP);
    expect(counted.isEstimate).toBe(true);
    expect(counted.total).toBeGreaterThan(CAP);
  });

  it('a division-limited principal gets an estimate of its own divisions, exact once the page reaches the end', async () => {
    const first = await list('pageSize=10', aa);
    expect(first.totalIsEstimate).toBe(true);
    expect(first.total).toBeGreaterThan(CAP);
    // All 150 of AA's documents fit on one page of 100 and the next: the second page ends the list.
    expect(await list('pageSize=100&page=2', aa)).toMatchObject({ ...exactly(150), page: 2 });
  });

  it('the last page, not full, makes the total exact; a page past the end is empty and its total no more than those before it', async () => {
    const last = await list('pageSize=40&page=8');
    expect(last).toMatchObject(exactly(300));
    expect(last.documents).toHaveLength(20);

    const past = await list('pageSize=40&page=20');
    expect(past.documents).toEqual([]);
    expect(past.totalIsEstimate).toBe(true);
    expect(past.total).toBeGreaterThan(CAP);
    expect(past.total).toBeLessThanOrEqual(19 * 40);

    // Verified documents, 30 a page: the seventh holds the last 20 and the total is exact; the eighth is empty.
    expect(await list('status=verified&pageSize=30&page=7')).toMatchObject(exactly(200));
    const afterVerified = await list('status=verified&pageSize=30&page=8');
    expect(afterVerified.documents).toEqual([]);
    expect(afterVerified.total).toBeLessThanOrEqual(7 * 30);
  });

  it('pages through an estimated list to its real end, every document once, newest first', async () => {
    const seen: string[] = [];
    let page = 1;
    for (;;) {
      const answer = await list(`pageSize=70&page=${page}`);
      seen.push(...answer.documents.map((d) => d.id));
      if (answer.documents.length < answer.pageSize) {
        expect(answer).toMatchObject(exactly(300));
        break;
      }
      expect(answer.totalIsEstimate).toBe(true);
      page += 1;
    }
    expect(page).toBe(5);
    expect(new Set(seen).size).toBe(300);
  });
});
