import { describe, expect, it } from 'vitest';
import {
  clearPlayerFilters,
  DEFAULT_PLAYER_FILTERS,
  hasActivePlayerFilters,
  missingReportParams,
  pageCountFor,
  parsePlayerFilters,
  serializePlayerFilters,
  updatePlayerFilters,
  type PlayerFilters,
} from './player-filters';

describe('parsePlayerFilters', () => {
  it('reads every filter from the query string', () => {
    expect(parsePlayerFilters('?search=Smith&division=AA&status=pending&season=fall-2024&page=3')).toEqual({
      search: 'Smith',
      division: 'AA',
      status: 'pending',
      season: 'fall-2024',
      page: 3,
    });
  });

  it('gives the defaults for an empty query string, with or without the question mark', () => {
    expect(parsePlayerFilters('')).toEqual(DEFAULT_PLAYER_FILTERS);
    expect(parsePlayerFilters('?')).toEqual(DEFAULT_PLAYER_FILTERS);
  });

  it('falls back to the default for unknown or malformed values instead of failing', () => {
    expect(parsePlayerFilters('division=Peewee&status=done&season=Fall%202025!&page=-2')).toEqual(DEFAULT_PLAYER_FILTERS);
    expect(parsePlayerFilters('page=1.5').page).toBe(1);
    expect(parsePlayerFilters('page=abc').page).toBe(1);
  });

  it('keeps a year as the season, as the dashboard sends it', () => {
    expect(parsePlayerFilters('season=2024').season).toBe('2024');
  });

  it('decodes a search with spaces and symbols', () => {
    expect(parsePlayerFilters('search=O%27Brien+Mia').search).toBe("O'Brien Mia");
  });
});

describe('serializePlayerFilters', () => {
  it('leaves out every default', () => {
    expect(serializePlayerFilters(DEFAULT_PLAYER_FILTERS)).toBe('');
  });

  it('round-trips through parsePlayerFilters', () => {
    const filters: PlayerFilters = { search: 'García-López & co', division: 'AAA', status: 'incomplete', season: 'spring-2025', page: 7 };
    expect(parsePlayerFilters(serializePlayerFilters(filters))).toEqual(filters);
  });

  it('writes the filters in a stable order', () => {
    expect(serializePlayerFilters({ search: 'ava', division: 'A', status: 'complete', season: '2025', page: 2 })).toBe(
      'search=ava&division=A&status=complete&season=2025&page=2',
    );
  });
});

describe('updatePlayerFilters', () => {
  const onPage4: PlayerFilters = { ...DEFAULT_PLAYER_FILTERS, search: 'kim', page: 4 };

  it('goes back to page 1 when a filter changes', () => {
    expect(updatePlayerFilters(onPage4, { division: 'AA' })).toEqual({ ...onPage4, division: 'AA', page: 1 });
  });

  it('keeps the other filters when only the page changes', () => {
    expect(updatePlayerFilters(onPage4, { page: 5 })).toEqual({ ...onPage4, page: 5 });
  });
});

describe('clearPlayerFilters', () => {
  it('resets search, division, status and page but keeps the season', () => {
    const filters: PlayerFilters = { search: 'x', division: 'AAA', status: 'complete', season: 'fall-2024', page: 3 };
    expect(clearPlayerFilters(filters)).toEqual({ ...DEFAULT_PLAYER_FILTERS, season: 'fall-2024' });
  });

  it('counts a blank search as no filter', () => {
    expect(hasActivePlayerFilters({ ...DEFAULT_PLAYER_FILTERS, search: '   ' })).toBe(false);
    expect(hasActivePlayerFilters({ ...DEFAULT_PLAYER_FILTERS, status: 'pending' })).toBe(true);
  });
});

describe('missingReportParams', () => {
  it('omits the division and status when they are all, and a blank search', () => {
    expect(missingReportParams({ ...DEFAULT_PLAYER_FILTERS, search: '  ' }, 10)).toEqual({ page: 1, pageSize: 10 });
  });

  it('sends the trimmed search, the filters and the page', () => {
    expect(missingReportParams({ search: ' Ava ', division: 'AA', status: 'complete', season: 'fall-2025', page: 2 }, 10)).toEqual({
      season: 'fall-2025',
      division: 'AA',
      search: 'Ava',
      status: 'complete',
      page: 2,
      pageSize: 10,
    });
  });

  it('asks for every row, without page or page size, for the export', () => {
    expect(missingReportParams({ ...DEFAULT_PLAYER_FILTERS, page: 3, status: 'incomplete' })).toEqual({ status: 'incomplete' });
  });
});

describe('pageCountFor', () => {
  it('fills pages of 10 and never answers 0 pages', () => {
    expect(pageCountFor(0)).toBe(1);
    expect(pageCountFor(10)).toBe(1);
    expect(pageCountFor(11)).toBe(2);
    expect(pageCountFor(600)).toBe(60);
  });
});
