import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TMissingReport, TPlayerReportRow } from '../../contract';
import { SHARED_PRINCIPAL } from '../auth';
import { describeEachDatabase } from '../../../tests/support/databases';
import { expectSummariesMatchDocuments } from '../../../tests/support/report-consistency';
import { D, P, REPORT_NOW, REPORT_SEASONS, seedReportFixture } from '../../../tests/support/report-fixture';
import { createLocalStorage } from '../adapters/storage/local-storage';
import type { Storage } from '../adapters/storage/port';
import { listAuditEventsByAction } from '../audit/audit-events.repository';
import { insertDocument, updateDocument } from '../documents/documents.repository';
import { insertPlayers, upsertPlayer } from '../players/players.repository';
import { insertRegistrations } from '../players/registrations.repository';
import { everyReportRowRead, missingReportCountsRead, missingReportPageRead, statsRead } from './reports.repository';
import { documents, players, registrations, requirementDay } from '../platform/db/schema';
import { replaceWithDemoData, seedDemoDataIfEmpty } from '../demo/seed-demo-data';
import { AppError } from '../platform/errors';
import type { Db } from '../platform/db/client';
import { derivePlayerId } from '../players/player-id';
import { createPlayersService } from '../players/players.service';
import { createReportsService, normaliseSearch, type MissingReportQuery } from './reports.service';
import { createSeasonsService } from '../seasons/seasons.service';

const FALL = REPORT_SEASONS.fall2025;
const ALL: MissingReportQuery = { division: 'all', status: 'all', page: 1 };
const names = (report: TMissingReport) => report.players.map((row) => `${row.lastName}, ${row.firstName}`);

const guardianOf = (lastName: string) => {
  const name = lastName.replace('%', '');
  return { name: `${name} Parent`, email: `${name.toLowerCase()}@example.org`, phone: '555-0100' };
};

/** Row shorthand: statuses in type order birth certificate, residency, medical, waiver. */
const row = (
  playerId: string,
  firstName: string,
  lastName: string,
  division: TPlayerReportRow['division'],
  [birth, residency, medical, waiver]: Array<TPlayerReportRow['documentsStatus']['waiver']>,
  completionPercentage: number,
  [leagueAge, ageFitsDivision]: [number, boolean],
): TPlayerReportRow & { guardian: TMissingReport['players'][number]['guardian'] } => ({
  playerId,
  playerName: `${firstName} ${lastName}`,
  firstName,
  lastName,
  division,
  documentsStatus: { birth_certificate: birth ?? 'missing', residency: residency ?? 'missing', medical: medical ?? 'missing', waiver: waiver ?? 'missing' },
  completionPercentage,
  expiresOn: null,
  leagueAge,
  ageFitsDivision,
  // Every row answered at once (no page size) carries the guardian, as the fixture writes it.
  guardian: lastName === 'Brown' ? { name: null, email: null, phone: null } : guardianOf(lastName),
});

// League ages on 31 August 2025 under the default division ages (AA 8–10, AAA 10–12, A 7–8, Peewee 4–6; TEST takes any).
const ROWS = {
  ben: row(P.ben, 'Ben', 'Adams', 'AA', ['complete', 'pending', 'processing', 'missing'], 25, [12, false]),
  dan: row(P.dan, 'Dan', 'Brown', 'A', ['missing', 'missing', 'missing', 'missing'], 0, [12, false]),
  // Born 29 February 2016.
  eve: row(P.eve, 'Eve', 'Fifty%', 'TEST', ['missing', 'missing', 'missing', 'complete'], 25, [9, true]),
  cara: row(P.cara, 'Cara', 'Jones', 'AAA', ['complete', 'missing', 'missing', 'pending'], 25, [10, true]),
  ava: row(P.ava, 'Ava', 'Smith', 'AA', ['complete', 'complete', 'complete', 'complete'], 100, [11, false]),
  // Born 9 September: still 10 on 31 August.
  kai: row(P.kai, 'Kai', 'Young', 'Peewee', ['complete', 'complete', 'complete', 'complete'], 100, [10, false]),
};

async function notFound(promise: Promise<unknown>): Promise<string> {
  const error: unknown = await promise.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe('NOT_FOUND');
  return (error as AppError).message;
}

let storageRoot = '';
let storage: Storage;
beforeAll(async () => {
  storageRoot = await mkdtemp(path.join(tmpdir(), 'cb-reports-'));
  storage = createLocalStorage(storageRoot);
});
afterAll(async () => {
  await rm(storageRoot, { recursive: true, force: true });
});

