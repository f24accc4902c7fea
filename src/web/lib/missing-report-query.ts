import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { ZMissingReport, type TDivision, type TDocType, type TMissingReport, type TPlayerSort, type TPlayerStatusFilter } from '../../contract';
import { apiRequest, getQueryFn, queryKeyToUrl } from './api-client';

/** The player tables read the missing-documents report again every 30 seconds. */
export const MISSING_REPORT_REFETCH_MS = 30_000;

/**
 * The query of GET /api/report/missing (as a query-key segment): filters at their default (every division,
 * every status) are left out, not sent as 'all'.
 */
export interface MissingReportParams {
  season?: string;
  division?: TDivision;
  search?: string;
  status?: Exclude<TPlayerStatusFilter, 'all'>;
  missing?: TDocType;
  sort?: Exclude<TPlayerSort, 'name'>;
  page?: number;
  pageSize?: number;
}

const missingReportKey = (params: MissingReportParams) => ['api', 'report', 'missing', { ...params }] as const;

export const missingReportQueryOptions = (params: MissingReportParams) =>
  queryOptions({
    queryKey: missingReportKey(params),
    queryFn: getQueryFn({ schema: ZMissingReport }),
    refetchInterval: MISSING_REPORT_REFETCH_MS,
    // The last page stays on screen (marked busy) while the next page or filter loads, so the table does not jump.
    placeholderData: keepPreviousData,
  });

/** GET /api/report/missing, one page of it (season, division, search, status, missing, sort, page, pageSize). */
export function useMissingReport(params: MissingReportParams) {
  return useQuery(missingReportQueryOptions(params));
}

/**
 * GET /api/report/missing without a page size: every matching row, for the CSV exports of the player tables
 * and of the Reports screen.
 */
export function fetchAllMissingRows(params: MissingReportParams): Promise<TMissingReport> {
  const { page: _page, pageSize: _pageSize, ...filters } = params;
  return apiRequest('GET', queryKeyToUrl(missingReportKey(filters)), undefined, { schema: ZMissingReport });
}
