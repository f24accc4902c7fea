import {
  DOC_TYPE_FILTERS,
  DOC_TYPE_LABELS,
  DOCUMENT_STATUS_FILTERS,
  type TDocType,
} from '../../../contract';
import { formatCount } from '@/lib/format';
import type { ListedPage } from '@/lib/list-pages';

export type TDocumentStatusFilter = (typeof DOCUMENT_STATUS_FILTERS)[number];
export type TDocTypeFilter = (typeof DOC_TYPE_FILTERS)[number];

/** The Documents screen's filters, as kept in the URL query string (`?q=…&status=…&type=…&page=…`). */
export interface DocumentFilters {
  search: string;
  status: TDocumentStatusFilter;
  docType: TDocTypeFilter;
  page: number;
}

export const DEFAULT_DOCUMENT_FILTERS: DocumentFilters = { search: '', status: 'all', docType: 'all', page: 1 };

/** The server pages the list, 50 rows at a time. */
export const DOCUMENTS_PAGE_SIZE = 50;

/** The server refuses longer searches (ZDocumentListQuery). */
export const MAX_SEARCH_LENGTH = 100;

const URL_KEYS = { search: 'q', status: 'status', docType: 'type', page: 'page' } as const;

export const STATUS_FILTER_LABELS: Record<TDocumentStatusFilter, string> = {
  all: 'All',
  verified: 'Verified',
  pending: 'Under Review',
  processing: 'Processing',
  scan_failed: 'Scan Failed',
  rejected: 'Rejected',
};

export const DOC_TYPE_FILTER_LABELS: Record<TDocTypeFilter, string> = {
  all: 'All',
  ...DOC_TYPE_LABELS,
  undetected: 'Undetected',
} satisfies Record<'all' | TDocType | 'undetected', string>;

function isOneOf<T extends string>(values: readonly T[], value: string | null): value is T {
  return value !== null && (values as readonly string[]).includes(value);
}

/** Filters from a URL query string; anything unknown or malformed falls back to its default. */
export function parseDocumentFilters(params: URLSearchParams): DocumentFilters {
  const status = params.get(URL_KEYS.status);
  const docType = params.get(URL_KEYS.docType);
  const page = Number(params.get(URL_KEYS.page));
  return {
    search: (params.get(URL_KEYS.search) ?? '').slice(0, MAX_SEARCH_LENGTH),
    status: isOneOf(DOCUMENT_STATUS_FILTERS, status) ? status : 'all',
    docType: isOneOf(DOC_TYPE_FILTERS, docType) ? docType : 'all',
    page: Number.isInteger(page) && page >= 1 ? page : 1,
  };
}

/** The query string for filters: defaults are left out so a plain /documents means "everything, page 1". */
export function documentFiltersToParams(filters: DocumentFilters): URLSearchParams {
  const params = new URLSearchParams();
  const search = filters.search.trim();
  if (search) params.set(URL_KEYS.search, search);
  if (filters.status !== 'all') params.set(URL_KEYS.status, filters.status);
  if (filters.docType !== 'all') params.set(URL_KEYS.docType, filters.docType);
  if (filters.page > 1) params.set(URL_KEYS.page, String(filters.page));
  return params;
}

/** Any change of search, status or type starts again on page 1. */
export function changeDocumentFilters(
  current: DocumentFilters,
  change: Partial<Omit<DocumentFilters, 'page'>>,
): DocumentFilters {
  return { ...current, ...change, page: 1 };
}

export function hasActiveDocumentFilters(filters: DocumentFilters): boolean {
  return filters.search.trim() !== '' || filters.status !== 'all' || filters.docType !== 'all';
}

const documentsWord = (count: number, isEstimate: boolean): string => (count === 1 && !isEstimate ? 'document' : 'documents');

/**
 * The line above the list: 'Showing 51–100 of 1,234 documents', 'Showing 1–50 of about 12,400 documents' when
 * the total is an estimate, 'No more documents' on a page past the end, or why the list is empty.
 */
export function documentsSummary(listed: ListedPage, filtersActive: boolean): string {
  if (listed.rows === 0) {
    if (listed.page > 1) return 'No more documents';
    return filtersActive ? 'No matching documents' : 'No documents yet';
  }
  const first = (listed.page - 1) * listed.pageSize + 1;
  const last = first + listed.rows - 1;
  return `Showing ${formatCount(first)}–${formatCount(last)} of ${formatCount(listed.total, listed.totalIsEstimate)} ${documentsWord(listed.total, listed.totalIsEstimate)}`;
}
