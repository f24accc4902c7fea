import { and, eq, inArray, sql } from 'drizzle-orm';
import type pg from 'pg';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../../tests/support/databases';
import { expectBreakdownMatchesRegistrations } from '../../../tests/support/report-consistency';
import { insertDocument } from '../documents/documents.repository';
import type { Database } from '../platform/db/client';
import { players, registrations, seasonBreakdown } from '../platform/db/schema';
import { insertPlayers } from '../players/players.repository';
import { insertRegistrations } from '../players/registrations.repository';
import { insertSeasons } from '../seasons/seasons.repository';
import { seasonBreakdownQuery } from './season-report.repository';

/**
 * season_breakdown (migration 0018, decision 032) after every kind of write to registrations: each test
 * writes, then expects the table, summed over its slots, to equal the registrations grouped afresh
 * (tests/support/report-consistency.ts), and the report's read of it to answer the same groups.
 */

const FALL = { id: 'brk-fall-2025', name: 'Breakdown Fall 2025', kind: 'Fall Ball', year: 2025, startsOn: '2025-08-01', endsOn: '2025-11-30' } as const;
const SPRING = { id: 'brk-spring-2026', name: 'Breakdown Spring 2026', kind: 'Spring Ball', year: 2026, startsOn: '2026-03-01', endsOn: '2026-06-30' } as const;
const id = (n: number) => `CB-2025-${n.toString(16).padStart(8, '0')}`;
const PLAYERS = 40;

