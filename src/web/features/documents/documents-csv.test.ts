import { describe, expect, it } from 'vitest';
import type { TDocumentListItem } from '../../../contract';
import { DOCUMENTS_CSV_HEADER, documentCsvRow, documentsCsv, documentsCsvFileName } from './documents-csv';

const document = (overrides: Partial<TDocumentListItem> = {}): TDocumentListItem => ({
  id: '0b3f2c1e-1111-4222-8333-944444444444',
  fileName: 'birth certificate.pdf',
  playerId: 'CB-2025-1a2b3c4d',
  playerName: 'Ava Smith',
  docType: 'birth_certificate',
  status: 'pending',
  uploadedAt: '2025-09-01T10:15:00.000Z',
  bytes: 123456,
  fileSha256: 'ab'.repeat(32),
  scanFailed: false,
  division: 'AAA',
  reviewNotes: null,
  storageDriver: 'local',
  opened: false,
  fileRemoved: false,
  ...overrides,
});

describe('documents CSV', () => {
  it('has the documents CSV columns in order', () => {
    expect(DOCUMENTS_CSV_HEADER).toEqual(['ID', 'Player Name', 'Document Type', 'File Name', 'Status', 'Size (bytes)', 'Uploaded At']);
  });

  it('writes one row per document with the labels the screen shows', () => {
    expect(documentCsvRow(document())).toEqual([
      '0b3f2c1e-1111-4222-8333-944444444444',
      'Ava Smith',
      'Birth Certificate',
      'birth certificate.pdf',
      'Under Review',
      123456,
      '2025-09-01T10:15:00.000Z',
    ]);
  });

  it("writes 'Undetected' for a document without a detected type", () => {
    expect(documentCsvRow(document({ docType: null, status: 'verified' }))[2]).toBe('Undetected');
  });

  it("writes 'Scan failed, will retry' for a document whose virus scan keeps failing", () => {
    expect(documentCsvRow(document({ status: 'processing', scanFailed: true }))[4]).toBe('Scan failed, will retry');
    expect(documentCsvRow(document({ status: 'processing' }))[4]).toBe('Processing');
  });

  it("writes 'Verified, file removed' for a verified document whose file was removed", () => {
    expect(documentCsvRow(document({ status: 'verified', fileRemoved: true }))[4]).toBe('Verified, file removed');
  });

  it('quotes file names with commas and defuses formula-looking names', () => {
    const csv = documentsCsv([document({ fileName: 'scan, page 1.pdf' }), document({ id: 'x', fileName: '=cmd.pdf' })]);
    expect(csv.startsWith('\uFEFF')).toBe(true);
    const lines = csv.slice(1).trimEnd().split('\r\n');
    expect(lines[0]).toBe('ID,Player Name,Document Type,File Name,Status,Size (bytes),Uploaded At');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain('"scan, page 1.pdf"');
    expect(lines[2]).toContain(",'=cmd.pdf,");
  });

  it('names the file with a timestamp', () => {
    expect(documentsCsvFileName(new Date('2026-11-22T11:24:07Z'))).toBe('documents-2026-11-22T11-24-07.csv');
  });
});
