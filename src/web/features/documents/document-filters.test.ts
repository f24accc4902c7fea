import { describe, expect, it } from 'vitest';
import { documentListQuery } from './api';
import {
  changeDocumentFilters,
  DEFAULT_DOCUMENT_FILTERS,
  documentFiltersToParams,
  hasActiveDocumentFilters,
  pageCountOf,
  parseDocumentFilters,
} from './document-filters';

describe('document filters in the URL', () => {
  it('reads search, status, type and page', () => {
    expect(parseDocumentFilters(new URLSearchParams('q=ava&status=pending&type=undetected&page=3'))).toEqual({
      search: 'ava',
      status: 'pending',
      docType: 'undetected',
      page: 3,
    });
  });

  it('falls back to the defaults for unknown or malformed values', () => {
    expect(parseDocumentFilters(new URLSearchParams('status=lost&type=passport&page=-2'))).toEqual(DEFAULT_DOCUMENT_FILTERS);
    expect(parseDocumentFilters(new URLSearchParams('page=1.5')).page).toBe(1);
  });

  it('leaves defaults out of the query string and round-trips the rest', () => {
    expect(documentFiltersToParams(DEFAULT_DOCUMENT_FILTERS).toString()).toBe('');
    const filters = { search: 'smith', status: 'rejected', docType: 'medical', page: 2 } as const;
    expect(parseDocumentFilters(documentFiltersToParams(filters))).toEqual(filters);
  });

  it('goes back to page 1 when a filter changes', () => {
    expect(changeDocumentFilters({ ...DEFAULT_DOCUMENT_FILTERS, page: 4 }, { status: 'verified' })).toEqual({
      ...DEFAULT_DOCUMENT_FILTERS,
      status: 'verified',
      page: 1,
    });
  });

  it('knows when any filter is active', () => {
    expect(hasActiveDocumentFilters(DEFAULT_DOCUMENT_FILTERS)).toBe(false);
    expect(hasActiveDocumentFilters({ ...DEFAULT_DOCUMENT_FILTERS, search: '  ' })).toBe(false);
    expect(hasActiveDocumentFilters({ ...DEFAULT_DOCUMENT_FILTERS, docType: 'waiver' })).toBe(true);
  });

  it('counts pages over the total, at least one', () => {
    expect(pageCountOf(0, 50)).toBe(1);
    expect(pageCountOf(50, 50)).toBe(1);
    expect(pageCountOf(51, 50)).toBe(2);
  });
});

describe('documentListQuery', () => {
  it('asks for 50 rows and leaves an empty search out', () => {
    expect(documentListQuery({ ...DEFAULT_DOCUMENT_FILTERS, search: '  ' })).toEqual({
      status: 'all',
      docType: 'all',
      page: 1,
      pageSize: 50,
    });
    expect(documentListQuery({ ...DEFAULT_DOCUMENT_FILTERS, search: ' ava ' }).search).toBe('ava');
  });
});
