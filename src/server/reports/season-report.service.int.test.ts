import { beforeAll, describe, expect, it } from 'vitest';
import { ZSeasonReport, type TSeasonReport } from '../../contract';
import { SHARED_PRINCIPAL } from '../auth';
import { describeEachDatabase } from '../../../tests/support/databases';
import { expectSummariesMatchDocuments } from '../../../tests/support/report-consistency';
import { SR, SR_SEASONS, seedSeasonReportFixture } from '../../../tests/support/season-report-fixture';
import { AppError } from '../platform/errors';
import { NOT_ENOUGH_HISTORY } from './projections';
import { createSeasonReportService, foldBreakdown, monthlySeries } from './season-report.service';

const ref = (season: { id: string; name: string; year: number }) => ({ id: season.id, name: season.name, year: season.year });
const S = SR_SEASONS;

describe('monthlySeries', () => {
  it('covers the season and any month with figures, zero months included', () => {
    expect(monthlySeries('2025-08-15', '2025-10-31', new Map([['2025-07', 1]]), new Map([['2026-01', 2]]))).toEqual([
      { month: '2025-07', registrations: 1, completions: 0 },
      { month: '2025-08', registrations: 0, completions: 0 },
      { month: '2025-09', registrations: 0, completions: 0 },
      { month: '2025-10', registrations: 0, completions: 0 },
      { month: '2025-11', registrations: 0, completions: 0 },
      { month: '2025-12', registrations: 0, completions: 0 },
      { month: '2026-01', registrations: 0, completions: 2 },
    ]);
  });
});

describe('foldBreakdown', () => {
  it('sums the grouped rows per division, per type and status, and per month of registration and completion', () => {
    const complete = { birthCertificate: 'complete', residency: 'complete', medical: 'complete', waiver: 'complete' } as const;
    const folded = foldBreakdown([
      // 3 complete AA players registered in August, completed in September.
      { division: 'AA', complete: true, ...complete, registeredMonth: '2025-08', completedMonth: '2025-09', count: 3 },
      // 2 AA players registered in August: medical pending, waiver missing, never complete.
      { division: 'AA', complete: false, ...complete, medical: 'pending', waiver: 'missing', registeredMonth: '2025-08', completedMonth: null, count: 2 },
      // 1 A player registered in September with everything missing but a processing residency proof.
      {
        division: 'A',
        complete: false,
        birthCertificate: 'missing',
        residency: 'processing',
        medical: 'missing',
        waiver: 'missing',
        registeredMonth: '2025-09',
        completedMonth: null,
        count: 1,
      },
    ]);
    expect(Object.fromEntries(folded.divisions)).toEqual({ AA: { players: 5, complete: 3 }, A: { players: 1, complete: 0 } });
    expect(folded.types).toEqual({
      birth_certificate: { complete: 5, pending: 0, processing: 0, missing: 1 },
      residency: { complete: 5, pending: 0, processing: 1, missing: 0 },
      medical: { complete: 3, pending: 2, processing: 0, missing: 1 },
      waiver: { complete: 3, pending: 0, processing: 0, missing: 3 },
    });
    expect(Object.fromEntries(folded.registered)).toEqual({ '2025-08': 5, '2025-09': 1 });
    expect(Object.fromEntries(folded.completed)).toEqual({ '2025-09': 3 });
  });
});

