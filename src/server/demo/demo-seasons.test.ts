import { describe, expect, it } from 'vitest';
import { data, tally } from './demo-data.fixture';

describe('generateDemoData: seasons', () => {
  it('creates the six seasons of the reports screen in order, with their dates', () => {
    expect(data.seasons.map((s) => [s.id, s.name, s.kind, s.year, s.startsOn, s.endsOn])).toEqual([
      ['spring-2023', 'Spring Ball 2023', 'Spring Ball', 2023, '2023-03-01', '2023-06-30'],
      ['fall-2023', 'Fall Ball 2023', 'Fall Ball', 2023, '2023-08-15', '2023-11-30'],
      ['spring-2024', 'Spring Ball 2024', 'Spring Ball', 2024, '2024-03-01', '2024-06-30'],
      ['fall-2024', 'Fall Ball 2024', 'Fall Ball', 2024, '2024-08-15', '2024-11-30'],
      ['spring-2025', 'Spring Ball 2025', 'Spring Ball', 2025, '2025-03-01', '2025-06-30'],
      ['fall-2025', 'Fall Ball 2025', 'Fall Ball', 2025, '2025-08-15', '2025-11-30'],
    ]);
  });

  it('marks only Fall Ball 2025 as the current season', () => {
    expect(data.seasons.filter((s) => s.isCurrent).map((s) => s.id)).toEqual(['fall-2025']);
  });

  it('grows: every season has more registrations than the one before, so each Fall beats the last', () => {
    const perSeason = tally(data.registrations, (r) => r.seasonId);
    const counts = data.seasons.map((s) => perSeason.get(s.id) ?? 0);
    for (let i = 1; i < counts.length; i += 1) expect(counts[i]).toBeGreaterThan(counts[i - 1] ?? 0);
  });
});
