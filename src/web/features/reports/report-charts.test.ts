import { describe, expect, it } from 'vitest';
import {
  describeCompletionRateChart,
  describeDivisionChart,
  describeDocumentTypeChart,
  describeHistoryChart,
  describeMonthlyChart,
  describeProjectionChart,
  describeStatusSegments,
  divisionDetails,
  divisionChartData,
  documentTypeChartData,
  historyChartData,
  monthLabel,
  monthlyChartData,
  projectionChartData,
  shortSeasonName,
  statusSegments,
  twoLineLabel,
} from './report-charts';
import { seasonReportFixture } from './season-report.fixture';

const report = seasonReportFixture();

describe('document types', () => {
  it('keeps the four types in order with their short names and counts', () => {
    const data = documentTypeChartData(report.documentStats);
    expect(data.map((d) => d.label)).toEqual(['Birth Certificate', 'Residency', 'Medical', 'Waiver']);
    expect(data[2]).toEqual({ label: 'Medical', complete: 5, pending: 1, processing: 0, missing: 4, completionRate: 50 });
  });

  it('summarises each type as percent and count', () => {
    expect(describeDocumentTypeChart(documentTypeChartData(report.documentStats))).toBe(
      'Completion by document type: Birth Certificate 80% complete (8 of 10), Residency 60% complete (6 of 10), ' +
        'Medical 50% complete (5 of 10), Waiver 70% complete (7 of 10).',
    );
  });
});

describe('divisions', () => {
  it('leaves out divisions without players and gives each its share', () => {
    const data = divisionChartData(report.divisionStats);
    expect(data.map(({ division, players, share }) => ({ division, players, share }))).toEqual([
      { division: 'AAA', players: 4, share: 40 },
      { division: 'AA', players: 3, share: 30 },
      { division: 'A', players: 3, share: 30 },
    ]);
    expect(data[0]?.fill).toBe('var(--chart-1)');
    expect(describeDivisionChart(data)).toBe('Players by division: AAA 4 players (40%), AA 3 players (30%), A 3 players (30%).');
  });

  it('says when there are no players', () => {
    const empty = report.divisionStats.map((d) => ({ ...d, players: 0, complete: 0 }));
    expect(divisionChartData(empty)).toEqual([]);
    expect(describeDivisionChart([])).toBe('Players by division: no players.');
  });
});

describe('months', () => {
  it('names UTC months in English', () => {
    expect(monthLabel('2025-08')).toBe('Aug 2025');
    expect(monthLabel('2026-01')).toBe('Jan 2026');
    expect(monthLabel('2026-13')).toBe('2026-13');
  });

  it('summarises the totals and the busiest month', () => {
    const data = monthlyChartData(report.monthly);
    expect(data[0]).toEqual({ month: '2025-08', label: 'Aug 2025', registrations: 6, completions: 1 });
    expect(describeMonthlyChart(data)).toBe(
      'Monthly registrations and completions, Aug 2025 to Nov 2025: 10 registrations and 4 completions; most registrations in Aug 2025 (6).',
    );
    expect(describeMonthlyChart([])).toBe('Monthly registrations and completions: no months.');
  });
});

describe('history', () => {
  it('shortens season names for the axis', () => {
    expect(shortSeasonName('Spring Ball 2024')).toBe('Spring 2024');
    expect(shortSeasonName('Winter Camp')).toBe('Winter Camp');
  });

  it('splits a tick label into two lines at its last space', () => {
    expect(twoLineLabel('Spring 2024')).toEqual(['Spring', '2024']);
    expect(twoLineLabel('Fall Ball 2026')).toEqual(['Fall Ball', '2026']);
    expect(twoLineLabel('Summer')).toEqual(['Summer', '']);
  });

  it('keeps both kinds, oldest first, and summarises first and last', () => {
    const data = historyChartData(report.history);
    expect(data.map((d) => d.shortLabel)).toEqual(['Fall 2023', 'Spring 2024', 'Fall 2024', 'Spring 2025', 'Fall 2025']);
    expect(data[4]).toMatchObject({ totalPlayers: 10, completeProfiles: 4, completionRate: 40 });
    expect(describeHistoryChart(data)).toBe(
      'Total players and complete profiles per season, 5 seasons: from 6 players (1 complete) in Fall Ball 2023 to 10 players (4 complete) in Fall Ball 2025.',
    );
    expect(describeCompletionRateChart(data.slice(0, 2))).toBe('Completion rate per season: Fall Ball 2023 16.7%, Spring Ball 2024 40%.');
  });
});

describe('projection chart', () => {
  it("continues the report kind's seasons with the projected periods, joined at the last season", () => {
    expect(projectionChartData(report)).toEqual([
      { label: 'Fall Ball 2023', shortLabel: 'Fall 2023', actual: 6, projected: null },
      { label: 'Fall Ball 2024', shortLabel: 'Fall 2024', actual: 8, projected: null },
      { label: 'Fall Ball 2025', shortLabel: 'Fall 2025', actual: 10, projected: 10 },
      { label: 'Fall Ball 2026', shortLabel: 'Fall 2026', actual: null, projected: 12 },
      { label: 'Fall Ball 2027', shortLabel: 'Fall 2027', actual: null, projected: 14 },
    ]);
    expect(describeProjectionChart(report)).toBe(
      'Players per Fall Ball season: Fall Ball 2023 6, Fall Ball 2024 8, Fall Ball 2025 10; projected Fall Ball 2026 12, Fall Ball 2027 14.',
    );
  });

  it('shows the history alone without enough of it', () => {
    const short = { ...report, projections: { enoughHistory: false, message: 'Not enough history', periods: [] } };
    expect(projectionChartData(short).map((d) => d.projected)).toEqual([null, null, null]);
    expect(describeProjectionChart(short)).toBe('Players per Fall Ball season: Fall Ball 2023 6, Fall Ball 2024 8, Fall Ball 2025 10.');
  });
});

describe('detailed analysis', () => {
  it("cuts a type's players into its four statuses", () => {
    const [, residency] = report.documentStats;
    if (!residency) throw new Error('fixture has four types');
    const segments = statusSegments(residency);
    expect(segments.map(({ status, count, percent }) => ({ status, count, percent }))).toEqual([
      { status: 'complete', count: 6, percent: 60 },
      { status: 'pending', count: 2, percent: 20 },
      { status: 'processing', count: 1, percent: 10 },
      { status: 'missing', count: 1, percent: 10 },
    ]);
    expect(describeStatusSegments('Residency', segments)).toBe('Residency: 6 verified, 2 under review, 1 processing, 1 missing.');
    expect(statusSegments({ docType: 'waiver', complete: 0, pending: 0, processing: 0, missing: 0, completionRate: 0 }).map((s) => s.percent)).toEqual([
      0, 0, 0, 0,
    ]);
  });

  it("gives each division its incomplete players and its share of the season's", () => {
    const details = divisionDetails(report.divisionStats);
    expect(details[0]).toEqual({ division: 'AAA', players: 4, complete: 2, incomplete: 2, completionRate: 50, share: 40 });
    expect(details.map((d) => d.share)).toEqual([40, 30, 30, 0, 0]);
  });
});
