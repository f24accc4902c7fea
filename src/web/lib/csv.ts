import { CSV_CONTENT_TYPE, type CsvText } from '../../contract';
import { saveBlobAs } from './download';

/** Every CSV of the web app is written by the contract's toCsv, so each starts with the UTF-8 byte-order mark. */
export { toCsv, type CsvText } from '../../contract';

/** Saves a CSV (made by toCsv, so with its byte-order mark) through the browser's download; no server round trip. */
export function downloadFile(filename: string, content: CsvText): void {
  saveBlobAs(new Blob([content], { type: CSV_CONTENT_TYPE }), filename);
}

/** A timestamp safe in a file name: 2026-11-22T11-24-07. */
export const fileTimestamp = (date = new Date()): string => date.toISOString().slice(0, 19).replace(/:/g, '-');
