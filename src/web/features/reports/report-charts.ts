import { monthLabel, type TDivision, type TSeasonReport } from '../../../contract';
import { DOC_TYPE_COLUMN_LABELS, PLAYER_DOC_STATUS_LABELS } from '@/components/status-tones';
import { formatPercent, plural } from './report-text';

/**
 * The charts' data, shaped from the report, and a sentence summarising each chart for screen readers (the
 * charts' wrappers are images named by it). Colours are CSS variables of styles.css, so both themes apply.
 */

export const SERIES_COLOURS = {
  complete: 'var(--chart-2)',
  pending: 'var(--chart-3)',
  processing: 'var(--chart-1)',
  missing: 'var(--chart-5)',
  registrations: 'var(--chart-1)',
  completions: 'var(--chart-2)',
  players: 'var(--chart-1)',
  projected: 'var(--chart-4)',
  rate: 'var(--chart-6)',
} as const;

export const DIVISION_COLOURS: Record<TDivision, string> = {
  AAA: 'var(--chart-1)',
  AA: 'var(--chart-2)',
  A: 'var(--chart-3)',
  TEST: 'var(--chart-muted)',
  Peewee: 'var(--chart-4)',
};

export { monthLabel };

/** 'Spring Ball 2024' → 'Spring 2024': axis ticks have little room on a phone. */
export const shortSeasonName = (name: string): string => name.replace(/ Ball /, ' ');

/** A tick label on two lines, split at its last space: 'Spring 2024' → ['Spring', '2024']; one word stays one line. */
export function twoLineLabel(label: string): [string, string] {
  const at = label.lastIndexOf(' ');
  return at <= 0 ? [label, ''] : [label.slice(0, at), label.slice(at + 1)];
}

export interface DocumentTypeDatum {
  label: string;
  complete: number;
  pending: number;
  processing: number;
  missing: number;
  completionRate: number;
}

export const documentTypeChartData = (stats: TSeasonReport['documentStats']): DocumentTypeDatum[] =>
  stats.map(({ docType, complete, pending, processing, missing, completionRate }) => ({
    label: DOC_TYPE_COLUMN_LABELS[docType],
    complete,
    pending,
    processing,
    missing,
    completionRate,
  }));

export function describeDocumentTypeChart(data: readonly DocumentTypeDatum[]): string {
  const parts = data.map((d) => {
    const players = d.complete + d.pending + d.processing + d.missing;
    return `${d.label} ${formatPercent(d.completionRate)} complete (${d.complete} of ${players})`;
  });
  return `Completion by document type: ${parts.join(', ')}.`;
}

export interface DivisionDatum {
  division: TDivision;
  players: number;
  share: number;
  fill: string;
}

/** The pie's slices: divisions with players (an empty slice draws nothing), with their share of the season. */
export function divisionChartData(stats: TSeasonReport['divisionStats']): DivisionDatum[] {
  const total = stats.reduce((sum, d) => sum + d.players, 0);
  return stats
    .filter((d) => d.players > 0)
    .map((d) => ({ division: d.division, players: d.players, share: Math.round((d.players / total) * 1000) / 10, fill: DIVISION_COLOURS[d.division] }));
}

export function describeDivisionChart(data: readonly DivisionDatum[]): string {
  if (data.length === 0) return 'Players by division: no players.';
  return `Players by division: ${data.map((d) => `${d.division} ${plural(d.players, 'player')} (${formatPercent(d.share)})`).join(', ')}.`;
}

export interface MonthDatum {
  month: string;
  label: string;
  registrations: number;
  completions: number;
}

export const monthlyChartData = (monthly: TSeasonReport['monthly']): MonthDatum[] =>
  monthly.map(({ month, registrations, completions }) => ({ month, label: monthLabel(month), registrations, completions }));

export function describeMonthlyChart(data: readonly MonthDatum[]): string {
  const first = data[0];
  const last = data.at(-1);
  if (!first || !last) return 'Monthly registrations and completions: no months.';
  const registrations = data.reduce((sum, d) => sum + d.registrations, 0);
  const completions = data.reduce((sum, d) => sum + d.completions, 0);
  const busiest = data.reduce((best, d) => (d.registrations > best.registrations ? d : best), first);
  const range = first === last ? first.label : `${first.label} to ${last.label}`;
  const peak = registrations > 0 ? `; most registrations in ${busiest.label} (${busiest.registrations})` : '';
  return `Monthly registrations and completions, ${range}: ${plural(registrations, 'registration')} and ${plural(completions, 'completion')}${peak}.`;
}