describeEachDatabase('season_breakdown kept by the registration triggers', ({ getDb, getDatabase, kind }) => {
  beforeAll(async () => {
    const db = getDb();
    await insertSeasons(db, [FALL, SPRING]);
    await insertPlayers(
      db,
      Array.from({ length: PLAYERS }, (_, i) => ({ id: id(i + 1), firstName: `First${i + 1}`, lastName: `Last${i + 1}`, birthDate: '2014-01-01' })),
    );
  });

  it('counts registrations in, one by one and in bulk, by their month in UTC', async () => {
    const db = getDb();
    // 23:30 on 31 August at UTC−2 is 1 September in UTC: a September registration.
    await insertRegistrations(db, [{ playerId: id(1), seasonId: FALL.id, division: 'AA', registeredAt: new Date('2025-08-31T23:30:00-02:00') }]);
    await insertRegistrations(db, [{ playerId: id(2), seasonId: FALL.id, division: 'AA', registeredAt: new Date('2025-08-31T20:00:00Z') }]);
    // Written by a session in Auckland, where 13:00 UTC on 31 August is already 1 September: still August.
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local time zone 'Pacific/Auckland'`);
      await insertRegistrations(tx, [{ playerId: id(23), seasonId: FALL.id, division: 'Peewee', registeredAt: new Date('2025-08-31T13:00:00Z') }]);
    });
    expect((await seasonBreakdownQuery(db, FALL.id, 'Peewee')).map((row) => row.registeredMonth)).toEqual(['2025-08']);
    await expectBreakdownMatchesRegistrations(db);

    // Twenty at once, in one INSERT … SELECT: players 3 to 22 (n = 1 to 20), a third of them in AA, every
    // other one registered in September.
    await db.execute(sql`
      insert into registrations (player_id, season_id, division, registered_at)
      select p.id, ${FALL.id}, (array['A', 'AA', 'AAA'])[1 + p.n % 3], timestamptz '2025-08-10T12:00:00Z' + (p.n % 2) * interval '1 month'
      from (select id, row_number() over (order by id) as n from players where id between ${id(3)} and ${id(22)}) p`);
    await expectBreakdownMatchesRegistrations(db);

    // AA, all missing: in August player 2 and n = 4, 10, 16; in September player 1 and n = 1, 7, 13, 19.
    const read = await seasonBreakdownQuery(db, FALL.id, 'AA');
    expect(read.map(({ registeredMonth, count }) => ({ registeredMonth, count })).sort((a, b) => String(a.registeredMonth).localeCompare(String(b.registeredMonth)))).toEqual([
      { registeredMonth: '2025-08', count: 4 },
      { registeredMonth: '2025-09', count: 5 },
    ]);
    expect(read.every((row) => row.division === 'AA' && !row.complete && row.birthCertificate === 'missing' && row.completedMonth === null)).toBe(true);
  });

  it('moves them between groups as their documents, division, dates and season change', async () => {
    const db = getDb();
    // Player 1 becomes complete: four verified documents, the last reviewed in October.
    for (const [docType, reviewedAt] of [
      ['birth_certificate', '2025-09-03T10:00:00Z'],
      ['residency', '2025-09-04T10:00:00Z'],
      ['medical', '2025-09-05T10:00:00Z'],
      ['waiver', '2025-10-02T10:00:00Z'],
    ] as const) {
      await insertDocument(db, { playerId: id(1), seasonId: FALL.id, docType, status: 'verified', reviewedAt: new Date(reviewedAt), originalFilename: `${docType}.pdf`, bytes: 1 });
      await expectBreakdownMatchesRegistrations(db);
    }
    const [one] = await db.select().from(registrations).where(and(eq(registrations.playerId, id(1)), eq(registrations.seasonId, FALL.id)));
    expect(one).toMatchObject({ completeTypes: 4, completedAt: new Date('2025-10-02T10:00:00Z') });
    const complete = (await seasonBreakdownQuery(db, FALL.id, 'all')).filter((row) => row.complete);
    expect(complete).toEqual([
      {
        division: 'AA',
        complete: true,
        birthCertificate: 'complete',
        residency: 'complete',
        medical: 'complete',
        waiver: 'complete',
        registeredMonth: '2025-09',
        completedMonth: '2025-10',
        count: 1,
      },
    ]);

    // A pending document for player 2, then its rejection.
    const pending = await insertDocument(db, { playerId: id(2), seasonId: FALL.id, docType: 'medical', status: 'pending', originalFilename: 'm.pdf', bytes: 1 });
    await expectBreakdownMatchesRegistrations(db);
    await db.execute(sql`update documents set status = 'rejected' where id = ${pending.id}`);
    await expectBreakdownMatchesRegistrations(db);

    // A division, a registration date and a season changed, each by one statement.
    await db.update(registrations).set({ division: 'Peewee' }).where(eq(registrations.playerId, id(3)));
    await db.update(registrations).set({ registeredAt: new Date('2025-11-30T23:59:59Z') }).where(eq(registrations.playerId, id(4)));
    await db.update(registrations).set({ seasonId: SPRING.id }).where(eq(registrations.playerId, id(5)));
    await expectBreakdownMatchesRegistrations(db);

    // One statement that moves players both ways between two divisions: the counts of some groups do not change.
    await db.execute(sql`
      update registrations set division = case division when 'A' then 'AAA' else 'A' end
      where season_id = ${FALL.id} and division in ('A', 'AAA')`);
    await expectBreakdownMatchesRegistrations(db);
    // An update that changes nothing the breakdown reads.
    await db.update(registrations).set({ lastName: 'Renamed' }).where(eq(registrations.seasonId, FALL.id));
    await expectBreakdownMatchesRegistrations(db);
  });

  it('counts them out when deleted: one, several at once, and with their player', async () => {
    const db = getDb();
    await db.delete(registrations).where(eq(registrations.playerId, id(6)));
    await expectBreakdownMatchesRegistrations(db);
    await db.delete(registrations).where(inArray(registrations.playerId, [id(7), id(8), id(9), id(10)]));
    await expectBreakdownMatchesRegistrations(db);
    // Deleting the player deletes the registration (a cascade, through the same triggers).
    await db.delete(players).where(eq(players.id, id(11)));
    await expectBreakdownMatchesRegistrations(db);

    // Registered and removed in one transaction (one session, one slot): a group of its own whose row goes
    // back to zero, and is deleted.
    await db.transaction(async (tx) => {
      await insertRegistrations(tx, [{ playerId: id(6), seasonId: FALL.id, division: 'AA', registeredAt: new Date('2024-12-10T12:00:00Z') }]);
      await tx.delete(registrations).where(eq(registrations.playerId, id(6)));
    });
    expect(await db.select().from(seasonBreakdown).where(eq(seasonBreakdown.registeredMonth, '2024-12-01'))).toEqual([]);
    await expectBreakdownMatchesRegistrations(db);
  });

  it.runIf(kind === 'postgres')('counts two transactions writing at once: in two slots without waiting, in one slot one after the other, never deadlocked', async () => {
    const db = getDb();
    await insertRegistrations(db, [
      { playerId: id(30), seasonId: FALL.id, division: 'AAA', registeredAt: new Date('2025-08-15T12:00:00Z') },
      { playerId: id(31), seasonId: FALL.id, division: 'AAA', registeredAt: new Date('2025-08-15T12:00:00Z') },
      { playerId: id(32), seasonId: FALL.id, division: 'AAA', registeredAt: new Date('2025-08-15T12:00:00Z') },
    ]);
    const { sameSlot, otherSlot, close } = await sessionsBySlot(getDatabase());
    try {
      const [first, second] = [sameSlot[0].client, sameSlot[1].client];
      const other = otherSlot.client;

      // Two slots: both move a registration into one group at once; the second does not wait for the first
      // (it would hang here), and each slot holds its part.
      await first.query('begin');
      await other.query('begin');
      await first.query(`update registrations set residency_status = 'pending' where player_id = $1`, [id(30)]);
      await other.query(`update registrations set residency_status = 'pending' where player_id = $1`, [id(31)]);
      await Promise.all([first.query('commit'), other.query('commit')]);
      const slots = await db
        .selectDistinct({ slot: seasonBreakdown.slot })
        .from(seasonBreakdown)
        .where(and(eq(seasonBreakdown.seasonId, FALL.id), eq(seasonBreakdown.division, 'AAA'), eq(seasonBreakdown.residencyStatus, 'pending')));
      expect(slots.map((row) => row.slot).sort()).toEqual([sameSlot[0].slot, otherSlot.slot].sort());
      await expectBreakdownMatchesRegistrations(db);

      // One slot. The first registers a player in September (its season and division's totals row, and the
      // all-missing September group) and holds them. The second moves player 32 from the all-missing August
      // group to August with residency processing, which changes no total: it still takes the totals row
      // first, and waits there. The first then moves its player into that August group, whose row nobody
      // holds, and commits; then the second goes on. Were breakdown rows taken before the totals row, the
      // second would hold the August rows while waiting for the totals row, the first wait for those rows, and
      // PostgreSQL would abort one of them as a deadlock.
      await first.query('begin');
      await first.query(`insert into registrations (player_id, season_id, division, registered_at) values ($1, $2, 'AAA', '2025-09-20T12:00:00Z')`, [id(33), FALL.id]);
      await second.query('begin');
      const moving = second.query(`update registrations set residency_status = 'processing' where player_id = $1`, [id(32)]).then(
        () => null,
        (error: unknown) => error,
      );
      await waitUntilBlocked(other, sameSlot[1].pid);
      await first.query(`update registrations set residency_status = 'processing', registered_at = '2025-08-20T12:00:00Z' where player_id = $1`, [id(33)]);
      await first.query('commit');
      expect(await moving).toBeNull();
      await second.query('commit');
      await expectBreakdownMatchesRegistrations(db);
      const moved = await seasonBreakdownQuery(db, FALL.id, 'AAA');
      expect(moved.find((row) => row.residency === 'processing' && row.registeredMonth === '2025-08')?.count).toBe(2);
    } finally {
      await close();
    }
  });

  it('is emptied by a truncate of registrations, and counts again after it', async () => {
    const db = getDb();
    await db.execute(sql`truncate table registrations`);
    expect(await db.select().from(seasonBreakdown)).toEqual([]);
    await expectBreakdownMatchesRegistrations(db);
    await insertRegistrations(db, [{ playerId: id(12), seasonId: FALL.id, division: 'A', registeredAt: new Date('2025-08-10T12:00:00Z') }]);
    await expectBreakdownMatchesRegistrations(db);
    expect(await seasonBreakdownQuery(db, FALL.id, 'all')).toHaveLength(1);
  });
});

type Session = { client: pg.Client; pid: number; slot: number };

/**
 * Sessions of their own on the PostgreSQL under test: two that share a slot (pg_backend_pid() % 8) and one in
 * another, found by opening sessions until the slots fall so (nine at most); the others are closed.
 */
async function sessionsBySlot(database: Database): Promise<{ sameSlot: [Session, Session]; otherSlot: Session; close: () => Promise<void> }> {
  if (database.driver.kind !== 'postgres') throw new Error('sessions of their own need PostgreSQL');
  const opened: Session[] = [];
  const close = () => Promise.all(opened.map((session) => session.client.end())).then(() => undefined);
  try {
    for (let tries = 0; tries < 30; tries++) {
      const client = database.driver.newClient();
      await client.connect();
      const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
      const pid = rows[0]?.pid ?? 0;
      opened.push({ client, pid, slot: pid % 8 });
      const first = opened.find((a) => opened.some((b) => b !== a && b.slot === a.slot));
      const second = first && opened.find((b) => b !== first && b.slot === first.slot);
      const other = first && opened.find((c) => c.slot !== first.slot);
      if (first && second && other) {
        const kept = [first, second, other];
        await Promise.all(opened.filter((session) => !kept.includes(session)).map((session) => session.client.end()));
        opened.splice(0, opened.length, ...kept);
        return { sameSlot: [first, second], otherSlot: other, close };
      }
    }
    throw new Error('no two sessions in one slot and one in another after 30 sessions');
  } catch (error) {
    await close();
    throw error;
  }
}

/** Waits (10 s at most) until the session `pid` waits for a lock, as `observer` sees it in pg_stat_activity. */
async function waitUntilBlocked(observer: pg.Client, pid: number): Promise<void> {
  for (let tries = 0; tries < 200; tries++) {
    const { rows } = await observer.query<{ waiting: boolean }>(`select wait_event_type = 'Lock' as waiting from pg_stat_activity where pid = $1`, [pid]);
    if (rows[0]?.waiting) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`session ${pid} never waited for a lock`);
}
