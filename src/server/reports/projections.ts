import type { TProjections, TSeasonKind } from '../../contract';

/**
 * Growth projections of the Reports screen, fitted on the history of one season kind: Spring Ball
 * seasons project Spring Ball, Fall Ball seasons Fall Ball, since the two differ in size.
 *
 * Method (also in the User Guide):
 * - the points are the seasons of the report's kind up to the report's season, oldest first; x is the season's
 *   index among them (0, 1, 2, …), y the season's players, and separately its completion rate;
 * - each is fitted by ordinary least squares: slope = Σ(x−x̄)(y−ȳ) / Σ(x−x̄)², intercept = ȳ − slope·x̄;
 * - the next PROJECTED_PERIODS seasons of that kind (x = n, n+1; named by year: last year + 1, + 2) are the
 *   lines' values there, players rounded and at least 0, completion to one decimal and within 0-100;
 * - confidence = 100 × fit quality × n / (n + 2) × (1 − 0.1 per season beyond the first), rounded, where the fit
 *   quality is the mean over the two fits of max(0, 1 − s / ȳ), s = √(SSE / (n − 2)) the residual standard
 *   error (a fit whose mean is 0 has quality 1 when it is exact, else 0). Fewer seasons or a noisier history
 *   lower it; 3 seasons on a perfect line give 60 %, 8 give 80 %;
 * - fewer than MIN_SEASONS seasons: no projection, and a message saying so.
 */
export const MIN_SEASONS = 3;
export const PROJECTED_PERIODS = 2;
export const NOT_ENOUGH_HISTORY = 'Not enough history: at least 3 seasons are needed for a projection.';

export type HistoryPoint = { year: number; players: number; completionRate: number };

export type ProjectionInput = {
  kind: TSeasonKind;
  /** The seasons of `kind` up to the report's season, oldest first. */
  points: readonly HistoryPoint[];
  /** The report season's document type with the lowest completion, for the factors. */
  weakestType?: { label: string; completionRate: number } | undefined;
};

export type LineFit = { slope: number; intercept: number; sse: number; residualStandardError: number; mean: number };

/** Ordinary least squares of ys against their index 0, 1, …, n−1. */
export function fitLine(ys: readonly number[]): LineFit {
  const n = ys.length;
  if (n === 0) return { slope: 0, intercept: 0, sse: 0, residualStandardError: 0, mean: 0 };
  const xMean = (n - 1) / 2;
  const mean = ys.reduce((sum, y) => sum + y, 0) / n;
  let sxy = 0;
  let sxx = 0;
  ys.forEach((y, x) => {
    sxy += (x - xMean) * (y - mean);
    sxx += (x - xMean) ** 2;
  });
  const slope = sxx === 0 ? 0 : sxy / sxx;
  const intercept = mean - slope * xMean;
  const sse = ys.reduce((sum, y, x) => sum + (y - (intercept + slope * x)) ** 2, 0);
  const residualStandardError = n > 2 ? Math.sqrt(sse / (n - 2)) : 0;
  return { slope, intercept, sse, residualStandardError, mean };
}

/** 1 for an exact fit, falling with the residual error relative to the mean, never below 0. */
export function fitQuality(fit: LineFit): number {
  if (fit.mean <= 0) return fit.sse === 0 ? 1 : 0;
  return Math.min(1, Math.max(0, 1 - fit.residualStandardError / fit.mean));
}

const round1 = (value: number) => Math.round(value * 10) / 10;
const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));
/** Rounds away tiny float noise before a sign test. */
const signOf = (value: number) => Math.sign(round1(value));

function trendFactors(input: ProjectionInput, players: LineFit, completion: LineFit): string[] {
  const first = input.points[0];
  const last = input.points[input.points.length - 1];
  if (!first || !last) return [];
  const span = `${first.year}–${last.year}`;
  const n = input.points.length;
  const playerWord = ['falling', 'steady', 'rising'][signOf(players.slope) + 1];
  const completionWord = ['falling', 'steady', 'rising'][signOf(completion.slope) + 1];
  const factors = [
    signOf(players.slope) === 0
      ? `Players steady at about ${Math.round(players.mean)} per season (${first.players} in ${first.year}, ${last.players} in ${last.year})`
      : `Players ${playerWord} by about ${Math.abs(round1(players.slope))} per season (${first.players} in ${first.year}, ${last.players} in ${last.year})`,
    signOf(completion.slope) === 0
      ? `Completion rate steady at about ${round1(completion.mean)}% (${first.completionRate}% in ${first.year}, ${last.completionRate}% in ${last.year})`
      : `Completion rate ${completionWord} by about ${Math.abs(round1(completion.slope))} points per season (${first.completionRate}% in ${first.year}, ${last.completionRate}% in ${last.year})`,
  ];
  if (input.weakestType) factors.push(`Weakest document type this season: ${input.weakestType.label} at ${input.weakestType.completionRate}% complete`);
  factors.push(`Fitted on ${n} ${input.kind} seasons (${span})${n < 5 ? '; few seasons lower the confidence' : ''}`);
  return factors;
}

/** The next PROJECTED_PERIODS seasons of the input's kind, or why there are none. */
export function projectSeasons(input: ProjectionInput): TProjections {
  const n = input.points.length;
  const last = input.points[n - 1];
  if (n < MIN_SEASONS || !last) return { enoughHistory: false, message: NOT_ENOUGH_HISTORY, periods: [] };
  const players = fitLine(input.points.map((p) => p.players));
  const completion = fitLine(input.points.map((p) => p.completionRate));
  const quality = (fitQuality(players) + fitQuality(completion)) / 2;
  const factors = trendFactors(input, players, completion);
  const periods = Array.from({ length: PROJECTED_PERIODS }, (_, i) => {
    const step = i + 1;
    const x = n - 1 + step;
    const rawPlayers = players.intercept + players.slope * x;
    const rawCompletion = completion.intercept + completion.slope * x;
    const notes: string[] = [];
    if (rawPlayers < 0) notes.push('The players line falls below 0 here: held at 0');
    if (rawCompletion > 100) notes.push('The completion line passes 100% here: held at 100%');
    if (rawCompletion < 0) notes.push('The completion line falls below 0% here: held at 0%');
    return {
      period: `${input.kind} ${last.year + step}`,
      projectedPlayers: Math.max(0, Math.round(rawPlayers)),
      projectedCompletion: round1(clamp(rawCompletion, 0, 100)),
      confidenceLevel: Math.round(100 * quality * (n / (n + 2)) * (1 - 0.1 * (step - 1))),
      factors: [...factors, ...notes],
    };
  });
  return { enoughHistory: true, periods };
}
