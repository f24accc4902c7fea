import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { LightMyRequestResponse } from 'fastify';
import {
  ZBulkStatusResult,
  ZDocument,
  ZDocumentHistory,
  ZDocumentList,
  ZMissingReport,
  ZPlayerReport,
  ZRecentUploads,
  ZSeasonReport,
  ZServerMessage,
  ZStats,
  ZStatsBreakdown,
  type TServerMessage,
} from '../../src/contract';
import { listAuditEvents, listAuditEventsByAction } from '../../src/server/audit/audit-events.repository';
import { findDocument } from '../../src/server/documents/documents.repository';
import { describeEachDatabase } from '../support/databases';
import { injectSignedForm, makePdf } from '../support/multipart';
import { waitForSettledDocument } from '../support/pipeline';
import { D, P, REPORT_SEASONS, seedReportFixture } from '../support/report-fixture';
import { byStatus, liveInSeason, newestFirst, scopedRows } from '../support/scope-rows';
import { signInAsUser } from '../support/sessions';
import { startSignedInClearbase, type SignedInClearbase } from '../support/signed-in-clearbase';

const SECRET = 'division-scope-webhook-secret';
const FALL = REPORT_SEASONS.fall2025.id;
const UNKNOWN_ID = '3f8b7c1e-0000-4000-8000-000000000000';

/**
 * The report fixture's league (AA: Ava and Ben; AAA: Cara; A: Dan; TEST: Eve; Peewee: Kai; Ava is in A in
 * Spring 2025) seen by a moderator limited to AA and by the shared password (every division). Every answer of
 * the AA moderator must hold AA's records only, with counts equal to those worked out from the raw rows; a
 * record of another division must answer exactly as an unknown one does.
 */
