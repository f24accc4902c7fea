import { describe, expect, it } from 'vitest';
import { queryKeyToUrl } from '@/lib/api-client';
import { LIVE_REFRESHED_RESOURCES } from '@/lib/live-messages';
import { queryKeyReadsAny } from '@/lib/query-keys';
import { seasonReportQueryOptions } from './api';

describe('season report query', () => {
  it('reads GET /api/reports/season with the applied parameters', () => {
    expect(queryKeyToUrl(seasonReportQueryOptions({ season: 'fall-2024', division: 'AA', compare: false }).queryKey)).toBe(
      '/api/reports/season?season=fall-2024&division=AA&compare=false',
    );
    expect(queryKeyToUrl(seasonReportQueryOptions({ season: undefined, division: 'all', compare: true }).queryKey)).toBe(
      '/api/reports/season?division=all&compare=true',
    );
  });

  it('is among the queries a live document event refreshes', () => {
    const { queryKey } = seasonReportQueryOptions({ season: undefined, division: 'all', compare: true });
    expect(queryKeyReadsAny(queryKey, LIVE_REFRESHED_RESOURCES)).toBe(true);
  });
});
