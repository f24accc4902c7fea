import { describe, expect, it } from 'vitest';
import { divisionLabel, formatChange, formatPercent, plural, reportTitle, totalPlayersGrowth, unlistedPlayersText } from './report-text';
import { seasonReportFixture } from './season-report.fixture';

const summary = seasonReportFixture().summary;

describe('formatPercent and formatChange', () => {
  it('show at most one decimal', () => {
    expect(formatPercent(40)).toBe('40%');
    expect(formatPercent(33.333)).toBe('33.3%');
    expect(formatPercent(0)).toBe('0%');
  });

  it('sign a change', () => {
    expect(formatChange(25)).toBe('+25%');
    expect(formatChange(-12.5)).toBe('-12.5%');
    expect(formatChange(0)).toBe('0%');
  });
});

describe('totalPlayersGrowth', () => {
  it('is absent when the report was not compared', () => {
    expect(totalPlayersGrowth({ ...summary, growth: null })).toBeNull();
  });

  it('names the change and the season compared with', () => {
    expect(totalPlayersGrowth(summary)).toEqual({ kind: 'change', text: '+25% vs Fall Ball 2024', positive: true });
    const fewer = { ...summary, growth: { totalPlayers: -8.3, completeProfiles: 0, previousSeason: { id: 'fall-2024', name: 'Fall Ball 2024', year: 2024 } } };
    expect(totalPlayersGrowth(fewer)).toEqual({ kind: 'change', text: '-8.3% vs Fall Ball 2024', positive: false });
  });

  it("says 'No previous season' when there is none", () => {
    expect(totalPlayersGrowth({ ...summary, growth: { totalPlayers: null, completeProfiles: null, previousSeason: null } })).toEqual({
      kind: 'none',
      text: 'No previous season',
    });
  });

  it('says so when the previous season had no players to compare with', () => {
    const empty = { totalPlayers: null, completeProfiles: null, previousSeason: { id: 'fall-2024', name: 'Fall Ball 2024', year: 2024 } };
    expect(totalPlayersGrowth({ ...summary, growth: empty })?.text).toBe('No players in Fall Ball 2024 to compare');
  });
});

describe('labels', () => {
  it('names the division filter and the report', () => {
    expect(divisionLabel('all')).toBe('All Divisions');
    expect(divisionLabel('AA')).toBe('AA');
    expect(divisionLabel('Peewee')).toBe('Peewee');
    expect(reportTitle(seasonReportFixture())).toBe('Fall Ball 2025 · All Divisions');
  });

  it('counts in words', () => {
    expect(plural(1, 'player')).toBe('1 player');
    expect(plural(1204, 'player')).toBe('1,204 players');
  });
});

describe('unlistedPlayersText', () => {
  it('counts the incomplete players the server did not list', () => {
    const report = seasonReportFixture();
    expect(unlistedPlayersText(report)).toBe('4 more incomplete players not listed here; the CSV export has them all.');
    expect(unlistedPlayersText({ ...report, playersTotal: 3 })).toBe('1 more incomplete player not listed here; the CSV export has them all.');
    expect(unlistedPlayersText({ ...report, playersTotal: 2 })).toBeNull();
  });
});
