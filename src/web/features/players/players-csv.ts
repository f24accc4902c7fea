import { DOC_TYPES, type TPlayerReportRow } from '../../../contract';
import { PLAYER_DOC_STATUS_LABELS } from '@/components/status-tones';
import { fileTimestamp, toCsv, type CsvText } from '@/lib/csv';

/** The players CSV: exactly these columns, in this order. */
export const PLAYERS_CSV_HEADER = [
  'Player Name',
  'Division',
  'Birth Certificate',
  'Residency',
  'Medical',
  'Waiver',
  'Completion %',
] as const;

/** One player as a CSV row: statuses as the tables read them ('Complete', 'Under Review', 'Missing'…). */
export function playerCsvRow(player: TPlayerReportRow): (string | number)[] {
  return [
    player.playerName,
    player.division,
    ...DOC_TYPES.map((type) => PLAYER_DOC_STATUS_LABELS[player.documentsStatus[type]]),
    player.completionPercentage,
  ];
}

export function buildPlayersCsv(players: readonly TPlayerReportRow[]): CsvText {
  return toCsv(PLAYERS_CSV_HEADER, players.map(playerCsvRow));
}

/** 'clearbase-players-fall-2025-2026-11-22T11-24-07.csv': the file name names the season and the time. */
export function playersCsvFilename(seasonId: string, date = new Date()): string {
  const season = seasonId.toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '') || 'season';
  return `clearbase-players-${season}-${fileTimestamp(date)}.csv`;
}