describeEachDatabase('reports on a hand-counted league', ({ getDb }) => {
  const reports = () => createReportsService({ db: getDb(), storageFor: () => storage, now: () => REPORT_NOW });

  beforeAll(async () => {
    await seedReportFixture(getDb());
  });

  it('keeps every summary equal to what the documents say', async () => {
    await expectSummariesMatchDocuments(getDb());
  });

  it('lists seasons newest first', async () => {
    const seasons = await createSeasonsService({ db: getDb() }).list();
    expect(seasons.map(({ id, name, kind, year, isCurrent }) => ({ id, name, kind, year, isCurrent }))).toEqual([
      { id: 'fall-2025', name: 'Fall Ball 2025', kind: 'Fall Ball', year: 2025, isCurrent: true },
      { id: 'spring-2025', name: 'Spring Ball 2025', kind: 'Spring Ball', year: 2025, isCurrent: false },
      { id: 'fall-2024', name: 'Fall Ball 2024', kind: 'Fall Ball', year: 2024, isCurrent: false },
    ]);
  });

  it('counts the stats of a season named by nothing (current), a year or an id', async () => {
    const fall = {
      season: { id: 'fall-2025', name: 'Fall Ball 2025', year: 2025 },
      totalPlayers: 6,
      // Live (neither rejected nor purged) documents: Ava 5, Ben 3, Cara 3 (one without a type), Eve 1, Kai 4.
      documentsUploaded: 16,
      // Ava's extra medical form, Ben's residency, Cara's waiver and her undetected file.
      pendingReview: 4,
      completeProfiles: 2,
      expiringSoon: 0,
    };
    expect(await reports().getStats(undefined, SHARED_PRINCIPAL)).toEqual(fall);
    expect(await reports().getStats('2025', SHARED_PRINCIPAL)).toEqual(fall);
    expect(await reports().getStats('fall-2025', SHARED_PRINCIPAL)).toEqual(fall);
    expect(await reports().getStats('spring-2025', SHARED_PRINCIPAL)).toEqual({
      season: { id: 'spring-2025', name: 'Spring Ball 2025', year: 2025 },
      totalPlayers: 1,
      documentsUploaded: 1,
      pendingReview: 0,
      completeProfiles: 0,
      expiringSoon: 0,
    });
    expect(await reports().getStats('2024', SHARED_PRINCIPAL)).toMatchObject({ season: { id: 'fall-2024' }, totalPlayers: 1, documentsUploaded: 1, pendingReview: 1 });
    expect(await notFound(reports().getStats('1999', SHARED_PRINCIPAL))).toBe('Season "1999" does not exist.');
    expect(await notFound(reports().getStats('winter-2025', SHARED_PRINCIPAL))).toBe('Season "winter-2025" does not exist.');
  });

  it('answers every row of the missing report in name order, with the summary and per-type statuses', async () => {
    const report = await reports().getMissingReport(ALL, SHARED_PRINCIPAL);
    expect(report.season).toEqual({ id: 'fall-2025', name: 'Fall Ball 2025', year: 2025 });
    expect(report.players).toEqual([ROWS.ben, ROWS.dan, ROWS.eve, ROWS.cara, ROWS.ava, ROWS.kai]);
    expect(report.summary).toEqual({ total: 6, complete: 2, incomplete: 4 });
    expect(report).toMatchObject({ total: 6, page: 1, pageSize: null });
  });

  it('filters by status: complete, incomplete, and a type pending (not a pending file of a complete type)', async () => {
    const complete = await reports().getMissingReport({ ...ALL, status: 'complete' }, SHARED_PRINCIPAL);
    expect(complete.players).toEqual([ROWS.ava, ROWS.kai]);
    expect(complete.total).toBe(2);
    // The summary is the season and division's, whatever the status filter.
    expect(complete.summary).toEqual({ total: 6, complete: 2, incomplete: 4 });

    const incomplete = await reports().getMissingReport({ ...ALL, status: 'incomplete' }, SHARED_PRINCIPAL);
    expect(names(incomplete)).toEqual(['Adams, Ben', 'Brown, Dan', 'Fifty%, Eve', 'Jones, Cara']);
    expect(incomplete.total).toBe(4);

    // Ava has a pending medical form, but her medical type is complete (a verified one): not pending.
    const pending = await reports().getMissingReport({ ...ALL, status: 'pending' }, SHARED_PRINCIPAL);
    expect(names(pending)).toEqual(['Adams, Ben', 'Jones, Cara']);
    expect(pending.total).toBe(2);
  });

  it('filters by division, with the division as the summary', async () => {
    const aa = await reports().getMissingReport({ ...ALL, division: 'AA' }, SHARED_PRINCIPAL);
    expect(aa.players).toEqual([ROWS.ben, ROWS.ava]);
    expect(aa.summary).toEqual({ total: 2, complete: 1, incomplete: 1 });
    expect(aa.total).toBe(2);

    const aaIncomplete = await reports().getMissingReport({ ...ALL, division: 'AA', status: 'incomplete' }, SHARED_PRINCIPAL);
    expect(aaIncomplete.players).toEqual([ROWS.ben]);
    expect(aaIncomplete.summary).toEqual({ total: 2, complete: 1, incomplete: 1 });
    expect(aaIncomplete.total).toBe(1);

    const peeweeComplete = await reports().getMissingReport({ ...ALL, division: 'Peewee', status: 'complete' }, SHARED_PRINCIPAL);
    expect(peeweeComplete.players).toEqual([ROWS.kai]);
    expect(peeweeComplete.summary).toEqual({ total: 1, complete: 1, incomplete: 0 });

    const empty = await reports().getMissingReport({ ...ALL, division: 'AAA', status: 'complete' }, SHARED_PRINCIPAL);
    expect(empty.players).toEqual([]);
    expect(empty.summary).toEqual({ total: 1, complete: 0, incomplete: 1 });
    expect(empty.total).toBe(0);
  });

  it('searches names as "First Last", "Last, First" and "Last First", and player ids, ignoring case', async () => {
    const search = async (text: string, extra: Partial<MissingReportQuery> = {}) => {
      const report = await reports().getMissingReport({ ...ALL, ...extra, search: text }, SHARED_PRINCIPAL);
      expect(report.total, text).toBe(report.players.length);
      return names(report);
    };
    expect(await search('ava smith')).toEqual(['Smith, Ava']);
    expect(await search('SMITH, AVA')).toEqual(['Smith, Ava']);
    expect(await search('  smith   ,ava ')).toEqual(['Smith, Ava']);
    expect(await search('Smith Ava')).toEqual(['Smith, Ava']);
    expect(await search('jones')).toEqual(['Jones, Cara']);
    expect(await search('da')).toEqual(['Adams, Ben', 'Brown, Dan']);
    expect(await search('0000000d')).toEqual(['Brown, Dan']);
    expect(await search('cb-2025-0000000')).toHaveLength(6);
    // Wildcards in the search are the characters themselves.
    expect(await search('%')).toEqual(['Fifty%, Eve']);
    expect(await search('fifty%')).toEqual(['Fifty%, Eve']);
    expect(await search('a%s')).toEqual([]);
    expect(await search('_')).toEqual([]);
    expect(await search('\\')).toEqual([]);
    expect(await search('nobody')).toEqual([]);
    // Search and the other filters together; the summary stays the division's.
    expect(await search('a', { status: 'complete' })).toEqual(['Smith, Ava', 'Young, Kai']);
    const aa = await reports().getMissingReport({ ...ALL, division: 'AA', search: 'ben' }, SHARED_PRINCIPAL);
    expect(names(aa)).toEqual(['Adams, Ben']);
    expect(aa.summary).toEqual({ total: 2, complete: 1, incomplete: 1 });
    // A blank search is no search.
    expect((await reports().getMissingReport({ ...ALL, search: '   ' }, SHARED_PRINCIPAL)).total).toBe(6);
  });

  it('pages: the total counts every matching row, a page past the end is empty', async () => {
    const page = (n: number, pageSize: number, extra: Partial<MissingReportQuery> = {}) =>
      reports().getMissingReport({ ...ALL, ...extra, page: n, pageSize }, SHARED_PRINCIPAL);
    const first = await page(1, 2);
    expect(names(first)).toEqual(['Adams, Ben', 'Brown, Dan']);
    expect(first).toMatchObject({ total: 6, page: 1, pageSize: 2, summary: { total: 6, complete: 2, incomplete: 4 } });
    const second = await page(2, 2);
    expect(names(second)).toEqual(['Fifty%, Eve', 'Jones, Cara']);
    expect(second).toMatchObject({ total: 6, page: 2, pageSize: 2 });
    expect(names(await page(3, 2))).toEqual(['Smith, Ava', 'Young, Kai']);
    const past = await page(4, 2);
    expect(past.players).toEqual([]);
    expect(past.total).toBe(6);
    const incompleteSecond = await page(2, 3, { status: 'incomplete' });
    expect(names(incompleteSecond)).toEqual(['Jones, Cara']);
    expect(incompleteSecond.total).toBe(4);
    expect(await notFound(reports().getMissingReport({ ...ALL, season: 'fall-1999' }, SHARED_PRINCIPAL))).toBe('Season "fall-1999" does not exist.');
  });

  it("reports one player's season: status, guardian and that season's documents newest first", async () => {
    const report = await reports().getPlayerReport(P.cara, undefined, SHARED_PRINCIPAL);
    expect(report.season).toEqual({ id: 'fall-2025', name: 'Fall Ball 2025', year: 2025 });
    expect(report.status).toEqual({
      playerId: P.cara,
      playerName: 'Cara Jones',
      division: 'AAA',
      documentsStatus: { birth_certificate: 'complete', residency: 'missing', medical: 'missing', waiver: 'pending' },
      completionPercentage: 25,
    });
    expect(report.guardian).toEqual({ name: 'Jones Parent', email: 'jones@example.org', phone: '555-0100' });
    expect(report.birthDate).toBe('2015-07-07');
    expect(report.documents.map((d) => d.id)).toEqual([
      D.caraUndetected,
      D.caraWaiver,
      D.caraResidency,
      D.caraBirth,
      D.caraMedicalPurged,
      D.caraBirthRejected,
    ]);
    const waiver = report.documents[1];
    expect(waiver).toMatchObject({
      docType: 'waiver',
      status: 'pending',
      uploadedAt: '2025-10-13T00:00:00.000Z',
      guardianEmail: 'jones@example.org',
      guardianPhone: '555-0100',
      reviewedAt: null,
      storageUrl: `local:seasons/2025/fixture/${P.cara}/${D.caraWaiver}.pdf`,
    });
    // Nothing stored (a refused file, a purged one): no location.
    expect(report.documents.find((d) => d.id === D.caraMedicalPurged)?.storageUrl).toBeNull();
    expect(report.documents.find((d) => d.id === D.caraResidency)).toMatchObject({ status: 'rejected', reviewNotes: 'Unreadable', storageUrl: null });

    // Ava in Spring Ball 2025: that season's division and documents only.
    const spring = await reports().getPlayerReport(P.ava, 'spring-2025', SHARED_PRINCIPAL);
    expect(spring.status).toMatchObject({ division: 'A', completionPercentage: 25, documentsStatus: { birth_certificate: 'complete', medical: 'missing' } });
    expect(spring.documents.map((d) => d.uploadedAt)).toEqual(['2025-03-05T00:00:00.000Z']);

    expect(await notFound(reports().getPlayerReport(P.dan, 'spring-2025', SHARED_PRINCIPAL))).toBe(`Player ${P.dan} is not registered for Spring Ball 2025.`);
    expect(await notFound(reports().getPlayerReport('CB-2025-ffffffff', undefined, SHARED_PRINCIPAL))).toBe('Player CB-2025-ffffffff is not registered for Fall Ball 2025.');
    expect(await notFound(reports().getPlayerReport(P.ava, '1999', SHARED_PRINCIPAL))).toBe('Season "1999" does not exist.');
  });

  it('breaks the season down by division, type and status, with the week-ago rate and review time', async () => {
    const breakdown = await reports().getBreakdown(undefined, SHARED_PRINCIPAL);
    expect(breakdown.season).toEqual({ id: 'fall-2025', name: 'Fall Ball 2025', year: 2025 });
    expect(breakdown.players).toEqual({ total: 6, complete: 2, incomplete: 4, withPending: 2 });
    expect(breakdown.byDivision).toEqual([
      { division: 'AAA', players: 1, complete: 0 },
      { division: 'AA', players: 2, complete: 1 },
      { division: 'A', players: 1, complete: 0 },
      { division: 'TEST', players: 1, complete: 0 },
      { division: 'Peewee', players: 1, complete: 1 },
    ]);
    expect(breakdown.byDocType).toEqual([
      // Ava, Ben, Cara (resubmitted), Kai complete; Dan, Eve missing.
      { docType: 'birth_certificate', complete: 4, pending: 0, processing: 0, missing: 2 },
      // Ava, Kai complete; Ben pending; Cara (refused), Dan, Eve missing.
      { docType: 'residency', complete: 2, pending: 1, processing: 0, missing: 3 },
      // Ava, Kai complete; Ben processing; Cara (purged), Dan, Eve missing.
      { docType: 'medical', complete: 2, pending: 0, processing: 1, missing: 3 },
      // Ava, Eve, Kai complete; Cara pending; Ben (rejected), Dan missing.
      { docType: 'waiver', complete: 3, pending: 1, processing: 0, missing: 2 },
    ]);
    // Purged documents are left out; rejected ones counted.
    expect(breakdown.documentsByStatus).toEqual({ verified: 11, pending: 4, processing: 1, rejected: 3 });
    expect(breakdown.undetectedType).toBe(1);
    expect(breakdown.completionRate).toBe(33.3);
    // A week ago (2025-10-08): five registrations (Eve came later); Ava complete, Kai's waiver verified since.
    expect(breakdown.completionRateWeekAgo).toBe(20);
    // Decided in the last 30 days: Ben's waiver 12 h, Eve's waiver 6 h, Kai's waiver 24 h (Cara's refusal at intake is no review).
    expect(breakdown.averageReviewHours).toBe(14);
    expect(breakdown.recent.map((u) => [u.playerName, u.docType, u.status])).toEqual([
      ['Ben Adams', 'medical', 'processing'],
      ['Eve Fifty%', 'waiver', 'verified'],
      ['Cara Jones', null, 'pending'],
      ['Cara Jones', 'waiver', 'pending'],
      ['Kai Young', 'waiver', 'verified'],
    ]);

    const spring = await reports().getBreakdown('spring-2025', SHARED_PRINCIPAL);
    expect(spring.players).toEqual({ total: 1, complete: 0, incomplete: 1, withPending: 0 });
    expect(spring.averageReviewHours).toBeNull();
    expect(spring.byDivision.find((d) => d.division === 'A')).toEqual({ division: 'A', players: 1, complete: 0 });
    expect(await notFound(reports().getBreakdown('2031', SHARED_PRINCIPAL))).toBe('Season "2031" does not exist.');
  });

  it('exposes the statements of stats and the report page: a name per SQL text, and the values a request sends', () => {
    const filters = { division: 'AA', status: 'incomplete', search: 'smith' } as const;
    const statements = [
      statsRead.statement(getDb(), undefined),
      statsRead.statement(getDb(), '2025'),
      missingReportCountsRead.statement(getDb(), '2025', filters),
      missingReportPageRead.statement(getDb(), '2025', filters, { limit: 10, offset: 20 }),
      everyReportRowRead.statement(getDb(), 'fall-2025', { division: 'all', status: 'all' }),
      missingReportPageRead.statement(getDb(), '2025', { ...filters, missing: 'birth_certificate', sort: '-completion' }, { limit: 10, offset: 0 }),
    ];
    expect(statements.map((s) => [s.name, s.values])).toEqual([
      // Constants of the SQL (the subquery's limit 1, 'complete' = 4 types) are parameters too, the same every time.
      ['stats:current', [1]],
      ['stats:year', [2025, 1]],
      ['report_counts:year:div:incomplete:search', ['AA', 4, '%smith%', 2025, 1, 'AA']],
      ['report_page:year:div:incomplete:search:page', [2025, 1, 'AA', 4, '%smith%', 10, 20]],
      ['report_every:id:all:all:-', ['fall-2025', 1]],
      ['report_page:year:div:incomplete:search:bc:-c:page', [2025, 1, 'AA', 4, '%smith%', 'missing', 'expired', 10, 0]],
    ]);
    for (const s of statements) expect(s.text).toMatch(/^select /);
    // The same name always carries the same text, whatever the values (PostgreSQL refuses a name reused for other SQL).
    expect(missingReportPageRead.statement(getDb(), '2024', { ...filters, search: 'x' }, { limit: 50, offset: 0 }).text).toBe(statements[3]?.text);
  });

  it('runs a prepared page with its values: the same rows as every row, sliced', async () => {
    const everyone = { division: 'all', status: 'all' } as const;
    const every = (await everyReportRowRead.run(getDb(), '2025', everyone)).map(
      ({ guardianName: _name, guardianEmail: _email, guardianPhone: _phone, ...row }) => row,
    );
    expect(every.length).toBeGreaterThan(3);
    expect(await missingReportPageRead.run(getDb(), '2025', everyone, { limit: 2, offset: 1 })).toEqual(every.slice(1, 3));
    // The same statement again with other values: other rows, not the first call's.
    expect(await missingReportPageRead.run(getDb(), '2025', everyone, { limit: 1, offset: 3 })).toEqual(every.slice(3, 4));
    expect(await missingReportPageRead.run(getDb(), '1999', everyone, { limit: 10, offset: 0 })).toEqual([]);
  });
});