describeEachDatabase('division scope: documents, live events, reports and players', ({ getDatabase }) => {
  let server: SignedInClearbase | undefined;
  let everyone = '';
  let aa = '';
  let aaUserId = '';
  const app = () => {
    if (!server) throw new Error('not started');
    return server.app;
  };
  const call = (cookie: string, method: 'GET' | 'PATCH' | 'POST', url: string, payload?: object) =>
    app().inject({ method, url, headers: { cookie }, ...(payload === undefined ? {} : { payload }) });
  const ok = async <T>(cookie: string, url: string, schema: { parse(value: unknown): T }): Promise<T> => {
    const response = await call(cookie, 'GET', url);
    expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    return schema.parse(response.json());
  };
  const aaRows = () => scopedRows(getDatabase().db, ['AA'], FALL);

  /** A 404 with the id it names taken out: an out-of-scope record must give the very same as an unknown one. */
  const notFoundShape = (response: LightMyRequestResponse, id: string) => {
    const body = response.json<Record<string, unknown>>();
    return {
      status: response.statusCode,
      keys: Object.keys(body).sort(),
      code: body.code,
      message: String(body.message).replaceAll(id, '<id>'),
      details: body.details,
    };
  };

  beforeAll(async () => {
    await seedReportFixture(getDatabase().db);
    server = await startSignedInClearbase({ database: getDatabase(), prefix: 'cb-scope', settings: { FORM_WEBHOOK_SECRET: SECRET } });
    everyone = server.cookie;
    ({ cookie: aa, userId: aaUserId } = await signInAsUser(getDatabase().db, { role: 'moderator', divisions: ['AA'] }));
  });
  afterAll(() => server?.close());

  it('GET /api/documents lists and counts only AA documents, with every filter; the shared password sees every division', async () => {
    const rows = await aaRows();
    const all = await ok(aa, '/api/documents?pageSize=100', ZDocumentList);
    expect(all.documents.map((d) => d.id)).toEqual(newestFirst(rows.documents).map((d) => d.id));
    expect(all.total).toBe(rows.documents.length);
    expect(new Set(all.documents.map((d) => d.division))).toEqual(new Set(['AA']));
    // Ava's Spring 2025 document: she played A then, so it is not AA's.
    expect(all.documents.map((d) => d.playerId)).not.toContain(P.cara);

    const pending = await ok(aa, '/api/documents?status=pending&pageSize=100', ZDocumentList);
    expect(pending.total).toBe(rows.documents.filter((d) => d.status === 'pending').length);
    const paged = await ok(aa, '/api/documents?pageSize=2&page=2', ZDocumentList);
    expect(paged.total).toBe(rows.documents.length);
    expect(paged.documents.map((d) => d.id)).toEqual(newestFirst(rows.documents).slice(2, 4).map((d) => d.id));
    const search = await ok(aa, '/api/documents?search=cara&pageSize=100', ZDocumentList);
    expect(search).toMatchObject({ total: 0, documents: [] });

    const unscoped = await ok(everyone, '/api/documents?pageSize=100', ZDocumentList);
    expect(unscoped.total).toBeGreaterThan(all.total);
    expect(unscoped.documents.map((d) => d.playerId)).toContain(P.cara);
  });

  it('GET /api/uploads/recent lists only AA uploads', async () => {
    const rows = await aaRows();
    const { uploads } = await ok(aa, '/api/uploads/recent?limit=100', ZRecentUploads);
    expect(uploads.map((u) => u.id)).toEqual(newestFirst(rows.documents.filter((d) => d.purgedAt === null)).map((d) => d.id));
    const unscoped = await ok(everyone, '/api/uploads/recent?limit=100', ZRecentUploads);
    expect(unscoped.uploads.map((u) => u.playerId)).toContain(P.cara);
  });

  it('a document of another division answers 404 exactly as an unknown id, on every document route; its own division is answered', async () => {
    const cara = D.caraWaiver;
    const pairs: Array<[string, 'GET' | 'PATCH' | 'POST', (id: string) => string, object | undefined]> = [
      ['get', 'GET', (id) => `/api/documents/${id}`, undefined],
      ['history', 'GET', (id) => `/api/documents/${id}/history`, undefined],
      ['file', 'GET', (id) => `/api/documents/${id}/file`, undefined],
      ['status', 'PATCH', (id) => `/api/documents/${id}/status`, { status: 'verified' }],
      ['retry-scan', 'POST', (id) => `/api/documents/${id}/retry-scan`, undefined],
    ];
    for (const [name, method, url, payload] of pairs) {
      const unknown = await call(aa, method, url(UNKNOWN_ID), payload);
      const other = await call(aa, method, url(cara), payload);
      expect(unknown.statusCode, name).toBe(404);
      expect(notFoundShape(other, cara), name).toEqual(notFoundShape(unknown, UNKNOWN_ID));
      expect(other.json(), name).toMatchObject({ code: 'NOT_FOUND', message: `Document ${cara} does not exist.` });
    }
    const moveUnknown = await call(aa, 'POST', '/api/documents/upload-to-storage', { documentIds: [UNKNOWN_ID] });
    const moveOther = await call(aa, 'POST', '/api/documents/upload-to-storage', { documentIds: [cara] });
    expect(moveUnknown.statusCode).toBe(404);
    expect(notFoundShape(moveOther, cara)).toEqual(notFoundShape(moveUnknown, UNKNOWN_ID));

    // Nothing happened to it: still pending, no audit of a download or a change by the AA moderator.
    expect((await findDocument(getDatabase().db, cara))?.status).toBe('pending');
    expect(await listAuditEvents(getDatabase().db, 'document', cara)).toEqual([]);
    expect((await listAuditEventsByAction(getDatabase().db, 'document.downloaded')).filter((e) => e.subjectId === cara)).toEqual([]);

    // The shared password sees it; the AA moderator sees AA's.
    expect((await call(everyone, 'GET', `/api/documents/${cara}`)).statusCode).toBe(200);
    expect(ZDocument.parse((await call(aa, 'GET', `/api/documents/${D.benResidency}`)).json()).id).toBe(D.benResidency);
    expect(ZDocumentHistory.parse((await call(aa, 'GET', `/api/documents/${D.benResidency}/history`)).json()).events).toEqual([]);
    // Its own division gets past the scope to the document's own answer: nothing to retry.
    expect((await call(aa, 'POST', `/api/documents/${D.benResidency}/retry-scan`)).statusCode).toBe(409);
  });

  it('a bulk approval skips a document of another division as it skips an unknown one, and approves AA\'s', async () => {
    const response = await call(aa, 'POST', '/api/documents/status', { documentIds: [D.avaMedicalPending, D.caraUndetected, UNKNOWN_ID], status: 'verified' });
    expect(response.statusCode, response.body).toBe(200);
    expect(ZBulkStatusResult.parse(response.json())).toEqual({
      updated: 1,
      skipped: [
        { id: D.caraUndetected, reason: 'Not changed: there is no such document.' },
        { id: UNKNOWN_ID, reason: 'Not changed: there is no such document.' },
      ],
    });
    expect((await findDocument(getDatabase().db, D.avaMedicalPending))?.status).toBe('verified');
    expect((await findDocument(getDatabase().db, D.caraUndetected))?.status).toBe('pending');
    const audits = await listAuditEvents(getDatabase().db, 'document', D.avaMedicalPending);
    expect(audits.map((a) => ({ actor: a.actor, actorUserId: a.actorUserId, action: a.action }))).toEqual([
      { actor: 'user', actorUserId: aaUserId, action: 'document.status_changed' },
    ]);
  });

  it('a file upload reaches live connections of its division only, and its file opens for them alone', async () => {
    const address = await app().listen({ host: '127.0.0.1', port: 0 });
    const open = async (cookie: string) => {
      const socket = new WebSocket(`${address.replace('http', 'ws')}/ws`, { headers: { cookie, origin: address } });
      const received: TServerMessage[] = [];
      await new Promise((resolve) => socket.once('message', resolve));
      socket.on('message', (data: Buffer) => received.push(ZServerMessage.parse(JSON.parse(data.toString('utf8')))));
      return { socket, received };
    };
    const aaSocket = await open(aa);
    const allSocket = await open(everyone);

    const upload = async (division: string, firstName: string) => {
      const response = await injectSignedForm(
        app(),
        [
          { name: 'submissionId', value: `scope-${division}` },
          { name: 'season', value: 'fall-2025' },
          { name: 'division', value: division },
          { name: 'playerFirstName', value: firstName },
          { name: 'playerLastName', value: 'Scope' },
          { name: 'playerBirthDate', value: '2014-08-26' },
          { name: 'document', filename: 'Birth Certificate.pdf', content: makePdf(`scope ${division}`) },
        ],
        SECRET,
      );
      expect(response.statusCode, response.body).toBe(202);
      const id = response.json<{ documents: Array<{ id: string }> }>().documents[0]?.id ?? '';
      await waitForSettledDocument(getDatabase().db, id);
      return id;
    };
    const aaDoc = await upload('AA', 'Abby');
    const aaaDoc = await upload('AAA', 'Zoe');
    // A status change by the shared password of each: the AA one reaches both, the AAA one the shared password's only.
    expect((await call(everyone, 'PATCH', `/api/documents/${aaaDoc}/status`, { status: 'verified' })).statusCode).toBe(200);
    expect((await call(everyone, 'PATCH', `/api/documents/${aaDoc}/status`, { status: 'verified' })).statusCode).toBe(200);

    const events = (inbox: TServerMessage[]) =>
      inbox.flatMap((m) =>
        m.type === 'document_uploaded' || m.type === 'document_status_updated' ? [`${m.type} ${m.data.documentId === aaDoc ? 'aa' : m.data.documentId === aaaDoc ? 'aaa' : m.data.documentId} ${m.data.division ?? '-'}`] : [],
      );
    // An event of an earlier test's change may still be on its way through NOTIFY: only this test's two documents
    // are counted, and every event the AA socket got, whichever document it names, must be AA's.
    const ours = (inbox: TServerMessage[]) => events(inbox).filter((e) => / (aa|aaa) /.test(e));
    const deadline = Date.now() + 10_000;
    while (ours(allSocket.received).length < 4 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    // The last event the AA socket is due has arrived once the shared password's socket has it too (same instance, same order).
    await new Promise((r) => setTimeout(r, 200));
    aaSocket.socket.close(1000);
    allSocket.socket.close(1000);
    expect(ours(allSocket.received).sort()).toEqual(
      ['document_uploaded aa AA', 'document_uploaded aaa AAA', 'document_status_updated aaa AAA', 'document_status_updated aa AA'].sort(),
    );
    expect(ours(aaSocket.received).sort()).toEqual(['document_uploaded aa AA', 'document_status_updated aa AA'].sort());
    expect(events(aaSocket.received).filter((e) => !e.endsWith(' AA'))).toEqual([]);

    const own = await call(aa, 'GET', `/api/documents/${aaDoc}/file`);
    expect(own.statusCode).toBe(200);
    expect(own.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const other = await call(aa, 'GET', `/api/documents/${aaaDoc}/file`);
    expect(notFoundShape(other, aaaDoc)).toEqual(notFoundShape(await call(aa, 'GET', `/api/documents/${UNKNOWN_ID}/file`), UNKNOWN_ID));
    const downloads = (await listAuditEventsByAction(getDatabase().db, 'document.downloaded')).map((e) => `${e.subjectId === aaDoc ? 'aa' : e.subjectId} ${e.actorUserId ?? '-'}`);
    expect(downloads).toEqual([`aa ${aaUserId}`]);
  });

  it('GET /api/stats counts AA only, as worked out from the rows', async () => {
    const rows = await aaRows();
    const live = liveInSeason(rows, FALL).filter((d) => d.status !== 'rejected');
    const stats = await ok(aa, '/api/stats', ZStats);
    expect(stats).toEqual({
      season: { id: FALL, name: 'Fall Ball 2025', year: 2025 },
      totalPlayers: rows.registrations.length,
      documentsUploaded: live.length,
      pendingReview: live.filter((d) => d.status === 'pending').length,
      completeProfiles: rows.complete.length,
      // Fall 2025 has ended: it is judged as it ended, so nothing in it runs out any more.
      expiringSoon: 0,
    });
    expect(stats.totalPlayers).toBeGreaterThanOrEqual(2);
    const unscoped = await ok(everyone, '/api/stats', ZStats);
    expect(unscoped.totalPlayers).toBeGreaterThan(stats.totalPlayers);
    // Spring 2025: Ava played A, so AA had nobody.
    expect(await ok(aa, '/api/stats?season=spring-2025', ZStats)).toMatchObject({ totalPlayers: 0, documentsUploaded: 0, pendingReview: 0, completeProfiles: 0 });
  });

  it('GET /api/stats/breakdown has AA\'s division row only and AA\'s figures', async () => {
    const rows = await aaRows();
    const live = liveInSeason(rows, FALL);
    const breakdown = await ok(aa, '/api/stats/breakdown', ZStatsBreakdown);
    expect(breakdown.byDivision).toEqual([{ division: 'AA', players: rows.registrations.length, complete: rows.complete.length }]);
    expect(breakdown.players).toMatchObject({ total: rows.registrations.length, complete: rows.complete.length });
    expect(breakdown.documentsByStatus).toEqual(byStatus(live));
    expect(breakdown.undetectedType).toBe(live.filter((d) => d.docType === null && d.status !== 'rejected').length);
    expect(breakdown.recent.map((u) => u.id)).toEqual(newestFirst(live).slice(0, 5).map((d) => d.id));
    const unscoped = await ok(everyone, '/api/stats/breakdown', ZStatsBreakdown);
    expect(unscoped.byDivision.map((row) => row.division)).toEqual(['AAA', 'AA', 'A', 'TEST', 'Peewee']);
  });

  it('GET /api/report/missing lists AA\'s players only; another division answers 404 No such division; all is all of AA\'s', async () => {
    const rows = await aaRows();
    const byName = [...rows.registrations].sort((a, b) => a.lastName.localeCompare(b.lastName) || a.firstName.localeCompare(b.firstName) || a.playerId.localeCompare(b.playerId));
    for (const query of ['', '?division=all', '?division=AA']) {
      const report = await ok(aa, `/api/report/missing${query}`, ZMissingReport);
      expect(report.players.map((p) => p.playerId), query).toEqual(byName.map((r) => r.playerId));
      expect(report.summary, query).toEqual({ total: rows.registrations.length, complete: rows.complete.length, incomplete: rows.registrations.length - rows.complete.length });
      expect(report.total, query).toBe(rows.registrations.length);
    }
    const incomplete = await ok(aa, '/api/report/missing?status=incomplete&pageSize=1', ZMissingReport);
    expect(incomplete.total).toBe(rows.registrations.length - rows.complete.length);
    expect((await ok(aa, '/api/report/missing?search=jones', ZMissingReport)).players).toEqual([]);

    for (const division of ['AAA', 'A', 'Peewee']) {
      const refused = await call(aa, 'GET', `/api/report/missing?division=${division}`);
      expect(refused.statusCode, division).toBe(404);
      expect(refused.json(), division).toMatchObject({ code: 'NOT_FOUND', message: 'No such division' });
    }
    expect((await ok(everyone, '/api/report/missing?division=AAA', ZMissingReport)).players.map((p) => p.playerId)).toContain(P.cara);
  });

  it('GET /api/report/player answers a player of another division, or of AA in a season they played elsewhere, as one not registered', async () => {
    expect(ZPlayerReport.parse((await call(aa, 'GET', `/api/report/player?player_id=${P.ben}`)).json()).status.playerId).toBe(P.ben);
    const unknownPlayer = 'CB-2025-ffffffff';
    const unknown = await call(aa, 'GET', `/api/report/player?player_id=${unknownPlayer}`);
    expect(unknown.statusCode).toBe(404);
    for (const [player, season] of [[P.cara, ''], [P.kai, ''], [P.ava, '&season=spring-2025']] as const) {
      const other = await call(aa, 'GET', `/api/report/player?player_id=${player}${season}`);
      expect(other.statusCode, player).toBe(404);
      const seasonName = season ? 'Spring Ball 2025' : 'Fall Ball 2025';
      expect(other.json(), player).toMatchObject({ code: 'NOT_FOUND', message: `Player ${player} is not registered for ${seasonName}.` });
      if (!season) expect(notFoundShape(other, player)).toEqual(notFoundShape(unknown, unknownPlayer));
    }
    expect((await call(everyone, 'GET', `/api/report/player?player_id=${P.cara}`)).statusCode).toBe(200);
  });

  it('GET /api/reports/season covers AA only: counts, division rows, history and incomplete players', async () => {
    const rows = await aaRows();
    const report = await ok(aa, '/api/reports/season', ZSeasonReport);
    expect(report.summary).toMatchObject({
      totalPlayers: rows.registrations.length,
      completeProfiles: rows.complete.length,
      incompleteProfiles: rows.registrations.length - rows.complete.length,
      totalDocuments: liveInSeason(rows, FALL).filter((d) => d.status !== 'rejected').length,
    });
    expect(report.divisionStats.map((row) => [row.division, row.players, row.complete])).toEqual([['AA', rows.registrations.length, rows.complete.length]]);
    // Fall 2024 (Old Timer, AAA) and Spring 2025 (Ava, A) had nobody in AA.
    expect(report.history.map((row) => [row.season.id, row.totalPlayers])).toEqual([
      ['fall-2024', 0],
      ['spring-2025', 0],
      ['fall-2025', rows.registrations.length],
    ]);
    expect(report.players.map((p) => p.division)).toEqual(report.players.map(() => 'AA'));
    expect(report.playersTotal).toBe(rows.registrations.length - rows.complete.length);
    const refused = await call(aa, 'GET', '/api/reports/season?division=AAA');
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toMatchObject({ code: 'NOT_FOUND', message: 'No such division' });
    expect((await ok(aa, '/api/reports/season?division=AA', ZSeasonReport)).summary.totalPlayers).toBe(rows.registrations.length);
    const unscoped = await ok(everyone, '/api/reports/season', ZSeasonReport);
    expect(unscoped.divisionStats).toHaveLength(5);
    expect(unscoped.summary.totalPlayers).toBeGreaterThan(report.summary.totalPlayers);
  });

  it('POST /api/players refuses another division (403, naming the person\'s divisions) and adds to AA', async () => {
    const player = { firstName: 'Nora', lastName: 'Newcomer', birthDate: '2015-04-04', season: 'fall-2025' };
    const refused = await call(aa, 'POST', '/api/players', { ...player, division: 'AAA' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'FORBIDDEN', message: 'You can add players only to your divisions: AA.' });
    expect((await listAuditEventsByAction(getDatabase().db, 'player.created'))).toEqual([]);
    const added = await call(aa, 'POST', '/api/players', { ...player, division: 'AA' });
    expect(added.statusCode, added.body).toBe(201);
    expect((await ok(aa, '/api/report/missing?search=newcomer', ZMissingReport)).players.map((p) => p.division)).toEqual(['AA']);
  });
});