describeEachDatabase('the season report on a hand-counted league', ({ getDb }) => {
  const service = () => createSeasonReportService({ db: getDb() });
  const report = async (season: string | undefined, division: TSeasonReport['division'] = 'all', compare = true) =>
    ZSeasonReport.parse(await service().getSeasonReport({ season, division, compare }, SHARED_PRINCIPAL));

  beforeAll(async () => {
    await seedSeasonReportFixture(getDb());
  });

  it('reads a breakdown kept equal to the registrations, and summaries equal to the documents', async () => {
    await expectSummariesMatchDocuments(getDb());
  });

  it('answers the current season (Fall Ball 2025) for every division', async () => {
    const r = await report(undefined);
    expect(r.season).toEqual({ ...ref(S.fall2025), kind: 'Fall Ball' });
    expect(r.division).toBe('all');
    // 8 players, 4 complete (Fay, Gus, Hal, Ida): 4/8 = 50.0 %. Documents neither rejected nor purged:
    // 4 × 4 (the complete ones) + Jo 3 (v, p, pr) + Kim 4 + Max 1 (the waiver; the medical is rejected) = 24.
    // Fall Ball 2024 had 6 players, 3 complete: growth (8 − 6) / 6 = 33.3 %, (4 − 3) / 3 = 33.3 %.
    expect(r.summary).toEqual({
      totalPlayers: 8,
      completeProfiles: 4,
      incompleteProfiles: 4,
      completionRate: 50,
      totalDocuments: 24,
      growth: { totalPlayers: 33.3, completeProfiles: 33.3, previousSeason: ref(S.fall2024) },
    });
    // Birth: complete Fay Gus Hal Ida Jo Kim = 6, missing Lou Max = 2 → 6/8 = 75 %.
    // Residency: complete the four + Kim = 5, pending Jo, missing Lou Max → 62.5 %.
    // Medical: complete the four + Kim = 5, processing Jo, missing Lou and Max (rejected) → 62.5 %.
    // Waiver: complete the four + Max = 5, pending Kim, missing Jo Lou → 62.5 %.
    expect(r.documentStats).toEqual([
      { docType: 'birth_certificate', complete: 6, pending: 0, processing: 0, missing: 2, completionRate: 75 },
      { docType: 'residency', complete: 5, pending: 1, processing: 0, missing: 2, completionRate: 62.5 },
      { docType: 'medical', complete: 5, pending: 0, processing: 1, missing: 2, completionRate: 62.5 },
      { docType: 'waiver', complete: 5, pending: 1, processing: 0, missing: 2, completionRate: 62.5 },
    ]);
    // AAA: Fay Gus Max, 2 complete → 66.7 %; AA: Hal Jo Kim, 1 → 33.3 %; A: Ida Lou, 1 → 50 %.
    expect(r.divisionStats).toEqual([
      { division: 'AAA', players: 3, complete: 2, completionRate: 66.7 },
      { division: 'AA', players: 3, complete: 1, completionRate: 33.3 },
      { division: 'A', players: 2, complete: 1, completionRate: 50 },
      { division: 'TEST', players: 0, complete: 0, completionRate: 0 },
      { division: 'Peewee', players: 0, complete: 0, completionRate: 0 },
    ]);
    // Registered: Max in July (before the season starts, so July opens the series), the four on 08-20, Jo and
    // Kim in September, Lou in October. Complete since: Fay 09-10, Hal 09-20, Gus 10-05, Ida 10-12. The
    // season ends in November.
    expect(r.monthly).toEqual([
      { month: '2025-07', registrations: 1, completions: 0 },
      { month: '2025-08', registrations: 4, completions: 0 },
      { month: '2025-09', registrations: 2, completions: 2 },
      { month: '2025-10', registrations: 1, completions: 2 },
      { month: '2025-11', registrations: 0, completions: 0 },
    ]);
    expect(r.history).toEqual([
      { season: ref(S.fall2022), kind: 'Fall Ball', totalPlayers: 2, completeProfiles: 1, completionRate: 50 },
      { season: ref(S.fall2023), kind: 'Fall Ball', totalPlayers: 4, completeProfiles: 2, completionRate: 50 },
      { season: ref(S.spring2024), kind: 'Spring Ball', totalPlayers: 3, completeProfiles: 3, completionRate: 100 },
      { season: ref(S.fall2024), kind: 'Fall Ball', totalPlayers: 6, completeProfiles: 3, completionRate: 50 },
      { season: ref(S.spring2025), kind: 'Spring Ball', totalPlayers: 5, completeProfiles: 1, completionRate: 20 },
      { season: ref(S.fall2025), kind: 'Fall Ball', totalPlayers: 8, completeProfiles: 4, completionRate: 50 },
    ]);
    // Fall Ball only: players 2, 4, 6, 8 at x = 0..3 → x̄ = 1.5, ȳ = 5, Σ(x−x̄)(y−ȳ) = 4.5 + 0.5 + 0.5 + 4.5 = 10,
    // Σ(x−x̄)² = 5 → slope 2, intercept 5 − 3 = 2: x = 4 → 10, x = 5 → 12. Completion 50 every season: 50.
    // Both fits exact (quality 1); n = 4 → 4/6: confidence round(66.67) = 67, then 66.67 × 0.9 = 60.
    const factors = [
      'Players rising by about 2 per season (2 in 2022, 8 in 2025)',
      'Completion rate steady at about 50% (50% in 2022, 50% in 2025)',
      // The lowest rate, the first of the three at 62.5 % in type order.
      'Weakest document type this season: Residency Proof at 62.5% complete',
      'Fitted on 4 Fall Ball seasons (2022–2025); few seasons lower the confidence',
    ];
    expect(r.projections).toEqual({
      enoughHistory: true,
      periods: [
        { period: 'Fall Ball 2026', projectedPlayers: 10, projectedCompletion: 50, confidenceLevel: 67, factors },
        { period: 'Fall Ball 2027', projectedPlayers: 12, projectedCompletion: 50, confidenceLevel: 60, factors },
      ],
    });
    // Below 100 %: Lou 0 %, then the 25 % ones by last name (Adams, Baker), then Kim 75 %.
    expect(r.players).toEqual([
      { playerId: SR.lou, playerName: 'Lou Zed', division: 'A', documentsStatus: { birth_certificate: 'missing', residency: 'missing', medical: 'missing', waiver: 'missing' }, completionPercentage: 0 },
      { playerId: SR.max, playerName: 'Max Adams', division: 'AAA', documentsStatus: { birth_certificate: 'missing', residency: 'missing', medical: 'missing', waiver: 'complete' }, completionPercentage: 25 },
      { playerId: SR.jo, playerName: 'Jo Baker', division: 'AA', documentsStatus: { birth_certificate: 'complete', residency: 'pending', medical: 'processing', waiver: 'missing' }, completionPercentage: 25 },
      { playerId: SR.kim, playerName: 'Kim Cole', division: 'AA', documentsStatus: { birth_certificate: 'complete', residency: 'complete', medical: 'complete', waiver: 'pending' }, completionPercentage: 75 },
    ]);
    expect(r.playersTotal).toBe(4);
  });

  it('names the same season by id or by year, and leaves growth out without comparison', async () => {
    const byId = await report('fall-2025');
    expect(await report('2025')).toEqual(byId);
    expect(await report(undefined)).toEqual(byId);
    const plain = await report('fall-2025', 'all', false);
    expect(plain.summary.growth).toBeNull();
    expect({ ...plain, summary: { ...plain.summary, growth: byId.summary.growth } }).toEqual(byId);
  });

  it('narrows every figure to one division', async () => {
    const r = await report('fall-2025', 'AAA');
    // Fay, Gus (complete) and Max. The earlier seasons had nobody in AAA: no growth from 0.
    expect(r.summary).toEqual({
      totalPlayers: 3,
      completeProfiles: 2,
      incompleteProfiles: 1,
      completionRate: 66.7,
      // Fay 4 + Gus 4 + Max 1.
      totalDocuments: 9,
      growth: { totalPlayers: null, completeProfiles: null, previousSeason: ref(S.fall2024) },
    });
    expect(r.divisionStats).toEqual([{ division: 'AAA', players: 3, complete: 2, completionRate: 66.7 }]);
    // Birth and residency: Fay, Gus of 3; medical: Fay, Gus (Max rejected); waiver: all three.
    expect(r.documentStats.map((t) => [t.docType, t.complete, t.missing, t.completionRate])).toEqual([
      ['birth_certificate', 2, 1, 66.7],
      ['residency', 2, 1, 66.7],
      ['medical', 2, 1, 66.7],
      ['waiver', 3, 0, 100],
    ]);
    expect(r.monthly.map((m) => [m.month, m.registrations, m.completions])).toEqual([
      ['2025-07', 1, 0],
      ['2025-08', 2, 0],
      ['2025-09', 0, 1],
      ['2025-10', 0, 1],
      ['2025-11', 0, 0],
    ]);
    expect(r.history.map((h) => [h.season.id, h.totalPlayers, h.completeProfiles])).toEqual([
      ['fall-2022', 0, 0],
      ['fall-2023', 0, 0],
      ['spring-2024', 0, 0],
      ['fall-2024', 0, 0],
      ['spring-2025', 0, 0],
      ['fall-2025', 3, 2],
    ]);
    expect(r.players.map((p) => p.playerId)).toEqual([SR.max]);
    expect(r.playersTotal).toBe(1);
  });

  it('answers a past Spring season with the history up to it, and no projection from two Spring seasons', async () => {
    const r = await report('spring-2025');
    expect(r.season).toEqual({ ...ref(S.spring2025), kind: 'Spring Ball' });
    // 5 players, 1 complete (20 %), none with documents but that one (4 documents).
    // Spring Ball 2024: 3 and 3 → growth (5 − 3) / 3 = 66.7 %, (1 − 3) / 3 = −66.7 %.
    expect(r.summary).toEqual({
      totalPlayers: 5,
      completeProfiles: 1,
      incompleteProfiles: 4,
      completionRate: 20,
      totalDocuments: 4,
      growth: { totalPlayers: 66.7, completeProfiles: -66.7, previousSeason: ref(S.spring2024) },
    });
    expect(r.history.map((h) => h.season.id)).toEqual(['fall-2022', 'fall-2023', 'spring-2024', 'fall-2024', 'spring-2025']);
    expect(r.projections).toEqual({ enoughHistory: false, message: NOT_ENOUGH_HISTORY, periods: [] });
    // Registered 2025-03-01, the complete one reviewed 2025-03-11; the season runs March to June.
    expect(r.monthly).toEqual([
      { month: '2025-03', registrations: 5, completions: 1 },
      { month: '2025-04', registrations: 0, completions: 0 },
      { month: '2025-05', registrations: 0, completions: 0 },
      { month: '2025-06', registrations: 0, completions: 0 },
    ]);
    expect(r.playersTotal).toBe(4);
  });

  it('has no previous season for the first of a kind', async () => {
    const r = await report('spring-2024');
    expect(r.summary.growth).toEqual({ totalPlayers: null, completeProfiles: null, previousSeason: null });
    expect(r.players).toEqual([]);
    expect(r.playersTotal).toBe(0);
  });

  it('answers 404 for a season that does not exist', async () => {
    for (const season of ['fall-2030', '1999']) {
      const error: unknown = await service().getSeasonReport({ season, division: 'all', compare: true }, SHARED_PRINCIPAL).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('NOT_FOUND');
      expect((error as AppError).message).toBe(`Season "${season}" does not exist.`);
    }
  });
});
