import { describe, expect, it } from 'vitest';
import { documentListQuery } from './api';
import {
  changeDocumentFilters,
  DEFAULT_DOCUMENT_FILTERS,
  documentFiltersToParams,
  documentsSummary,
  hasActiveDocumentFilters,
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

describe('an exact or estimated total', () => {
  const listed = (page: number, rows: number, total: number, totalIsEstimate: boolean) => ({ page, pageSize: 50, rows, total, totalIsEstimate });

  it('says the total as counted, or as an estimate rounded', () => {
    expect(documentsSummary(listed(1, 50, 1_234, false), false)).toBe('Showing 1–50 of 1,234 documents');
    expect(documentsSummary(listed(2, 1, 51, false), false)).toBe('Showing 51–51 of 51 documents');
    expect(documentsSummary(listed(1, 1, 1, false), false)).toBe('Showing 1–1 of 1 document');
    expect(documentsSummary(listed(1, 50, 12_437, true), false)).toBe('Showing 1–50 of about 12,400 documents');
    expect(documentsSummary(listed(30, 50, 12_437, true), true)).toBe('Showing 1,451–1,500 of about 12,400 documents');
  });

  it('says why the list is empty, and that a page past the end has no more', () => {
    expect(documentsSummary(listed(1, 0, 0, false), false)).toBe('No documents yet');
    expect(documentsSummary(listed(1, 0, 0, false), true)).toBe('No matching documents');
    expect(documentsSummary(listed(40, 0, 1_950, true), false)).toBe('No more documents');
  });



});
