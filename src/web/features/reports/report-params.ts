import { FILTER_DIVISIONS, ZSeasonParam } from '../../../contract';

/** The division choices on the Reports screen: All Divisions, AAA, AA, A. */
export const REPORT_DIVISIONS = ['all', ...FILTER_DIVISIONS] as const;
export type TReportDivision = (typeof REPORT_DIVISIONS)[number];

export const REPORT_DIVISION_LABELS: Record<TReportDivision, string> = { all: 'All Divisions', AAA: 'AAA', AA: 'AA', A: 'A' };

/** The parameters a report was generated with; on the Reports screen they live in the URL's query string. */
export interface ReportParams {
  /** A season id or year; undefined = the current season. */
  season: string | undefined;
  division: TReportDivision;
  /** Compare with the previous season of the same kind (growth on the Total Players card). */
  compare: boolean;
}

export const DEFAULT_REPORT_PARAMS: ReportParams = { season: undefined, division: 'all', compare: true };

export const isReportDivision = (value: string | null): value is TReportDivision =>
  value !== null && (REPORT_DIVISIONS as readonly string[]).includes(value);

/** Reads `?season=&division=&compare=`; anything unknown or malformed falls back to its default. */
export function parseReportParams(search: string): ReportParams {
  const params = new URLSearchParams(search);
  const season = params.get('season');
  const division = params.get('division');
  return {
    season: season !== null && ZSeasonParam.safeParse(season).success ? season.trim() : undefined,
    division: isReportDivision(division) ? division : 'all',
    // Only an explicit 'false' turns the comparison off, as the server reads it.
    compare: params.get('compare') !== 'false',
  };
}

/** The query string (without '?'), defaults left out so a plain /reports stays plain. */
export function serializeReportParams(params: ReportParams): string {
  const query = new URLSearchParams();
  if (params.season !== undefined) query.set('season', params.season);
  if (params.division !== 'all') query.set('division', params.division);
  if (!params.compare) query.set('compare', 'false');
  return query.toString();
}

export const sameReportParams = (a: ReportParams, b: ReportParams): boolean => serializeReportParams(a) === serializeReportParams(b);

/** The query of GET /api/reports/season, as a query-key segment: every parameter spelled out but an absent season. */
export interface SeasonReportQueryParams {
  season?: string;
  division: TReportDivision;
  compare: 'true' | 'false';
}

export function seasonReportQueryParams(params: ReportParams): SeasonReportQueryParams {
  return {
    ...(params.season !== undefined ? { season: params.season } : {}),
    division: params.division,
    compare: params.compare ? 'true' : 'false',
  };
}