describe('search text', () => {
  it('folds spacing and commas the way the report joins names', () => {
    expect(normaliseSearch('  Smith ,  Ava  ')).toBe('Smith, Ava');
    expect(normaliseSearch('ava\tsmith')).toBe('ava smith');
    expect(normaliseSearch('   ')).toBeUndefined();
    expect(normaliseSearch(undefined)).toBeUndefined();
  });
});

describeEachDatabase('report summaries kept by the database', ({ getDb, kind }) => {
  const reports = () => createReportsService({ db: getDb(), storageFor: () => storage, now: () => REPORT_NOW });
  const fallRow = async (playerId: string) => (await reports().getMissingReport({ ...ALL, search: playerId }, SHARED_PRINCIPAL)).players[0];

  beforeAll(async () => {
    await seedReportFixture(getDb());
  });

  it('follows approval, rejection, a type found later, deletion and purge', async () => {
    const db = getDb();
    // Approve Ben's pending residency proof.
    await updateDocument(db, D.benResidency, { status: 'verified', reviewedAt: REPORT_NOW });
    expect(await fallRow(P.ben)).toMatchObject({ documentsStatus: { residency: 'complete' }, completionPercentage: 50 });
    expect(await reports().getStats(undefined, SHARED_PRINCIPAL)).toMatchObject({ pendingReview: 3, documentsUploaded: 16, completeProfiles: 2 });
    await expectSummariesMatchDocuments(db);

    // Reject Ava's verified medical form: her pending second one decides now.
    await updateDocument(db, D.avaMedical, { status: 'rejected', reviewedAt: REPORT_NOW, reviewNotes: 'Wrong child' });
    expect(await fallRow(P.ava)).toMatchObject({ documentsStatus: { medical: 'pending' }, completionPercentage: 75 });
    expect(await reports().getStats(undefined, SHARED_PRINCIPAL)).toMatchObject({ pendingReview: 3, documentsUploaded: 15, completeProfiles: 1 });
    expect((await reports().getMissingReport({ ...ALL, status: 'pending' }, SHARED_PRINCIPAL)).players.map((r) => r.playerId)).toEqual([P.cara, P.ava]);
    await expectSummariesMatchDocuments(db);

    // Cara's undetected file turns out to be her residency proof.
    await updateDocument(db, D.caraUndetected, { docType: 'residency' });
    expect(await fallRow(P.cara)).toMatchObject({ documentsStatus: { residency: 'pending', waiver: 'pending' } });
    expect((await reports().getBreakdown(undefined, SHARED_PRINCIPAL)).undetectedType).toBe(0);
    await expectSummariesMatchDocuments(db);

    // Kai's waiver is deleted: Kai is no longer complete.
    await db.delete(documents).where(eq(documents.id, D.kaiWaiver));
    expect(await fallRow(P.kai)).toMatchObject({ documentsStatus: { waiver: 'missing' }, completionPercentage: 75 });
    expect(await reports().getStats(undefined, SHARED_PRINCIPAL)).toMatchObject({ documentsUploaded: 14, completeProfiles: 0 });
    await expectSummariesMatchDocuments(db);

    // Retention purges Ava's birth certificate: a tombstone counts for nothing, but the one verified for her
    // Spring Ball 2025 carries over (a birth certificate counts for good), so her birth certificate stays met.
    await updateDocument(db, D.avaBirth, { purgedAt: REPORT_NOW, storageKey: null });
    expect(await fallRow(P.ava)).toMatchObject({ documentsStatus: { birth_certificate: 'complete' }, completionPercentage: 75 });
    expect(await reports().getStats(undefined, SHARED_PRINCIPAL)).toMatchObject({ documentsUploaded: 13 });
    await expectSummariesMatchDocuments(db);

    // An update that changes nothing the summary reads leaves it alone; a move to another season moves the counts.
    await updateDocument(db, D.benMedical, { storedPath: 'elsewhere' });
    await updateDocument(db, D.eveWaiver, { seasonId: REPORT_SEASONS.spring2025.id });
    expect(await fallRow(P.eve)).toMatchObject({ completionPercentage: 0 });
    await expectSummariesMatchDocuments(db);
    await updateDocument(db, D.eveWaiver, { seasonId: FALL.id });
    expect(await fallRow(P.eve)).toMatchObject({ completionPercentage: 25 });

    // Many documents in one statement (a bulk approval).
    await db.update(documents).set({ status: 'verified' }).where(eq(documents.status, 'pending'));
    expect(await reports().getStats(undefined, SHARED_PRINCIPAL)).toMatchObject({ pendingReview: 0 });
    expect(await fallRow(P.cara)).toMatchObject({ documentsStatus: { residency: 'complete', waiver: 'complete' } });
    await expectSummariesMatchDocuments(db);
  });

  it('counts documents written before their registration, and follows registrations moved, renamed and removed', async () => {
    const db = getDb();
    const late = 'CB-2025-000000aa';
    await insertPlayers(db, [{ id: late, firstName: 'Liam', lastName: 'Late', birthDate: '2014-01-01' }]);
    await insertDocument(db, { playerId: late, seasonId: FALL.id, docType: 'waiver', status: 'verified', originalFilename: 'w.pdf', bytes: 1 });
    await insertDocument(db, { playerId: late, seasonId: FALL.id, docType: 'medical', status: 'pending', originalFilename: 'm.pdf', bytes: 1 });
    await insertRegistrations(db, [{ playerId: late, seasonId: FALL.id, division: 'A' }]);
    expect(await fallRow(late)).toMatchObject({
      playerName: 'Liam Late',
      division: 'A',
      documentsStatus: { waiver: 'complete', medical: 'pending', residency: 'missing' },
      completionPercentage: 25,
    });
    await expectSummariesMatchDocuments(db);

    // A change of division moves the player's counts between divisions.
    await db.update(registrations).set({ division: 'AAA' }).where(eq(registrations.playerId, late));
    expect((await reports().getMissingReport({ ...ALL, division: 'AAA', search: 'late' }, SHARED_PRINCIPAL)).summary.total).toBe(2);
    await expectSummariesMatchDocuments(db);

    // A corrected name reaches the report and its search.
    await db.update(players).set({ lastName: 'Later' }).where(eq(players.id, late));
    expect(await fallRow(late)).toMatchObject({ playerName: 'Liam Later', lastName: 'Later' });
    expect((await reports().getMissingReport({ ...ALL, search: 'later, liam' }, SHARED_PRINCIPAL)).players.map((r) => r.playerId)).toEqual([late]);

    // Removing the player removes the registration and its counts.
    const before = await reports().getStats(undefined, SHARED_PRINCIPAL);
    await db.delete(players).where(eq(players.id, late));
    expect(await reports().getStats(undefined, SHARED_PRINCIPAL)).toEqual({ ...before, totalPlayers: before.totalPlayers - 1, documentsUploaded: before.documentsUploaded - 2, pendingReview: before.pendingReview - 1 });
    await expectSummariesMatchDocuments(db);
  });

  it.runIf(kind === 'postgres')('counts both of two documents written at once by two transactions', async () => {
    const db = getDb();
    const twin = 'CB-2025-000000bb';
    await upsertPlayer(db, { id: twin, firstName: 'Tia', lastName: 'Twin', birthDate: '2014-02-02' });
    await insertRegistrations(db, [{ playerId: twin, seasonId: FALL.id, division: 'AA' }]);
    let releaseFirst: () => void = () => undefined;
    let firstInserted: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (releaseFirst = resolve));
    const inserted = new Promise<void>((resolve) => (firstInserted = resolve));
    const first = db.transaction(async (tx) => {
      await insertDocument(tx, { playerId: twin, seasonId: FALL.id, docType: 'waiver', status: 'verified', originalFilename: 'a.pdf', bytes: 1 });
      firstInserted();
      await held;
    });
    await inserted;
    // The second waits for the first's lock on the registration, then reads both documents.
    const second = db.transaction((tx) =>
      insertDocument(tx, { playerId: twin, seasonId: FALL.id, docType: 'medical', status: 'verified', originalFilename: 'b.pdf', bytes: 1 }),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    releaseFirst();
    await Promise.all([first, second]);
    expect(await fallRow(twin)).toMatchObject({ documentsStatus: { waiver: 'complete', medical: 'complete' }, completionPercentage: 50 });
    await expectSummariesMatchDocuments(db);
  });
});

