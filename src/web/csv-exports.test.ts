import { describe, expect, it } from 'vitest';
import { UTF8_BOM } from '../contract';
import { DETAIL_CSV_HEADER, detailCsvRows } from './features/dashboard/stat-details';
import { documentsCsv } from './features/documents/documents-csv';
import { buildPlayersCsv } from './features/players/players-csv';
import { buildIncompletePlayersCsv } from './features/reports/report-export';
import { seasonReportFixture } from './features/reports/season-report.fixture';
import { toCsv } from './lib/csv';

/** The bytes a CSV is saved as (a Blob encodes text as UTF-8) start with the byte-order mark EF BB BF, once. */
function expectBom(csv: string): void {
  expect([...new TextEncoder().encode(csv).subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  expect(csv.split(UTF8_BOM)).toHaveLength(2);
}

describe('every CSV the web app saves', () => {
  it('starts with the UTF-8 byte-order mark: players, documents, the dashboard details, the incomplete players', () => {
    expectBom(buildPlayersCsv([]));
    expectBom(documentsCsv([]));
    expectBom(toCsv(DETAIL_CSV_HEADER, detailCsvRows([])));
    expectBom(buildIncompletePlayersCsv(seasonReportFixture().players));
  });
});
