import { describe, expect, it } from 'vitest';
import { buildPlayersCsv, playerCsvRow, playersCsvFilename, PLAYERS_CSV_HEADER, type PlayerExportRow } from './players-csv';

const player = (overrides: Partial<PlayerExportRow> = {}): PlayerExportRow => ({
  playerId: 'clearbase-2025-1a2b3c4d',
  playerName: 'Ava Smith',
  firstName: 'Ava',
  lastName: 'Smith',
  division: 'AA',
  documentsStatus: { birth_certificate: 'complete', residency: 'pending', medical: 'processing', waiver: 'missing' },
  completionPercentage: 25,
  expiresOn: null,
  leagueAge: 11,
  ageFitsDivision: false,
  guardian: { name: 'Maria Smith', email: 'maria@example.org', phone: '555-0100' },
  ...overrides,
});

describe('players CSV', () => {
  it('has exactly the players CSV columns, in order', () => {
    expect(PLAYERS_CSV_HEADER).toEqual([
      'Player ID',
      'Player Name',
      'Division',
      'Birth Certificate',
      'Residency',
      'Medical',
      'Waiver',
      'Completion %',
      'Guardian Name',
      'Guardian E-mail',
      'Guardian Phone',
    ]);
  });

  it('writes one row per player: id, name, division, the four statuses in column order, the percentage, the guardian', () => {
    expect(playerCsvRow(player())).toEqual([
      'clearbase-2025-1a2b3c4d',
      'Ava Smith',
      'AA',
      'Verified',
      'Under Review',
      'Processing',
      'Missing',
      25,
      'Maria Smith',
      'maria@example.org',
      '555-0100',
    ]);
  });

  it('leaves the guardian cells empty when no guardian detail is on file', () => {
    expect(playerCsvRow(player({ guardian: { name: null, email: null, phone: null } })).slice(-3)).toEqual(['', '', '']);
  });

  it('writes an expired approval and a type not required as the screens read them', () => {
    const row = playerCsvRow(player({ documentsStatus: { birth_certificate: 'not_required', residency: 'complete', medical: 'expired', waiver: 'complete' } }));
    expect(row.slice(3, 7)).toEqual(['Not Required', 'Verified', 'Expired', 'Verified']);
  });

  it('quotes names holding commas or quotes and ends every line with CRLF', () => {
    const csv = buildPlayersCsv([player({ playerName: 'Renée "Rae" Côté, Jr', completionPercentage: 100 })]);
    expect(csv).toBe(
      '\uFEFFPlayer ID,Player Name,Division,Birth Certificate,Residency,Medical,Waiver,Completion %,Guardian Name,Guardian E-mail,Guardian Phone\r\n' +
        'clearbase-2025-1a2b3c4d,"Renée ""Rae"" Côté, Jr",AA,Verified,Under Review,Processing,Missing,100,Maria Smith,maria@example.org,555-0100\r\n',
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
