import { describe, expect, it } from 'vitest';
import {
  DEFAULT_REPORT_PARAMS,
  parseReportParams,
  sameReportParams,
  seasonReportQueryParams,
  serializeReportParams,
} from './report-params';

describe('parseReportParams', () => {
  it('reads an empty query as the current season, all divisions, compared', () => {
    expect(parseReportParams('')).toEqual({ season: undefined, division: 'all', compare: true });
  });

  it('reads season, division and compare from the query string', () => {
    expect(parseReportParams('?season=spring-2024&division=AA&compare=false')).toEqual({
      season: 'spring-2024',
      division: 'AA',
      compare: false,
    });
    expect(parseReportParams('season=2023')).toEqual({ season: '2023', division: 'all', compare: true });
  });

  it('falls back to the default for an unknown division, a malformed season or a compare that is not false', () => {
    expect(parseReportParams('?season=Fall%20Ball!&division=Peewee&compare=no')).toEqual(DEFAULT_REPORT_PARAMS);
    expect(parseReportParams('?division=aa').division).toBe('all');
  });
});

describe('serializeReportParams', () => {
  it('leaves out every default', () => {
    expect(serializeReportParams(DEFAULT_REPORT_PARAMS)).toBe('');
  });

  it('writes what differs, and reads back to the same parameters', () => {
    const params = { season: 'fall-2024', division: 'AAA', compare: false } as const;
    expect(serializeReportParams(params)).toBe('season=fall-2024&division=AAA&compare=false');
    expect(parseReportParams(serializeReportParams(params))).toEqual(params);
  });
});

describe('sameReportParams', () => {
  it('tells applied parameters from edited ones', () => {
    expect(sameReportParams(DEFAULT_REPORT_PARAMS, { season: undefined, division: 'all', compare: true })).toBe(true);
    expect(sameReportParams(DEFAULT_REPORT_PARAMS, { ...DEFAULT_REPORT_PARAMS, compare: false })).toBe(false);
    expect(sameReportParams(DEFAULT_REPORT_PARAMS, { ...DEFAULT_REPORT_PARAMS, season: 'fall-2025' })).toBe(false);
  });
});

describe('seasonReportQueryParams', () => {
  it('spells out division and compare, and leaves out an absent season', () => {
    expect(seasonReportQueryParams(DEFAULT_REPORT_PARAMS)).toEqual({ division: 'all', compare: 'true' });
    expect(seasonReportQueryParams({ season: 'spring-2025', division: 'A', compare: false })).toEqual({
      season: 'spring-2025',
      division: 'A',
      compare: 'false',
    });
  });
});
