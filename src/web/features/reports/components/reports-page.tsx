import type { UseQueryResult } from '@tanstack/react-query';
import { UserX } from 'lucide-react';
import { useCallback, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import type { TSeasonReport } from '../../../../contract';
import { EmptyState } from '@/components/empty-state';
import { ListSkeleton } from '@/components/list-skeleton';
import { LoadError } from '@/components/load-error';
import { PageHeader } from '@/components/page-header';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { getErrorMessage } from '@/lib/api-client';
import { useDocumentTitle } from '@/lib/use-document-title';
import { cn } from '@/lib/utils';
import { useRegenerateReport, useSeasonReport } from '../api';
import { parseReportParams, sameReportParams, serializeReportParams, type ReportParams } from '../report-params';
import { divisionLabel } from '../report-text';
import { DetailedAnalysisTab } from './detailed-analysis-tab';
import { EligibilityPacketCard } from './eligibility-packet-card';
import { ExportReportButton } from './export-report-button';
import { IncompletePlayersCard } from './incomplete-players-card';
import { OverviewTab } from './overview-tab';
import { ProjectionsTab } from './projections-tab';
import { ProgressCards } from './report-progress';
import { ReportParameters } from './report-parameters';
import { ReportSummaryCards } from './report-summary-cards';
import { TrendsTab } from './trends-tab';

/** The applied parameters live in the query string (?season=&division=&compare=), so a link or a reload keeps them. */
function useUrlReportParams() {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const params = parseReportParams(search);
  const setParams = useCallback(
    (next: ReportParams) => {
      const query = serializeReportParams(next);
      navigate(query ? `${location}?${query}` : location);
    },
    [location, navigate],
  );
  return [params, setParams] as const;
}

const TABS = [
  { value: 'overview', label: 'Overview' },
  { value: 'trends', label: 'Historical Trends' },
  { value: 'projections', label: 'Growth Projections' },
  { value: 'details', label: 'Detailed Analysis' },
] as const;

/**
 * Reports: a season's report for a division, generated on demand from GET /api/reports/season;
 * summary cards, charts in four tabs, completion bars, the incomplete players, and its exports (PDF, Excel, CSV, JSON).
 */
export function ReportsPage() {
  useDocumentTitle('Reports');
  const [params, setParams] = useUrlReportParams();
  const report = useSeasonReport(params);
  const regenerate = useRegenerateReport();
  const data = report.data;
  // While the next parameters' report loads, the last one stays on screen, dimmed; it cannot be exported as the new one.
  const current = report.isPlaceholderData ? undefined : data;

  const generate = (next: ReportParams) => {
    void regenerate(next);
    if (!sameReportParams(next, params)) setParams(next);
  };

  return (
    <>
      <PageHeader
        title="Reports"
        description={
          <span className="flex flex-wrap items-center gap-2">
            {data ? (
              <Badge variant="secondary" data-testid="report-season">
                {data.season.name} · {divisionLabel(data.division)}
              </Badge>
            ) : (
              // A <span>: the header's description is a paragraph, which cannot hold the <div> Skeleton.
              <span className="inline-block h-5 w-36 animate-pulse rounded-md bg-muted" aria-hidden="true" />
            )}
            <span>Completion, trends and projections by season and division</span>
          </span>
        }
        actions={<ExportReportButton report={current} params={params} />}
      />
      <div className="flex flex-col gap-6">
        <ReportParameters key={serializeReportParams(params)} applied={params} onGenerate={generate} generating={report.isFetching} />
        <div
          data-testid="season-report"
          aria-busy={report.isFetching}
          data-season={data?.season.id}
          data-division={data?.division}
          data-compare={data ? String(data.summary.growth !== null) : undefined}
          className={cn('flex min-w-0 flex-col gap-6 transition-opacity', report.isPlaceholderData && 'opacity-60')}
        >
          {report.isError ? <ReportError report={report} /> : null}
          <ReportSummaryCards report={data} error={report.isError && !data} />
          {report.isPending ? <ReportBodySkeleton /> : data ? <ReportBody report={data} /> : null}
        </div>
        <EligibilityPacketCard season={current?.season} />
      </div>
    </>
  );
}

function ReportBody({ report }: { report: TSeasonReport }) {
  const [tab, setTab] = useState<string>('overview');
  if (report.summary.totalPlayers === 0) return <EmptySeason report={report} />;
  return (
    <>
      <Tabs value={tab} onValueChange={setTab} className="flex min-w-0 flex-col gap-4">
        {/* Two by two on a phone: four tab names do not fit one line at 390 px. */}
        <TabsList aria-label="Report views" className="grid h-auto w-full grid-cols-2 gap-1 sm:inline-flex sm:h-9 sm:w-fit sm:gap-0">
          {TABS.map(({ value, label }) => (
            <TabsTrigger key={value} value={value} className="h-8 sm:h-full">
              {label}
            </TabsTrigger>
          ))}
        </TabsList>
        <TabsContent value="overview">
          <OverviewTab report={report} />
        </TabsContent>
        <TabsContent value="trends">
          <TrendsTab report={report} />
        </TabsContent>
        <TabsContent value="projections">
          <ProjectionsTab report={report} />
        </TabsContent>
        <TabsContent value="details">
          <DetailedAnalysisTab report={report} />
        </TabsContent>
      </Tabs>
      <ProgressCards report={report} />
      <IncompletePlayersCard report={report} />
    </>
  );
}

function EmptySeason({ report }: { report: TSeasonReport }) {
  return (
    <EmptyState
      variant="card"
      icon={UserX}
      title={`No players in ${report.season.name}`}
      description={`Nobody is registered for this season${report.division === 'all' ? '' : ` in ${divisionLabel(report.division)}`} yet. The report fills in as registrations arrive.`}
      descriptionClassName="max-w-md"
      className="py-10"
      testId="report-empty"
    />
  );
}

function ReportError({ report }: { report: UseQueryResult<TSeasonReport> }) {
  return (
    <LoadError
      variant="card"
      title="Unable to load the report"
      detail={getErrorMessage(report.error)}
      onRetry={() => void report.refetch()}
      retrying={report.isFetching}
      className="py-4"
      contentClassName="px-4 sm:px-6"
      testId="report-error"
    />
  );
}

function ReportBodySkeleton() {
  return (
    <div className="flex flex-col gap-4" data-testid="report-loading">
      <Skeleton className="h-9 w-full max-w-xl" />
      <div className="grid gap-4 lg:grid-cols-2">
        <Skeleton className="h-72 w-full rounded-xl" />
        <Skeleton className="h-72 w-full rounded-xl" />
      </div>
      <Card className="py-5">
        <CardContent className="px-4 sm:px-6">
          <ListSkeleton
            label="Loading the report"
            rows={5}
            leading="size-3 rounded-full"
            lines={['h-3.5 w-40 max-w-full', 'h-3 w-28 max-w-full']}
            trailing="h-3 w-16"
          />
        </CardContent>
      </Card>
    </div>
  );
}
