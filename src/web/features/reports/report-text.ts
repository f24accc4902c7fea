import type { TSeasonReport } from '../../../contract';
import { REPORT_DIVISION_LABELS, isReportDivision } from './report-params';

/** A percentage of the report (one decimal at most): 40 → '40%', 33.33 → '33.3%'. */
export const formatPercent = (value: number): string => `${Math.round(value * 10) / 10}%`;

/** A change in percent with its sign: 25 → '+25%', -12.5 → '-12.5%', 0 → '0%'. */
export const formatChange = (value: number): string => `${value > 0 ? '+' : ''}${formatPercent(value)}`;

const count = new Intl.NumberFormat('en-US');
/** '1 player', '1,204 players'. */
export const plural = (n: number, one: string, many = `${one}s`): string => `${count.format(n)} ${n === 1 ? one : many}`;

export type GrowthText = { kind: 'change'; text: string; positive: boolean } | { kind: 'none'; text: string };

/**
 * The Total Players card's comparison: null when the report was not compared; otherwise the change versus the
 * previous season of the same kind, or why there is none.
 */
export function totalPlayersGrowth(summary: TSeasonReport['summary']): GrowthText | null {
  const { growth } = summary;
  if (growth === null) return null;
  const previous = growth.previousSeason;
  if (previous === null) return { kind: 'none', text: 'No previous season' };
  if (growth.totalPlayers === null) return { kind: 'none', text: `No players in ${previous.name} to compare` };
  return { kind: 'change', text: `${formatChange(growth.totalPlayers)} vs ${previous.name}`, positive: growth.totalPlayers >= 0 };
}

/** 'All Divisions', or the division's name. */
export const divisionLabel = (division: TSeasonReport['division']): string => (isReportDivision(division) ? REPORT_DIVISION_LABELS[division] : division);

/** 'Fall Ball 2025 · All Divisions', what a generated report is of. */
export const reportTitle = (report: Pick<TSeasonReport, 'season' | 'division'>): string => `${report.season.name} · ${divisionLabel(report.division)}`;

/** Said under the incomplete list when the server listed only the first players (it lists at most 1,000). */
export function unlistedPlayersText(report: Pick<TSeasonReport, 'players' | 'playersTotal'>): string | null {
  const more = report.playersTotal - report.players.length;
  return more > 0 ? `${plural(more, 'more incomplete player')} not listed here; the CSV export has them all.` : null;
}