describeEachDatabase('adding a player', ({ getDb }) => {
  const service = () => createPlayersService({ db: getDb(), idPrefix: 'CB' });
  const actor = { requestId: 'req-add-1', principal: SHARED_PRINCIPAL };
  const input = { firstName: 'Ava', lastName: 'Smith', birthDate: '2014-05-03', season: '2025', division: 'AA' as const };

  beforeAll(async () => {
    await seedReportFixture(getDb());
  });

  it('registers a new player for the season with every type missing, and audits it', async () => {
    const created = await service().createPlayer(
      { firstName: 'Noa', lastName: 'New', birthDate: '2015-04-04', season: 'fall-2025', division: 'A', guardianEmail: '', guardianName: ' Pat New ' },
      actor,
    );
    const id = derivePlayerId({ prefix: 'CB', year: 2025, firstName: 'Noa', lastName: 'New', birthDate: '2015-04-04' });
    const { guardian: _guardian, ...summary } = row(id, 'Noa', 'New', 'A', ['missing', 'missing', 'missing', 'missing'], 0, [10, false]);
    expect(created).toEqual({ player: summary });
    const [player] = await getDb().select().from(players).where(eq(players.id, id));
    expect(player).toMatchObject({ guardianName: 'Pat New', guardianEmail: null, guardianPhone: null });
    const audits = await listAuditEventsByAction(getDb(), 'player.created');
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ actor: 'shared-password', subjectType: 'player', subjectId: id, requestId: 'req-add-1', detail: { seasonId: 'fall-2025', division: 'A', newPlayer: true } });
    await expectSummariesMatchDocuments(getDb());
  });

  it('refuses a player already registered for the season, naming them', async () => {
    const existing = derivePlayerId({ prefix: 'CB', year: 2025, ...input });
    // The fixture's Ava has a made-up id; register the real derivation once, then again.
    await service().createPlayer(input, actor);
    const error: unknown = await service().createPlayer({ ...input, firstName: ' ava ', division: 'A' }, actor).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      code: 'CONFLICT',
      message: `Ava Smith (born 2014-05-03) is already registered for Fall Ball 2025 as ${existing}.`,
    });
    // Nothing of the refused attempt stays: the division is the first one's, one audit.
    expect(await getDb().select({ division: registrations.division }).from(registrations).where(eq(registrations.playerId, existing))).toEqual([{ division: 'AA' }]);
    expect((await listAuditEventsByAction(getDb(), 'player.created')).filter((a) => a.subjectId === existing)).toHaveLength(1);
  });

  it('registers a known player for another season of the same year under the same id', async () => {
    const id = derivePlayerId({ prefix: 'CB', year: 2025, ...input });
    const created = await service().createPlayer({ ...input, season: 'spring-2025', division: 'A' }, actor);
    expect(created.player).toMatchObject({ playerId: id, division: 'A', completionPercentage: 0 });
    const audit = (await listAuditEventsByAction(getDb(), 'player.created')).filter((a) => a.subjectId === id);
    expect(audit.map((a) => a.detail)).toEqual([
      { seasonId: 'fall-2025', division: 'AA', newPlayer: true },
      { seasonId: 'spring-2025', division: 'A', newPlayer: false },
    ]);
  });

  it('refuses an unknown season as a bad field', async () => {
    const error: unknown = await service().createPlayer({ ...input, season: '1999' }, actor).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: 'body.season', message: 'is not a season year or id known to Clearbase' }] });
  });
});

