/**
 * The CSV files Clearbase writes, in the browser and on the server alike. Each starts with a UTF-8 byte-order
 * mark, the sign Excel needs to read the file as UTF-8 rather than the computer's legacy code page (without
 * it "Côté" opens as "CÃ´tÃ©"); other spreadsheets and CSV readers skip it.
 */
export const UTF8_BOM = '\uFEFF';

/** The Content-Type of a CSV answer or download. */
export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

export type CsvCell = string | number | null | undefined;

declare const csvTextBrand: unique symbol;
/**
 * Text made by csvText or toCsv, and so starting with the byte-order mark: what the web app's CSV download
 * takes, so no CSV can be saved without going through them.
 */
export type CsvText = string & { readonly [csvTextBrand]: true };

/**
 * A CSV file's text (RFC 4180): the byte-order mark, then every row, each ended by CRLF. A field is quoted when
 * it holds a comma, quote or line break; text starting with =, +, -, @, a tab or a carriage return gets a
 * leading quote so a spreadsheet does not run it as a formula (numbers are left alone).
 */
export function csvText(rows: ReadonlyArray<ReadonlyArray<CsvCell>>): CsvText {
  return (UTF8_BOM + rows.map((row) => `${row.map(csvField).join(',')}\r\n`).join('')) as CsvText;
}

/** A CSV file of one table: its header row, then its rows. */
export function toCsv(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<CsvCell>>): CsvText {
  return csvText([header, ...rows]);
}

function csvField(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
