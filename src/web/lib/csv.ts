import { saveBlobAs } from './download';

/**
 * CSV for spreadsheets (RFC 4180): every field quoted when it holds a comma, quote or line break;
 * a leading =, +, - or @ is prefixed with a quote so a spreadsheet does not run it as a formula.
 */
export function toCsv(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<string | number | null | undefined>>): string {
  return [header, ...rows].map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}

function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Saves text as a file through the browser's download (no server round trip). */
export function downloadFile(filename: string, content: string, type = 'text/csv;charset=utf-8'): void {
  saveBlobAs(new Blob([content], { type }), filename);
}

/** A timestamp safe in a file name: 2026-11-22T11-24-07. */
export const fileTimestamp = (date = new Date()): string => date.toISOString().slice(0, 19).replace(/:/g, '-');
