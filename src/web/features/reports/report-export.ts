import { compactTimestamp, DOC_TYPES, fileNamePart, seasonReportFileName, type TSeasonReport } from '../../../contract';
import { DOC_TYPE_COLUMN_LABELS, PLAYER_DOC_STATUS_LABELS } from '@/components/status-tones';
import { toCsv, type CsvText } from '@/lib/csv';

type TReportPlayer = TSeasonReport['players'][number];

/** What Export Report writes: the report's figures as the screen shows them, and when they were generated. */
export interface ReportExport {
  generatedAt: string;
  season: TSeasonReport['season'];
  division: TSeasonReport['division'];
  summary: TSeasonReport['summary'];
  documentStats: TSeasonReport['documentStats'];
  divisionStats: TSeasonReport['divisionStats'];
  players: TSeasonReport['players'];
}

export function buildReportExport(report: TSeasonReport, generatedAt: Date): ReportExport {
  return {
    generatedAt: generatedAt.toISOString(),
    season: report.season,
    division: report.division,
    summary: report.summary,
    documentStats: report.documentStats,
    divisionStats: report.divisionStats,
    players: report.players,
  };
}

/** 'clearbase-report-fall-2025-20261124T1305Z.json', named as the server names the PDF, CSV and Excel files. */
export const reportFilename = (report: Pick<TSeasonReport, 'season' | 'division'>, date: Date): string =>
  seasonReportFileName(report.season.id, report.division, date, 'json');

/** 'clearbase-incomplete-players-fall-2025-20261124T1305Z.csv'. */
export const incompletePlayersCsvFilename = (seasonId: string, date: Date): string =>
  `clearbase-incomplete-players-${fileNamePart(seasonId) || 'season'}-${compactTimestamp(date)}.csv`;

/** Player ID, Player Name, Division, Completion %, then one status column per document type (DOC_TYPES order). */
export const INCOMPLETE_PLAYERS_CSV_HEADER: readonly string[] = [
  'Player ID',
  'Player Name',
  'Division',
  'Completion %',
  ...DOC_TYPES.map((type) => DOC_TYPE_COLUMN_LABELS[type]),
];

/** One player as a CSV row: statuses as the tables read them ('Complete', 'Under Review', 'Processing', 'Missing'). */
export const incompletePlayerCsvRow = (player: TReportPlayer): (string | number)[] => [
  player.playerId,
  player.playerName,
  player.division,
  player.completionPercentage,
  ...DOC_TYPES.map((type) => PLAYER_DOC_STATUS_LABELS[player.documentsStatus[type]]),
];

export const buildIncompletePlayersCsv = (players: readonly TReportPlayer[]): CsvText =>
  toCsv(INCOMPLETE_PLAYERS_CSV_HEADER, players.map(incompletePlayerCsvRow));

/**
 * Rows of GET /api/report/missing (ordered by last name, first name, id) in the season report's order: lowest
 * completion first. The sort is stable, so within one completion the server's name order stays.
 */
export const inReportOrder = <T extends { completionPercentage: number }>(rows: readonly T[]): T[] =>
  [...rows].sort((a, b) => a.completionPercentage - b.completionPercentage);
