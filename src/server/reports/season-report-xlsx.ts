import type { Row, Sheet } from 'write-excel-file/node';
import { exportTables, type ExportTable, type ReportExport } from './season-report-export';

type XlsxSheet = Sheet<Buffer>;

const bold = (value: string) => ({ value, fontWeight: 'bold' as const });

/** One table as a sheet: a bold header row that stays in view while scrolling, then its rows. */
function tableSheet(table: ExportTable): XlsxSheet {
  const data: Row[] = [table.columns.map(bold), ...table.rows.map((row) => [...row])];
  const widths = table.columns.map((column, i) => Math.min(40, Math.max(column.length, ...table.rows.map((row) => String(row[i] ?? '').length)) + 2));
  return { sheet: table.title, data, columns: widths.map((width) => ({ width })), stickyRowsCount: 1 };
}

/**
 * The report as an Excel workbook: a Summary sheet (title, season, when, the figures), then one sheet per table
 * (by division, by document type, monthly, incomplete players), numbers kept as numbers.
 */
export async function seasonReportXlsx(doc: ReportExport): Promise<Buffer> {
  const summary: XlsxSheet = {
    sheet: 'Summary',
    data: [[bold(doc.title)], [doc.subtitle], [doc.generated], [], [bold('Figure'), bold('Value')], ...doc.summary.map((s) => [s.label, s.value])],
    columns: [{ width: 30 }, { width: 36 }],
  };
  // Loaded by the first workbook, not with the server.
  const { default: writeXlsxFile } = await import('write-excel-file/node');
  return writeXlsxFile([summary, ...exportTables(doc).map(tableSheet)]).toBuffer();
}
