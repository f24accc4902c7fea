import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { DIVISIONS, DOC_TYPES, type TMissingReport, type TPlayerSort } from '../../contract';
import { SHARED_PRINCIPAL } from '../auth';
import { describeEachDatabase } from '../../../tests/support/databases';
import { P, seedReportFixture } from '../../../tests/support/report-fixture';
import { createLocalStorage } from '../adapters/storage/local-storage';
import { createReportsService, type MissingReportQuery } from './reports.service';

/**
 * The Players list's missing-document filter and its orders, on the hand-counted league: each answer is checked
 * against the unfiltered rows, filtered and ordered here in TypeScript.
 */
describeEachDatabase('the player list: missing type and order', ({ getDb }) => {
  // The list reads no file: its storage is never opened.
  const storage = createLocalStorage(path.join(tmpdir(), 'cb-player-list-unused'));
  const reports = () => createReportsService({ db: getDb(), storageFor: () => storage });
  const ALL: MissingReportQuery = { division: 'all', status: 'all', page: 1 };
  const ids = (report: TMissingReport) => report.players.map((row) => row.playerId);
  let every: TMissingReport['players'] = [];

  beforeAll(async () => {
    await seedReportFixture(getDb());
    every = (await reports().getMissingReport(ALL, SHARED_PRINCIPAL)).players;
  });

  it('keeps the players whose type shows Missing: none on file, or only rejected or purged ones', async () => {
    for (const type of DOC_TYPES) {
      const report = await reports().getMissingReport({ ...ALL, missing: type }, SHARED_PRINCIPAL);
      const expected = every.filter((row) => row.documentsStatus[type] === 'missing');
      expect(ids(report), type).toEqual(expected.map((row) => row.playerId));
      expect(report.total).toBe(expected.length);
      // The count cards stay the season's.
      expect(report.summary.total).toBe(every.length);
    }
    // Cara's birth certificate was rejected, then a new one verified: not missing. Her medical form was purged: missing.
    expect(ids(await reports().getMissingReport({ ...ALL, missing: 'birth_certificate' }, SHARED_PRINCIPAL))).toEqual([P.dan, P.eve]);
    expect(ids(await reports().getMissingReport({ ...ALL, missing: 'medical' }, SHARED_PRINCIPAL))).toContain(P.cara);
  });

  it('combines the missing type with division, status, search and paging', async () => {
    const query = { ...ALL, missing: 'waiver', division: 'AA', status: 'incomplete', search: 'adams' } as const;
    expect(ids(await reports().getMissingReport(query, SHARED_PRINCIPAL))).toEqual([P.ben]);
    expect((await reports().getMissingReport({ ...query, division: 'AAA' }, SHARED_PRINCIPAL)).total).toBe(0);
    const residency = every.filter((row) => row.documentsStatus.residency === 'missing');
    expect(residency.length).toBeGreaterThan(2);
    const page2 = await reports().getMissingReport({ ...ALL, missing: 'residency', pageSize: 2, page: 2 }, SHARED_PRINCIPAL);
    expect(ids(page2)).toEqual(residency.slice(2, 4).map((row) => row.playerId));
    expect(page2.total).toBe(residency.length);
  });

  it('within a principal’s divisions only', async () => {
    const aa = { ...SHARED_PRINCIPAL, divisions: ['AA' as const] };
    const report = await reports().getMissingReport({ ...ALL, missing: 'waiver' }, aa);
    expect(ids(report)).toEqual(every.filter((row) => row.division === 'AA' && row.documentsStatus.waiver === 'missing').map((row) => row.playerId));
  });

  it('orders by name, division (the league’s order) or completion, either way, ties by name, on every page', async () => {
    const byName = (a: (typeof every)[number], b: (typeof every)[number]) =>
      a.lastName.localeCompare(b.lastName) || a.firstName.localeCompare(b.firstName) || a.playerId.localeCompare(b.playerId);
    const rank = (division: (typeof DIVISIONS)[number]) => DIVISIONS.indexOf(division);
    const orders: Record<TPlayerSort, (a: (typeof every)[number], b: (typeof every)[number]) => number> = {
      name: byName,
      '-name': (a, b) => byName(b, a),
      division: (a, b) => rank(a.division) - rank(b.division) || byName(a, b),
      '-division': (a, b) => rank(b.division) - rank(a.division) || byName(a, b),
      completion: (a, b) => a.completionPercentage - b.completionPercentage || byName(a, b),
      '-completion': (a, b) => b.completionPercentage - a.completionPercentage || byName(a, b),
    };
    for (const [sort, compare] of Object.entries(orders) as Array<[TPlayerSort, typeof byName]>) {
      const expected = [...every].sort(compare).map((row) => row.playerId);
      expect(ids(await reports().getMissingReport({ ...ALL, sort }, SHARED_PRINCIPAL)), sort).toEqual(expected);
      const pages = await Promise.all([1, 2, 3].map((page) => reports().getMissingReport({ ...ALL, sort, page, pageSize: 2 }, SHARED_PRINCIPAL)));
      expect(pages.flatMap(ids), `${sort} paged`).toEqual(expected);
    }
    expect(ids(await reports().getMissingReport({ ...ALL, sort: 'division' }, SHARED_PRINCIPAL))[0]).toBe(P.cara);
  });

  it('gives each row its guardian when every row is asked for (the export), not on a page', async () => {
    const ben = every.find((row) => row.playerId === P.ben);
    expect(ben?.guardian).toEqual({ name: 'Adams Parent', email: 'adams@example.org', phone: '555-0100' });
    expect(every.find((row) => row.playerId === P.dan)?.guardian).toEqual({ name: null, email: null, phone: null });
    const page = await reports().getMissingReport({ ...ALL, pageSize: 10 }, SHARED_PRINCIPAL);
    expect(page.players.every((row) => row.guardian === undefined)).toBe(true);
  });
});
