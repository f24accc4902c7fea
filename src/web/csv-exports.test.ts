import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { UTF8_BOM } from '../contract';
import { DETAIL_CSV_HEADER, detailCsvRows } from './features/dashboard/stat-details';
import { documentsCsv } from './features/documents/documents-csv';
import { buildPlayersCsv } from './features/players/players-csv';
import { buildIncompletePlayersCsv } from './features/reports/report-export';
import { seasonReportFixture } from './features/reports/season-report.fixture';
import { toCsv } from './lib/csv';

const SRC = fileURLToPath(new URL('..', import.meta.url));

/** Every source file under src/, tests left out, relative to src/. */
function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path.relative(SRC, full)] : [];
  });
}

/** The bytes a CSV is saved as start with the byte-order mark EF BB BF, once. */
function expectBom(csv: string): void {
  expect([...Buffer.from(csv, 'utf8').subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  expect(csv.split(UTF8_BOM)).toHaveLength(2);
}

describe('every CSV the web app saves', () => {
  it('starts with the UTF-8 byte-order mark: players, documents, the dashboard details, the incomplete players', () => {
    expectBom(buildPlayersCsv([]));
    expectBom(documentsCsv([]));
    expectBom(toCsv(DETAIL_CSV_HEADER, detailCsvRows([])));
    expectBom(buildIncompletePlayersCsv(seasonReportFixture().players));
  });

  it('is written by the shared writer: no other source file joins fields with commas into CRLF lines', () => {
    const writers = sourceFiles().filter((file) => {
      const text = readFileSync(path.join(SRC, file), 'utf8');
      return text.includes("join(',')") && text.includes('\\r\\n');
    });
    expect(writers).toEqual([path.join('contract', 'csv.ts')]);
  });

  it('is typed as made by it: the download takes CsvText, which only csvText and toCsv make', () => {
    const savers = sourceFiles().filter((file) => readFileSync(path.join(SRC, file), 'utf8').includes("'text/csv"));
    expect(savers).toEqual([path.join('contract', 'csv.ts')]);
    expect(readFileSync(path.join(SRC, 'web', 'lib', 'csv.ts'), 'utf8')).toMatch(/export function downloadFile\(filename: string, content: CsvText\)/);
  });
});
