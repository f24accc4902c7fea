import { afterAll, beforeAll, expect, it } from 'vitest';
import { ZSeasonReport, type TApiError } from '../../contract';
import { describeEachDatabase } from '../../../tests/support/databases';
import { SR, seedSeasonReportFixture } from '../../../tests/support/season-report-fixture';
import { startSignedInClearbase, type SignedInClearbase } from '../../../tests/support/signed-in-clearbase';

describeEachDatabase('GET /api/reports/season', ({ getDatabase }) => {
  let server: SignedInClearbase | undefined;
  let cookie = '';
  const get = (url: string, headers: Record<string, string> = { cookie }) => {
    if (!server) throw new Error('not started');
    return server.app.inject({ method: 'GET', url, headers });
  };
  const detailPaths = (body: unknown) => ((body as TApiError).details ?? []).map((d) => d.path).sort();

  beforeAll(async () => {
    await seedSeasonReportFixture(getDatabase().db);
    server = await startSignedInClearbase({ database: getDatabase(), prefix: 'cb-season-report-api', startWorkers: false });
    cookie = server.cookie;
  });
  afterAll(() => server?.close());

  it('needs a session', async () => {
    const response = await get('/api/reports/season', {});
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it('answers the current season for every division, compared, by default', async () => {
    const response = await get('/api/reports/season');
    expect(response.statusCode).toBe(200);
    const report = ZSeasonReport.parse(response.json());
    // The figures are pinned in season-report.service.int.test.ts; here the defaults and the wire shape.
    expect(report.season.id).toBe('fall-2025');
    expect(report.division).toBe('all');
    expect(report.summary).toMatchObject({ totalPlayers: 8, completeProfiles: 4, growth: { totalPlayers: 33.3 } });
    expect(report.projections.periods.map((p) => p.period)).toEqual(['Fall Ball 2026', 'Fall Ball 2027']);
    expect(report.players.map((p) => p.playerId)).toEqual([SR.lou, SR.max, SR.jo, SR.kim]);
  });

  it('takes the season, the division and compare=false', async () => {
    const response = await get('/api/reports/season?season=fall-2025&division=AA&compare=false');
    expect(response.statusCode).toBe(200);
    const report = ZSeasonReport.parse(response.json());
    expect(report.division).toBe('AA');
    // Hal (complete), Jo, Kim.
    expect(report.summary).toEqual({ totalPlayers: 3, completeProfiles: 1, incompleteProfiles: 2, completionRate: 33.3, totalDocuments: 11, growth: null });
    const byYear = ZSeasonReport.parse((await get('/api/reports/season?season=2025&division=AA&compare=false')).json());
    expect(byYear).toEqual(report);
  });

  it('answers 404 for an unknown season', async () => {
    const response = await get('/api/reports/season?season=fall-1999');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'NOT_FOUND', message: 'Season "fall-1999" does not exist.' });
  });

  it('answers 400 naming every bad parameter', async () => {
    const response = await get('/api/reports/season?season=../x&division=ZZ&compare=yes');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(detailPaths(response.json())).toEqual(['querystring.compare', 'querystring.division', 'querystring.season']);
  });
});
