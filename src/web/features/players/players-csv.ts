import { DOC_TYPES, type TMissingReport } from '../../../contract';
import { PLAYER_DOC_STATUS_LABELS } from '@/components/status-tones';
import { fileTimestamp, toCsv, type CsvText } from '@/lib/csv';

/** A row of the export: the player's summary and, when the server sent it, the guardian. */
export type PlayerExportRow = TMissingReport['players'][number];

/** The players CSV: exactly these columns, in this order (the player id first, as the Reports exports have it). */
export const PLAYERS_CSV_HEADER = [
  'Player ID',
  'Player Name',
  'Division',
  'Birth Certificate',
  'Residency',
  'Medical',
  'Waiver',
  'Completion %',
  'Guardian Name',
  'Guardian E-mail',
  'Guardian Phone',
] as const;

/** One player as a CSV row: statuses as the tables read them ('Complete', 'Under Review', 'Missing'…); no guardian detail is an empty cell. */
export function playerCsvRow(player: PlayerExportRow): (string | number)[] {
  return [
    player.playerId,
    player.playerName,
    player.division,
    ...DOC_TYPES.map((type) => PLAYER_DOC_STATUS_LABELS[player.documentsStatus[type]]),
    player.completionPercentage,
    player.guardian?.name ?? '',
    player.guardian?.email ?? '',
    player.guardian?.phone ?? '',
  ];
}

export function buildPlayersCsv(players: readonly PlayerExportRow[]): CsvText {
  return toCsv(PLAYERS_CSV_HEADER, players.map(playerCsvRow));
}

/** 'clearbase-players-fall-2025-2026-11-22T11-24-07.csv': the file name names the season and the time. */
export function playersCsvFilename(seasonId: string, date = new Date()): string {
  const season = seasonId.toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '') || 'season';
  return `clearbase-players-${season}-${fileTimestamp(date)}.csv`;
}
