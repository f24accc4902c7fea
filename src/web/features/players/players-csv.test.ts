import { describe, expect, it } from 'vitest';
import type { TPlayerReportRow } from '../../../contract';
import { buildPlayersCsv, playerCsvRow, playersCsvFilename, PLAYERS_CSV_HEADER } from './players-csv';

const player = (overrides: Partial<TPlayerReportRow> = {}): TPlayerReportRow => ({
  playerId: 'clearbase-2025-1a2b3c4d',
  playerName: 'Ava Smith',
  firstName: 'Ava',
  lastName: 'Smith',
  division: 'AA',
  documentsStatus: { birth_certificate: 'complete', residency: 'pending', medical: 'processing', waiver: 'missing' },
  completionPercentage: 25,
  ...overrides,
});

describe('players CSV', () => {
  it('has exactly the players CSV columns, in order', () => {
    expect(PLAYERS_CSV_HEADER).toEqual(['Player Name', 'Division', 'Birth Certificate', 'Residency', 'Medical', 'Waiver', 'Completion %']);
  });

  it('writes one row per player: name, division, the four statuses in column order, the percentage', () => {
    expect(playerCsvRow(player())).toEqual(['Ava Smith', 'AA', 'Complete', 'Under Review', 'Processing', 'Missing', 25]);
  });

  it('quotes names holding commas or quotes and ends every line with CRLF', () => {
    const csv = buildPlayersCsv([player({ playerName: 'Renée "Rae" Côté, Jr', completionPercentage: 100 })]);
    expect(csv).toBe(
      '\uFEFFPlayer Name,Division,Birth Certificate,Residency,Medical,Waiver,Completion %\r\n' +
        '"Renée ""Rae"" Côté, Jr",AA,Complete,Under Review,Processing,Missing,100\r\n',
    );
  });

  it('writes only the header for no players', () => {
    expect(buildPlayersCsv([]).split('\r\n')).toEqual([`\uFEFF${PLAYERS_CSV_HEADER.join(',')}`, '']);
  });

  it('names the file after the season and the time', () => {
    expect(playersCsvFilename('fall-2025', new Date('2026-11-22T11:24:07.123Z'))).toBe('clearbase-players-fall-2025-2026-11-22T11-24-07.csv');
    expect(playersCsvFilename('Fall Ball 2025', new Date('2026-11-22T11:24:07Z'))).toBe('clearbase-players-fall-ball-2025-2026-11-22T11-24-07.csv');
  });
});
