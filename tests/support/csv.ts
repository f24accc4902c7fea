import { readFile } from 'node:fs/promises';

/** The UTF-8 byte-order mark every CSV of Clearbase starts with. */
export const BOM_BYTES = [0xef, 0xbb, 0xbf] as const;

/** Whether bytes start with the UTF-8 byte-order mark. */
export const startsWithBom = (bytes: Uint8Array): boolean => BOM_BYTES.every((byte, i) => bytes[i] === byte);

/** A CSV's text after its byte-order mark; throws when the bytes do not start with one. */
export function csvTextOf(bytes: Uint8Array): string {
  if (!startsWithBom(bytes)) throw new Error(`the CSV does not start with the UTF-8 byte-order mark: ${Buffer.from(bytes.subarray(0, 3)).toString('hex')}`);
  return Buffer.from(bytes.subarray(3)).toString('utf8');
}

/** A downloaded CSV file's text, after the byte-order mark it must start with. */
export async function readCsvFile(path: string): Promise<string> {
  return csvTextOf(await readFile(path));
}

/** A small RFC 4180 reader for the exported CSV (quoted fields, doubled quotes, CRLF). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}
