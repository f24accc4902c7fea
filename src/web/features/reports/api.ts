import { keepPreviousData, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { ZSeasonReport, type TReportExportFormat } from '../../../contract';
import { getQueryFn, queryKeyToUrl } from '@/lib/api-client';
import { seasonReportQueryParams, type ReportParams } from './report-params';

/** Every season report query starts with this key; live document events refresh it (resource 'reports'). */
export const SEASON_REPORT_KEY = ['api', 'reports', 'season'] as const;

export const seasonReportKey = (params: ReportParams) => [...SEASON_REPORT_KEY, seasonReportQueryParams(params)] as const;

export const seasonReportQueryOptions = (params: ReportParams) =>
  queryOptions({
    queryKey: seasonReportKey(params),
    queryFn: getQueryFn({ schema: ZSeasonReport }),
    // The report on screen stays (marked busy) while the next parameters' one is generated, so the page does not jump.
    placeholderData: keepPreviousData,
  });

/** GET /api/reports/season?season=&division=&compare= for the applied parameters. */
export function useSeasonReport(params: ReportParams) {
  return useQuery(seasonReportQueryOptions(params));
}

/**
 * Generate Report: read the report for these parameters afresh, even when it was read before (the figures
 * may have moved since). The query on screen refetches at once; another is marked stale, so it is read
 * when the screen switches to it.
 */
export function useRegenerateReport() {
  const queryClient = useQueryClient();
  return useCallback((params: ReportParams) => queryClient.invalidateQueries({ queryKey: seasonReportKey(params), exact: true }), [queryClient]);
}

/** GET /api/reports/season/export for the applied parameters: the report as a PDF, CSV or Excel file. */
export const seasonReportExportUrl = (params: ReportParams, format: TReportExportFormat): string =>
  queryKeyToUrl(['api', 'reports', 'season', 'export', { ...seasonReportQueryParams(params), format }]);
