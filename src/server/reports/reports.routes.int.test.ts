import { afterAll, beforeAll, expect, it } from 'vitest';
import { ZCreatedPlayer, ZMissingReport, ZPlayerReport, ZSeasons, ZStats, ZStatsBreakdown, type TApiError } from '../../contract';
import { describeEachDatabase } from '../../../tests/support/databases';
import { P, seedReportFixture } from '../../../tests/support/report-fixture';
import { listAuditEventsByAction } from '../audit/audit-events.repository';
import { startSignedInClearbase, type SignedInClearbase } from '../../../tests/support/signed-in-clearbase';
import { derivePlayerId } from '../players/player-id';

describeEachDatabase('report and player calls', ({ getDatabase }) => {
  let server: SignedInClearbase | undefined;
  let cookie = '';
  const app = () => {
    if (!server) throw new Error('not started');
    return server.app;
  };
  const get = (url: string, headers: Record<string, string> = { cookie }) => app().inject({ method: 'GET', url, headers });
  const post = (payload: object, headers: Record<string, string> = { cookie }) => app().inject({ method: 'POST', url: '/api/players', headers, payload });
  const detailPaths = (body: unknown) => ((body as TApiError).details ?? []).map((d) => d.path).sort();

  beforeAll(async () => {
    await seedReportFixture(getDatabase().db);
    server = await startSignedInClearbase({ database: getDatabase(), prefix: 'cb-reports-api', startWorkers: false });
    cookie = server.cookie;
  });
  afterAll(() => server?.close());

  it('needs a session for every call, and refuses a cross-site POST', async () => {
    for (const url of ['/api/seasons', '/api/stats', '/api/stats/breakdown', '/api/report/missing', `/api/report/player?player_id=${P.ava}`]) {
      const response = await get(url, {});
      expect(response.statusCode, url).toBe(401);
      expect(response.json(), url).toMatchObject({ code: 'UNAUTHENTICATED' });
    }
    expect((await post({}, {})).statusCode).toBe(401);
    const crossSite = await post({ firstName: 'X' }, { cookie, 'sec-fetch-site': 'cross-site' });
    expect(crossSite.statusCode).toBe(403);
    expect(crossSite.json()).toMatchObject({ code: 'FORBIDDEN' });
  });

  it('GET /api/seasons lists the seasons newest first', async () => {
    const response = await get('/api/seasons');
    expect(response.statusCode).toBe(200);
    expect(ZSeasons.parse(response.json()).seasons.map((s) => [s.id, s.isCurrent])).toEqual([
      ['fall-2025', true],
      ['spring-2025', false],
      ['fall-2024', false],
    ]);
  });

  it('GET /api/stats answers the current season, a year or an id; 404 for an unknown one; 400 for a malformed one', async () => {
    const current = await get('/api/stats');
    expect(current.statusCode).toBe(200);
    expect(ZStats.parse(current.json())).toEqual({
      season: { id: 'fall-2025', name: 'Fall Ball 2025', year: 2025 },
      totalPlayers: 6,
      documentsUploaded: 16,
      pendingReview: 4,
      completeProfiles: 2,
      expiringSoon: 0,
    });
    expect(ZStats.parse((await get('/api/stats?season=2024')).json())).toMatchObject({ season: { id: 'fall-2024' }, totalPlayers: 1 });
    expect(ZStats.parse((await get('/api/stats?season=spring-2025')).json())).toMatchObject({ totalPlayers: 1, documentsUploaded: 1 });

    const unknown = await get('/api/stats?season=1999');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'NOT_FOUND', message: 'Season "1999" does not exist.' });

    const malformed = await get('/api/stats?season=../x');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(detailPaths(malformed.json())).toEqual(['querystring.season']);
  });

  it('GET /api/report/missing pages, filters and searches', async () => {
    const all = ZMissingReport.parse((await get('/api/report/missing')).json());
    expect(all.players.map((p) => p.playerId)).toEqual([P.ben, P.dan, P.eve, P.cara, P.ava, P.kai]);
    expect(all).toMatchObject({ total: 6, page: 1, pageSize: null, summary: { total: 6, complete: 2, incomplete: 4 } });

    const second = ZMissingReport.parse((await get('/api/report/missing?season=2025&page=2&pageSize=2')).json());
    expect(second.players.map((p) => p.lastName)).toEqual(['Fifty%', 'Jones']);
    expect(second).toMatchObject({ total: 6, page: 2, pageSize: 2 });
    expect(second.players[1]).toEqual({
      playerId: P.cara,
      playerName: 'Cara Jones',
      firstName: 'Cara',
      lastName: 'Jones',
      division: 'AAA',
      documentsStatus: { birth_certificate: 'complete', residency: 'missing', medical: 'missing', waiver: 'pending' },
      completionPercentage: 25,
      expiresOn: null,
      // Born 7 July 2015: 10 on 31 August 2025, within AAA's ages 10–12.
      leagueAge: 10,
      ageFitsDivision: true,
    });

    const percent = ZMissingReport.parse((await get(`/api/report/missing?search=${encodeURIComponent('%')}&pageSize=10`)).json());
    expect(percent.players.map((p) => p.playerName)).toEqual(['Eve Fifty%']);
    expect(percent.total).toBe(1);

    const aaPending = ZMissingReport.parse((await get('/api/report/missing?division=AA&status=pending&pageSize=10')).json());
    expect(aaPending.players.map((p) => p.playerName)).toEqual(['Ben Adams']);
    expect(aaPending).toMatchObject({ total: 1, summary: { total: 2, complete: 1, incomplete: 1 } });

    const byName = ZMissingReport.parse((await get(`/api/report/missing?search=${encodeURIComponent('Smith, Ava')}`)).json());
    expect(byName.players.map((p) => p.playerId)).toEqual([P.ava]);

    expect((await get('/api/report/missing?season=fall-1999')).statusCode).toBe(404);
  });

  it('GET /api/report/missing names every bad parameter', async () => {
    const response = await get('/api/report/missing?season=../x&division=ZZ&status=bogus&page=0&pageSize=0');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(detailPaths(response.json())).toEqual([
      'querystring.division',
      'querystring.page',
      'querystring.pageSize',
      'querystring.season',
      'querystring.status',
    ]);
    const messages = Object.fromEntries((response.json<TApiError>().details ?? []).map((d) => [d.path, d.message]));
    expect(messages).toMatchObject({
      'querystring.status': 'must be all, complete, incomplete, pending or expiring',
      'querystring.pageSize': 'must be at least 1',
      'querystring.page': 'must be at least 1',
    });
    const tooBig = await get(`/api/report/missing?pageSize=201&search=${'x'.repeat(101)}`);
    expect(tooBig.statusCode).toBe(400);
    expect(detailPaths(tooBig.json())).toEqual(['querystring.pageSize', 'querystring.search']);
    expect(detailPaths((await get('/api/report/missing?page=1.5&pageSize=ten')).json())).toEqual(['querystring.page', 'querystring.pageSize']);
  });

  it("GET /api/report/player answers a player's season with their documents; 404 when not registered", async () => {
    const response = await get(`/api/report/player?player_id=${P.cara}&season=fall-2025`);
    expect(response.statusCode).toBe(200);
    const report = ZPlayerReport.parse(response.json());
    expect(report.status).toMatchObject({ playerName: 'Cara Jones', completionPercentage: 25 });
    expect(report.documents).toHaveLength(6);
    expect(report.documents[1]).toMatchObject({ docType: 'waiver', status: 'pending', guardianEmail: 'jones@example.org' });
    expect(report.documents[1]?.storageUrl).toMatch(/^local:seasons\/2025\/fixture\//);

    const notRegistered = await get(`/api/report/player?player_id=${P.dan}&season=spring-2025`);
    expect(notRegistered.statusCode).toBe(404);
    expect(notRegistered.json()).toMatchObject({ code: 'NOT_FOUND', message: `Player ${P.dan} is not registered for Spring Ball 2025.` });
    expect((await get(`/api/report/player?player_id=${P.ava}&season=1999`)).statusCode).toBe(404);

    const missing = await get('/api/report/player?season=bad/season');
    expect(missing.statusCode).toBe(400);
    expect(detailPaths(missing.json())).toEqual(['querystring.player_id', 'querystring.season']);
  });

  it('GET /api/stats/breakdown answers the real figures of the season', async () => {
    const response = await get('/api/stats/breakdown?season=fall-2025');
    expect(response.statusCode).toBe(200);
    const breakdown = ZStatsBreakdown.parse(response.json());
    expect(breakdown.players).toEqual({ total: 6, complete: 2, incomplete: 4, withPending: 2 });
    expect(breakdown.byDivision).toHaveLength(5);
    expect(breakdown.byDocType.map((t) => t.docType)).toEqual(['birth_certificate', 'residency', 'medical', 'waiver']);
    expect(breakdown.documentsByStatus).toEqual({ verified: 11, pending: 4, processing: 1, rejected: 3 });
    expect(breakdown.undetectedType).toBe(1);
    expect(breakdown.completionRate).toBe(33.3);
    expect(breakdown.recent).toHaveLength(5);
    expect((await get('/api/stats/breakdown?season=2031')).statusCode).toBe(404);
  });

  it('POST /api/players registers a player (201), audits it, and answers 409 for the same child again', async () => {
    const body = { firstName: 'Zoe', lastName: 'Quinn', birthDate: '2014-05-03', season: '2025', division: 'AAA', guardianEmail: 'q@example.org', guardianPhone: '(555) 010-0100' };
    const created = await post(body);
    expect(created.statusCode).toBe(201);
    const id = derivePlayerId({ prefix: 'CB', year: 2025, firstName: 'Zoe', lastName: 'Quinn', birthDate: '2014-05-03' });
    expect(ZCreatedPlayer.parse(created.json())).toEqual({
      player: {
        playerId: id,
        playerName: 'Zoe Quinn',
        firstName: 'Zoe',
        lastName: 'Quinn',
        division: 'AAA',
        documentsStatus: { birth_certificate: 'missing', residency: 'missing', medical: 'missing', waiver: 'missing' },
        completionPercentage: 0,
        expiresOn: null,
        // Born 3 May 2014: 11 on 31 August 2025, within AAA's ages.
        leagueAge: 11,
        ageFitsDivision: true,
      },
    });
    const audits = (await listAuditEventsByAction(getDatabase().db, 'player.created')).filter((a) => a.subjectId === id);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ actor: 'shared-password', requestId: created.headers['x-request-id'], detail: { seasonId: 'fall-2025', division: 'AAA' } });

    // The new player is in the report and the stats at once.
    expect(ZStats.parse((await get('/api/stats')).json()).totalPlayers).toBe(7);
    const report = ZMissingReport.parse((await get('/api/report/missing?division=AAA')).json());
    expect(report.players.map((p) => p.playerName)).toEqual(['Cara Jones', 'Zoe Quinn']);

    const again = await post({ ...body, firstName: 'ZOE', division: 'A' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'CONFLICT', message: `Zoe Quinn (born 2014-05-03) is already registered for Fall Ball 2025 as ${id}.` });
  });

  it('POST /api/players names every bad field', async () => {
    const response = await post({ firstName: ' ', birthDate: '2014-02-30', season: '', division: 'Majors', guardianEmail: 'not-mail', guardianPhone: 'call me' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(detailPaths(response.json())).toEqual([
      'body.birthDate',
      'body.division',
      'body.firstName',
      'body.guardianEmail',
      'body.guardianPhone',
      'body.lastName',
      'body.season',
    ]);
    const unknownSeason = await post({ firstName: 'Al', lastName: 'Bo', birthDate: '2014-02-28', season: '1999', division: 'A' });
    expect(unknownSeason.statusCode).toBe(400);
    expect(unknownSeason.json()).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: 'body.season' }] });
    expect((await listAuditEventsByAction(getDatabase().db, 'player.created')).filter((a) => a.detail.seasonId === undefined)).toEqual([]);
  });
});