export interface SeasonDatum {
  seasonId: string;
  label: string;
  shortLabel: string;
  totalPlayers: number;
  completeProfiles: number;
  completionRate: number;
}

/** Every season up to the report's, oldest first, both kinds. */
export const historyChartData = (history: TSeasonReport['history']): SeasonDatum[] =>
  history.map((row) => ({
    seasonId: row.season.id,
    label: row.season.name,
    shortLabel: shortSeasonName(row.season.name),
    totalPlayers: row.totalPlayers,
    completeProfiles: row.completeProfiles,
    completionRate: row.completionRate,
  }));

export function describeHistoryChart(data: readonly SeasonDatum[]): string {
  const first = data[0];
  const last = data.at(-1);
  if (!first || !last) return 'Players per season: no seasons.';
  const at = (d: SeasonDatum) => `${plural(d.totalPlayers, 'player')} (${d.completeProfiles} complete) in ${d.label}`;
  if (first === last) return `Total players and complete profiles per season: ${at(first)}.`;
  return `Total players and complete profiles per season, ${plural(data.length, 'season')}: from ${at(first)} to ${at(last)}.`;
}

export const describeCompletionRateChart = (data: readonly SeasonDatum[]): string =>
  data.length === 0
    ? 'Completion rate per season: no seasons.'
    : `Completion rate per season: ${data.map((d) => `${d.label} ${formatPercent(d.completionRate)}`).join(', ')}.`;

export interface ProjectionDatum {
  label: string;
  shortLabel: string;
  /** Players of a past season; null for a projected one. */
  actual: number | null;
  /** Projected players; the last actual season carries its own figure too, so the dashed line starts there. */
  projected: number | null;
}

/** The seasons of the report's kind, then the projected periods continuing them. */
export function projectionChartData(report: Pick<TSeasonReport, 'history' | 'season' | 'projections'>): ProjectionDatum[] {
  const past = report.history.filter((row) => row.kind === report.season.kind);
  const periods = report.projections.enoughHistory ? report.projections.periods : [];
  const data: ProjectionDatum[] = past.map((row, index) => ({
    label: row.season.name,
    shortLabel: shortSeasonName(row.season.name),
    actual: row.totalPlayers,
    projected: index === past.length - 1 && periods.length > 0 ? row.totalPlayers : null,
  }));
  for (const period of periods) {
    data.push({ label: period.period, shortLabel: shortSeasonName(period.period), actual: null, projected: period.projectedPlayers });
  }
  return data;
}

export function describeProjectionChart(report: Pick<TSeasonReport, 'history' | 'season' | 'projections'>): string {
  const past = report.history.filter((row) => row.kind === report.season.kind);
  const history = past.map((row) => `${row.season.name} ${row.totalPlayers}`).join(', ');
  const projected = report.projections.enoughHistory
    ? report.projections.periods.map((p) => `${p.period} ${p.projectedPlayers}`).join(', ')
    : '';
  return `Players per ${report.season.kind} season: ${history || 'none'}${projected ? `; projected ${projected}` : ''}.`;
}

export interface StatusSegment {
  status: 'complete' | 'pending' | 'processing' | 'missing';
  label: string;
  count: number;
  /** Share of the type's players, percent with one decimal. */
  percent: number;
  colour: string;
}

/** One document type's players by status, for a bar cut in four. */
export function statusSegments(stat: TSeasonReport['documentStats'][number]): StatusSegment[] {
  const total = stat.complete + stat.pending + stat.processing + stat.missing;
  return (['complete', 'pending', 'processing', 'missing'] as const).map((status) => ({
    status,
    label: PLAYER_DOC_STATUS_LABELS[status],
    count: stat[status],
    percent: total === 0 ? 0 : Math.round((stat[status] / total) * 1000) / 10,
    colour: SERIES_COLOURS[status],
  }));
}

export const describeStatusSegments = (label: string, segments: readonly StatusSegment[]): string =>
  `${label}: ${segments.map((s) => `${s.count} ${s.label.toLowerCase()}`).join(', ')}.`;

export interface DivisionDetail {
  division: TDivision;
  players: number;
  complete: number;
  incomplete: number;
  completionRate: number;
  /** The division's share of the report's players, percent with one decimal. */
  share: number;
}

export function divisionDetails(stats: TSeasonReport['divisionStats']): DivisionDetail[] {
  const total = stats.reduce((sum, d) => sum + d.players, 0);
  return stats.map((d) => ({
    division: d.division,
    players: d.players,
    complete: d.complete,
    incomplete: d.players - d.complete,
    completionRate: d.completionRate,
    share: total === 0 ? 0 : Math.round((d.players / total) * 1000) / 10,
  }));
}
