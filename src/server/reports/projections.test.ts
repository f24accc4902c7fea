import { describe, expect, it } from 'vitest';
import { fitLine, fitQuality, MIN_SEASONS, NOT_ENOUGH_HISTORY, projectSeasons, type HistoryPoint } from './projections';

const points = (rows: Array<[number, number, number]>): HistoryPoint[] =>
  rows.map(([year, players, completionRate]) => ({ year, players, completionRate }));

describe('fitLine', () => {
  it('fits a perfect line exactly', () => {
    // x = 0,1,2; y = 100,120,140: x̄ = 1, ȳ = 120; Σ(x−x̄)(y−ȳ) = (−1)(−20) + 0 + (1)(20) = 40; Σ(x−x̄)² = 2
    // slope = 40 / 2 = 20; intercept = 120 − 20·1 = 100; SSE = 0.
    const fit = fitLine([100, 120, 140]);
    expect(fit.slope).toBe(20);
    expect(fit.intercept).toBe(100);
    expect(fit.sse).toBe(0);
    expect(fit.residualStandardError).toBe(0);
    expect(fitQuality(fit)).toBe(1);
  });

  it('fits a noisy line by least squares', () => {
    // x = 0..3; y = 100,130,140,170: x̄ = 1.5, ȳ = 135; x−x̄ = −1.5,−0.5,0.5,1.5; y−ȳ = −35,−5,5,35
    // Σ(x−x̄)(y−ȳ) = 52.5 + 2.5 + 2.5 + 52.5 = 110; Σ(x−x̄)² = 2.25 + 0.25 + 0.25 + 2.25 = 5
    // slope = 22; intercept = 135 − 22·1.5 = 102; fitted 102,124,146,168; residuals −2,6,−6,2; SSE = 80
    // s = √(80 / 2) = √40 ≈ 6.3246; quality = 1 − 6.3246 / 135 ≈ 0.953151
    const fit = fitLine([100, 130, 140, 170]);
    expect(fit.slope).toBeCloseTo(22, 10);
    expect(fit.intercept).toBeCloseTo(102, 10);
    expect(fit.sse).toBeCloseTo(80, 10);
    expect(fit.residualStandardError).toBeCloseTo(Math.sqrt(40), 10);
    expect(fitQuality(fit)).toBeCloseTo(1 - Math.sqrt(40) / 135, 10);
  });

  it('gives a flat series slope 0 and an all-zero series quality 1', () => {
    expect(fitLine([5, 5, 5]).slope).toBe(0);
    expect(fitQuality(fitLine([0, 0, 0]))).toBe(1);
    expect(fitQuality(fitLine([]))).toBe(1);
  });
});

