import { DOC_TYPE_LABELS, FILE_REMOVED_LABEL, type TDocumentListItem } from '../../../contract';
import { documentStatusLabel } from '@/components/status-tones';
import { fileTimestamp, toCsv, type CsvText } from '@/lib/csv';

/** The documents CSV columns, in this order. */
export const DOCUMENTS_CSV_HEADER = ['ID', 'Player Name', 'Document Type', 'File Name', 'Status', 'Size (bytes)', 'Uploaded At'] as const;

/** What the screen says for a document without a detected type. */
export const UNDETECTED_LABEL = 'Undetected';

export type TDocumentCsvRow = [string, string, string, string, string, number, string];

/** One CSV row per document, with the labels the screen shows; the upload time as an ISO instant. */
export function documentCsvRow(document: TDocumentListItem): TDocumentCsvRow {
  return [
    document.id,
    document.playerName,
    document.docType ? DOC_TYPE_LABELS[document.docType] : UNDETECTED_LABEL,
    document.fileName,
    document.fileRemoved ? FILE_REMOVED_LABEL : documentStatusLabel(document.status, document.scanFailed),
    document.bytes,
    document.uploadedAt,
  ];
}

export function documentsCsv(documents: readonly TDocumentListItem[]): CsvText {
  return toCsv(DOCUMENTS_CSV_HEADER, documents.map(documentCsvRow));
}

/** The file name carries a timestamp, e.g. documents-2026-11-22T11-24-07.csv. */
export function documentsCsvFileName(now = new Date()): string {
  return `documents-${fileTimestamp(now)}.csv`;
}
