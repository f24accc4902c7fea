import { describe, expect, it } from 'vitest';
import {
  activePlayerFilterCount,
  clearPlayerFilters,
  DEFAULT_PLAYER_FILTERS,
  divisionChoices,
  nextSort,
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
    expect(parsePlayerFilters('?search=Smith&division=AA&status=pending&missing=birth_certificate&season=fall-2024&sort=-completion&page=3')).toEqual({
      search: 'Smith',
      division: 'AA',
      status: 'pending',
      missing: 'birth_certificate',
      season: 'fall-2024',
      sort: '-completion',
      page: 3,
    });
    expect(parsePlayerFilters('division=Peewee').division).toBe('Peewee');
  });

  it('gives the defaults for an empty query string, with or without the question mark', () => {
    expect(parsePlayerFilters('')).toEqual(DEFAULT_PLAYER_FILTERS);
    expect(parsePlayerFilters('?')).toEqual(DEFAULT_PLAYER_FILTERS);
  });

  it('falls back to the default for unknown or malformed values instead of failing', () => {
    expect(parsePlayerFilters('division=Minors&status=done&missing=passport&sort=age&season=Fall%202025!&page=-2')).toEqual(DEFAULT_PLAYER_FILTERS);
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
    const filters: PlayerFilters = {
      search: 'García-López & co',
      division: 'AAA',
      status: 'incomplete',
      missing: 'waiver',
      season: 'spring-2025',
      sort: '-division',
      page: 7,
    };
    expect(parsePlayerFilters(serializePlayerFilters(filters))).toEqual(filters);
  });

  it('writes the filters in a stable order', () => {
    expect(
      serializePlayerFilters({ search: 'ava', division: 'A', status: 'complete', missing: 'medical', season: '2025', sort: 'completion', page: 2 }),
    ).toBe('search=ava&division=A&status=complete&missing=medical&season=2025&sort=completion&page=2');
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
  it('resets search, division, status, missing type and page but keeps the season and the order', () => {
    const filters: PlayerFilters = { search: 'x', division: 'AAA', status: 'complete', missing: 'residency', season: 'fall-2024', sort: '-name', page: 3 };
    expect(clearPlayerFilters(filters)).toEqual({ ...DEFAULT_PLAYER_FILTERS, season: 'fall-2024', sort: '-name' });
  });

  it('counts the filters that narrow the list, not the season or the order', () => {
    expect(activePlayerFilterCount({ ...DEFAULT_PLAYER_FILTERS, season: '2024', sort: '-name' })).toBe(0);
    expect(activePlayerFilterCount({ ...DEFAULT_PLAYER_FILTERS, division: 'AA', missing: 'birth_certificate' })).toBe(2);
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
    const filters: PlayerFilters = { search: ' Ava ', division: 'AA', status: 'complete', missing: 'waiver', season: 'fall-2025', sort: '-completion', page: 2 };
    expect(missingReportParams(filters, 10)).toEqual({
      season: 'fall-2025',
      division: 'AA',
      search: 'Ava',
      status: 'complete',
      missing: 'waiver',
      sort: '-completion',
      page: 2,
      pageSize: 10,
    });
  });

  it('asks for every row, without page or page size, for the export', () => {
    expect(missingReportParams({ ...DEFAULT_PLAYER_FILTERS, page: 3, status: 'incomplete' })).toEqual({ status: 'incomplete' });
  });
});

describe('sorting', () => {
  it('orders by a column ascending first, then the other way, and back', () => {
    expect(nextSort('name', 'completion')).toBe('completion');
    expect(nextSort('completion', 'completion')).toBe('-completion');
    expect(nextSort('-completion', 'completion')).toBe('completion');
    expect(nextSort('name', 'name')).toBe('-name');
  });
});

describe('divisionChoices', () => {
  it("offers the season's divisions in the league's order, and keeps one already chosen", () => {
    expect(divisionChoices(['A', 'Peewee', 'AAA'], 'all')).toEqual(['all', 'AAA', 'A', 'Peewee']);
    expect(divisionChoices(['A'], 'AA')).toEqual(['all', 'AA', 'A']);
    expect(divisionChoices(undefined, 'all')).toEqual(['all', 'AAA', 'AA', 'A', 'TEST', 'Peewee']);
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