describe('projectSeasons', () => {
  it(`says there is not enough history below ${MIN_SEASONS} seasons`, () => {
    for (const rows of [[], [[2024, 10, 50]], [[2023, 10, 50], [2024, 12, 60]]] as Array<Array<[number, number, number]>>) {
      expect(projectSeasons({ kind: 'Fall Ball', points: points(rows) })).toEqual({ enoughHistory: false, message: NOT_ENOUGH_HISTORY, periods: [] });
    }
  });

  it('projects the next two seasons of the kind on a perfect line', () => {
    // Players 100,120,140 → slope 20, intercept 100: x = 3 → 160, x = 4 → 180.
    // Completion 50,60,70 → slope 10, intercept 50: x = 3 → 80, x = 4 → 90.
    // Both fits exact: quality 1; n = 3 → 3/5 = 0.6: confidence 60, then 60 × 0.9 = 54.
    const result = projectSeasons({
      kind: 'Spring Ball',
      points: points([[2023, 100, 50], [2024, 120, 60], [2025, 140, 70]]),
      weakestType: { label: 'Medical Form', completionRate: 42.5 },
    });
    expect(result.enoughHistory).toBe(true);
    expect(result.message).toBeUndefined();
    expect(result.periods.map(({ factors: _f, ...rest }) => rest)).toEqual([
      { period: 'Spring Ball 2026', projectedPlayers: 160, projectedCompletion: 80, confidenceLevel: 60 },
      { period: 'Spring Ball 2027', projectedPlayers: 180, projectedCompletion: 90, confidenceLevel: 54 },
    ]);
    expect(result.periods[0]?.factors).toEqual([
      'Players rising by about 20 per season (100 in 2023, 140 in 2025)',
      'Completion rate rising by about 10 points per season (50% in 2023, 70% in 2025)',
      'Weakest document type this season: Medical Form at 42.5% complete',
      'Fitted on 3 Spring Ball seasons (2023–2025); few seasons lower the confidence',
    ]);
  });

  it('lowers the confidence with the fit error', () => {
    // Players 100,130,140,170 → slope 22, intercept 102 (see fitLine above): x = 4 → 190, x = 5 → 212; quality ≈ 0.953151.
    // Completion 40,50,50,60: ȳ = 50; y−ȳ = −10,0,0,10; Σ(x−x̄)(y−ȳ) = 15 + 15 = 30 → slope 6, intercept 50 − 9 = 41;
    //   fitted 41,47,53,59, residuals −1,3,−3,1, SSE 20, s = √10 ≈ 3.16228, quality = 1 − 3.16228/50 ≈ 0.936754;
    //   x = 4 → 65, x = 5 → 71.
    // Mean quality ≈ 0.944953; × 4/6 ≈ 0.629969 → 63; × 0.9 ≈ 0.566972 → 57.
    const result = projectSeasons({ kind: 'Fall Ball', points: points([[2021, 100, 40], [2022, 130, 50], [2023, 140, 50], [2024, 170, 60]]) });
    expect(result.periods.map(({ factors: _f, ...rest }) => rest)).toEqual([
      { period: 'Fall Ball 2025', projectedPlayers: 190, projectedCompletion: 65, confidenceLevel: 63 },
      { period: 'Fall Ball 2026', projectedPlayers: 212, projectedCompletion: 71, confidenceLevel: 57 },
    ]);
    expect(result.periods[0]?.factors).toHaveLength(3);
  });

  it('holds players at 0 and completion within 0-100', () => {
    // Players 30,20,10 → slope −10, intercept 30: x = 3 → 0, x = 4 → −10 → 0.
    // Completion 80,90,100 → slope 10, intercept 80: x = 3 → 110 → 100, x = 4 → 120 → 100.
    // Players fit exact (quality 1), completion exact (quality 1): 60, 54.
    const result = projectSeasons({ kind: 'Fall Ball', points: points([[2022, 30, 80], [2023, 20, 90], [2024, 10, 100]]) });
    expect(result.periods.map((p) => [p.projectedPlayers, p.projectedCompletion, p.confidenceLevel])).toEqual([
      [0, 100, 60],
      [0, 100, 54],
    ]);
    expect(result.periods[0]?.factors[0]).toBe('Players falling by about 10 per season (30 in 2022, 10 in 2024)');
    expect(result.periods[0]?.factors).toContain('The completion line passes 100% here: held at 100%');
    expect(result.periods[1]?.factors).toContain('The players line falls below 0 here: held at 0');
  });

  it('calls a flat history steady', () => {
    const result = projectSeasons({ kind: 'Fall Ball', points: points([[2022, 50, 20], [2023, 50, 20], [2024, 50, 20], [2025, 50, 20], [2026, 50, 20]]) });
    // n = 5 → 5/7 ≈ 0.714 → 71; × 0.9 → 64.
    expect(result.periods.map((p) => p.confidenceLevel)).toEqual([71, 64]);
    expect(result.periods[0]?.factors).toEqual([
      'Players steady at about 50 per season (50 in 2022, 50 in 2026)',
      'Completion rate steady at about 20% (20% in 2022, 20% in 2026)',
      'Fitted on 5 Fall Ball seasons (2022–2026)',
    ]);
  });
});
