import {
  csvText,
  DOC_TYPE_COLUMN_LABELS,
  DOC_TYPES,
  monthLabel,
  PLAYER_DOC_STATUS_LABELS,
  type CsvCell,
  type TSeasonReport,
} from '../../contract';

/**
 * What every exported file of a season report holds, in the words of the Reports screen: the title, the summary
 * figures and the tables. The PDF draws it with the charts (season-report-pdf.ts), the workbook puts each table on
 * a sheet of its own (season-report-xlsx.ts) and the CSV writes the tables one below the other, so the three
 * files say the same thing.
 */
export type ExportCell = string | number;

export type ExportTable = {
  /** The table's heading; also the workbook's sheet name, so at most 31 characters. */
  title: string;
  columns: readonly string[];
  rows: ReadonlyArray<readonly ExportCell[]>;
  /** Which columns are figures (aligned right in the PDF). */
  numeric: readonly boolean[];
};

export type ReportExport = {
  title: string;
  /** 'Fall Ball 2025 · All Divisions'. */
  subtitle: string;
  /** 'Generated 26 Nov 2026, 07:40 UTC'. */
  generated: string;
  summary: ReadonlyArray<{ label: string; value: string }>;
  divisions: ExportTable;
  documentTypes: ExportTable;
  monthly: ExportTable;
  incompletePlayers: ExportTable;
  /** Said under the incomplete players when the file lists only the first of them, else null. */
  unlistedPlayers: string | null;
};

export const REPORT_EXPORT_TITLE = 'Season report';

const count = new Intl.NumberFormat('en-US');
/** A percentage of the report, one decimal at most: 40 → '40%', 33.33 → '33.3%'. */
export const percentText = (value: number): string => `${Math.round(value * 10) / 10}%`;

export const divisionText = (division: TSeasonReport['division']): string => (division === 'all' ? 'All Divisions' : division);

/** '26 Nov 2026, 07:40 UTC'. */
export function generatedText(date: Date): string {
  const day = date.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
  return `${day}, ${date.toISOString().slice(11, 16)} UTC`;
}

/** The Total Players card's comparison as a summary figure: 'Players vs Fall Ball 2024' '+25%', or why there is none. */
function growthFigure(summary: TSeasonReport['summary']): { label: string; value: string } | null {
  const { growth } = summary;
  if (growth === null) return null;
  if (growth.previousSeason === null) return { label: 'Players vs Previous Season', value: 'No previous season' };
  const label = `Players vs ${growth.previousSeason.name}`;
  if (growth.totalPlayers === null) return { label, value: 'None to compare' };
  return { label, value: `${growth.totalPlayers > 0 ? '+' : ''}${percentText(growth.totalPlayers)}` };
}

const table = (title: string, columns: readonly string[], numeric: readonly boolean[], rows: ReadonlyArray<readonly ExportCell[]>): ExportTable => ({
  title,
  columns,
  numeric,
  rows,
});

/** The columns of the incomplete players table: id, name, division, completion, then each document type. */
export const INCOMPLETE_PLAYER_COLUMNS: readonly string[] = ['Player ID', 'Player Name', 'Division', 'Completion %', ...DOC_TYPES.map((t) => DOC_TYPE_COLUMN_LABELS[t])];

export function buildReportExport(report: TSeasonReport, generatedAt: Date): ReportExport {
  const { summary } = report;
  const growth = growthFigure(summary);
  const unlisted = report.playersTotal - report.players.length;
  return {
    title: REPORT_EXPORT_TITLE,
    subtitle: `${report.season.name} · ${divisionText(report.division)}`,
    generated: `Generated ${generatedText(generatedAt)}`,
    summary: [
      { label: 'Total Players', value: count.format(summary.totalPlayers) },
      { label: 'Complete Profiles', value: count.format(summary.completeProfiles) },
      { label: 'Incomplete Profiles', value: count.format(summary.incompleteProfiles) },
      { label: 'Completion Rate', value: percentText(summary.completionRate) },
      { label: 'Total Documents', value: count.format(summary.totalDocuments) },
      ...(growth === null ? [] : [growth]),
    ],
    divisions: table(
      'Completion by division',
      ['Division', 'Players', 'Complete', 'Incomplete', 'Completion %'],
      [false, true, true, true, true],
      report.divisionStats.map((d) => [d.division, d.players, d.complete, d.players - d.complete, d.completionRate]),
    ),
    documentTypes: table(
      'Completion by document type',
      ['Document Type', ...(['complete', 'pending', 'processing', 'missing'] as const).map((s) => PLAYER_DOC_STATUS_LABELS[s]), 'Completion %'],
      [false, true, true, true, true, true],
      report.documentStats.map((d) => [DOC_TYPE_COLUMN_LABELS[d.docType], d.complete, d.pending, d.processing, d.missing, d.completionRate]),
    ),
    monthly: table(
      'Monthly registrations',
      ['Month', 'Registrations', 'Completions'],
      [false, true, true],
      report.monthly.map((m) => [monthLabel(m.month), m.registrations, m.completions]),
    ),
    incompletePlayers: table(
      'Incomplete players',
      INCOMPLETE_PLAYER_COLUMNS,
      [false, false, false, true, false, false, false, false],
      report.players.map((p) => [
        p.playerId,
        p.playerName,
        p.division,
        p.completionPercentage,
        ...DOC_TYPES.map((t) => PLAYER_DOC_STATUS_LABELS[p.documentsStatus[t]]),
      ]),
    ),
    unlistedPlayers: unlisted > 0 ? `${count.format(unlisted)} more incomplete ${unlisted === 1 ? 'player' : 'players'} not listed here; the CSV and Excel files list them all.` : null,
  };
}

/** The tables in the order every file shows them. */
export const exportTables = (doc: ReportExport): ExportTable[] => [doc.divisions, doc.documentTypes, doc.monthly, doc.incompletePlayers];

/**
 * The report as one CSV: the title lines and summary figures, then each table under its heading, a blank line
 * between them (a spreadsheet opens it as one sheet, read top to bottom).
 */
export function seasonReportCsv(doc: ReportExport): string {
  const rows: CsvCell[][] = [[doc.title, doc.subtitle], [doc.generated], [], ['Summary'], ...doc.summary.map((s) => [s.label, s.value])];
  for (const t of exportTables(doc)) rows.push([], [t.title], [...t.columns], ...t.rows.map((row) => [...row]));
  return csvText(rows);
}
