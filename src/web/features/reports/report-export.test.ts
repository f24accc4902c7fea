import { describe, expect, it } from 'vitest';
import {
  buildIncompletePlayersCsv,
  buildReportExport,
  incompletePlayerCsvRow,
  incompletePlayersCsvFilename,
  INCOMPLETE_PLAYERS_CSV_HEADER,
  inReportOrder,
  reportFilename,
} from './report-export';
import { seasonReportFixture } from './season-report.fixture';

const AT = new Date('2026-11-24T13:05:59.250Z');

describe('report file names', () => {
  it('names the JSON as the server names the other files: season, division when one, UTC minute', () => {
    const report = seasonReportFixture();
    expect(reportFilename(report, AT)).toBe('clearbase-report-fall-2025-20261124T1305Z.json');
    expect(reportFilename({ ...report, division: 'AA' }, AT)).toBe('clearbase-report-fall-2025-aa-20261124T1305Z.json');
  });

  it('names the CSV after the season and the time', () => {
    expect(incompletePlayersCsvFilename('spring-2024', AT)).toBe('clearbase-incomplete-players-spring-2024-20261124T1305Z.csv');
    expect(incompletePlayersCsvFilename('Fall Ball 2025', AT)).toBe('clearbase-incomplete-players-fall-ball-2025-20261124T1305Z.csv');
  });
});

describe('buildReportExport', () => {
  it('holds exactly the generation time, season, division, summary, type and division figures and players', () => {
    const report = seasonReportFixture();
    const exported = buildReportExport(report, AT);
    expect(Object.keys(exported)).toEqual(['generatedAt', 'season', 'division', 'summary', 'documentStats', 'divisionStats', 'players']);
    expect(exported.generatedAt).toBe('2026-11-24T13:05:59.250Z');
    expect(exported.season).toEqual({ id: 'fall-2025', name: 'Fall Ball 2025', year: 2025, kind: 'Fall Ball' });
    expect(exported.division).toBe('all');
    expect(exported.summary.totalPlayers).toBe(10);
    expect(exported.summary.growth?.totalPlayers).toBe(25);
    expect(exported.documentStats.map((d) => d.completionRate)).toEqual([80, 60, 50, 70]);
    expect(exported.divisionStats).toHaveLength(5);
    expect(exported.players.map((p) => p.playerId)).toEqual(['clearbase-2025-00000001', 'clearbase-2025-00000002']);
  });

  it('round-trips through JSON unchanged', () => {
    const exported = buildReportExport(seasonReportFixture(), AT);
    expect(JSON.parse(JSON.stringify(exported))).toEqual(exported);
  });
});

describe('incomplete players CSV', () => {
  it('has the id, name, division and completion, then one column per document type', () => {
    expect(INCOMPLETE_PLAYERS_CSV_HEADER).toEqual([
      'Player ID',
      'Player Name',
      'Division',
      'Completion %',
      'Birth Certificate',
      'Residency',
      'Medical',
      'Waiver',
    ]);
  });

  it('writes each status as the tables read it', () => {
    const [first] = seasonReportFixture().players;
    if (!first) throw new Error('fixture has players');
    expect(incompletePlayerCsvRow(first)).toEqual(['clearbase-2025-00000001', 'Ava Smith', 'AA', 0, 'Missing', 'Under Review', 'Missing', 'Processing']);
  });

  it('quotes names with commas and quotes, and ends every line with CRLF', () => {
    expect(buildIncompletePlayersCsv(seasonReportFixture().players)).toBe(
      '\uFEFFPlayer ID,Player Name,Division,Completion %,Birth Certificate,Residency,Medical,Waiver\r\n' +
        'clearbase-2025-00000001,Ava Smith,AA,0,Missing,Under Review,Missing,Processing\r\n' +
        'clearbase-2025-00000002,"Renée ""Rae"" Côté, Jr",AAA,75,Verified,Verified,Under Review,Verified\r\n',
    );
  });

  it('defuses a name a spreadsheet would run as a formula', () => {
    const [first] = seasonReportFixture().players;
    if (!first) throw new Error('fixture has players');
    const csv = buildIncompletePlayersCsv([{ ...first, playerName: '=HYPERLINK("x")' }]);
    expect(csv.split('\r\n')[1]).toBe(`clearbase-2025-00000001,"'=HYPERLINK(""x"")",AA,0,Missing,Under Review,Missing,Processing`);
  });
});

describe('inReportOrder', () => {
  it('puts the lowest completion first and keeps the name order within one completion', () => {
    const rows = [
      { playerId: 'a', completionPercentage: 50 },
      { playerId: 'b', completionPercentage: 0 },
      { playerId: 'c', completionPercentage: 50 },
      { playerId: 'd', completionPercentage: 25 },
      { playerId: 'e', completionPercentage: 0 },
    ];
    expect(inReportOrder(rows).map((r) => r.playerId)).toEqual(['b', 'e', 'd', 'a', 'c']);
    expect(rows.map((r) => r.playerId)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });
});