describeEachDatabase('summaries of the demo data', ({ getDb }) => {
  it('are right after the demo seeder bulk-writes a league, and after a reset empties and refills it', async () => {
    await seedDemoDataIfEmpty(getDb(), { seed: 42, players: 300, idPrefix: 'CB', now: REPORT_NOW });
    await expectSummariesMatchDocuments(getDb());
    const seeded = await createReportsService({ db: getDb(), storageFor: () => storage }).getStats(undefined, SHARED_PRINCIPAL);
    expect(seeded.totalPlayers).toBeGreaterThan(50);
    expect(seeded.documentsUploaded).toBeGreaterThan(seeded.totalPlayers);

    // The reset truncates registrations with the rest: the totals are emptied with them, then refilled.
    await replaceWithDemoData(getDb(), { seed: 7, players: 120, idPrefix: 'CB', now: REPORT_NOW });
    await expectSummariesMatchDocuments(getDb());
    expect((await createReportsService({ db: getDb(), storageFor: () => storage }).getStats(undefined, SHARED_PRINCIPAL)).totalPlayers).toBeLessThan(seeded.totalPlayers);
  });
});

const setKaiMedicalDate = (db: Db, documentDate: string) =>
  db.update(documents).set({ documentDate }).where(and(eq(documents.playerId, P.kai), eq(documents.docType, 'medical')));

describeEachDatabase('players whose approval runs out soon', ({ getDb }) => {
  const reports = () => createReportsService({ db: getDb(), storageFor: () => storage, now: () => REPORT_NOW });

  beforeAll(async () => {
    const db = getDb();
    await seedReportFixture(db);
    // Judged on 15 October 2025: Ava's medical exam of 1 November 2024 counts until 1 November 2025 (in 17 days),
    // Kai's of 20 October 2024 until 20 October 2025 (in 5 days); a document's change recomputes its child's season.
    await db.update(requirementDay).set({ day: '2025-10-15' });
    await updateDocument(db, D.avaMedical, { documentDate: '2024-11-01' });
    await setKaiMedicalDate(db, '2024-10-20');
  });

  it('counts them on the dashboard and lists them with the expiring filter, within the divisions asked', async () => {
    expect(await reports().getStats(undefined, SHARED_PRINCIPAL)).toMatchObject({ expiringSoon: 2, completeProfiles: 2 });
    const aa = { ...SHARED_PRINCIPAL, divisions: ['AA' as const] };
    expect(await reports().getStats(undefined, aa)).toMatchObject({ expiringSoon: 1 });

    const expiring = await reports().getMissingReport({ ...ALL, status: 'expiring', pageSize: 10 }, SHARED_PRINCIPAL);
    expect(expiring.players.map((r) => [r.playerId, r.expiresOn, r.completionPercentage])).toEqual([
      [P.ava, '2025-11-01', 100],
      [P.kai, '2025-10-20', 100],
    ]);
    expect(expiring.total).toBe(2);
    expect(expiring.summary).toEqual({ total: 6, complete: 2, incomplete: 4 });
    const peewee = await reports().getMissingReport({ ...ALL, division: 'Peewee', status: 'expiring', pageSize: 10 }, SHARED_PRINCIPAL);
    expect([peewee.total, peewee.players.map((r) => r.playerId)]).toEqual([1, [P.kai]]);
    expect((await reports().getMissingReport({ ...ALL, status: 'expiring', search: 'smith', pageSize: 10 }, SHARED_PRINCIPAL)).total).toBe(1);
  });

  it('lists an approval that ran out as missing: the family has to send a new one', async () => {
    const db = getDb();
    await setKaiMedicalDate(db, '2024-10-01');
    const row = (await reports().getMissingReport({ ...ALL, search: P.kai }, SHARED_PRINCIPAL)).players[0];
    expect(row).toMatchObject({ documentsStatus: { medical: 'expired' }, completionPercentage: 75, expiresOn: null });
    const missingMedical = await reports().getMissingReport({ ...ALL, missing: 'medical', pageSize: 10 }, SHARED_PRINCIPAL);
    expect(missingMedical.players.map((r) => r.playerId)).toContain(P.kai);
    expect((await reports().getStats(undefined, SHARED_PRINCIPAL)).expiringSoon).toBe(1);
  });
});
