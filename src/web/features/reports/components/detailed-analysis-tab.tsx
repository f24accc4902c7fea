import type { TSeasonReport } from '../../../../contract';
import { CompletionBar } from '@/components/completion-bar';
import { DOC_TYPE_COLUMN_LABELS } from '@/components/status-tones';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { describeStatusSegments, divisionDetails, statusSegments, type StatusSegment } from '../report-charts';
import { formatPercent, plural } from '../report-text';

/** Detailed Analysis: each document type cut by status, and each division's players, share and completion. */
export function DetailedAnalysisTab({ report }: { report: TSeasonReport }) {
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <Card className="min-w-0 gap-4 py-5">
        <CardHeader className="px-4 sm:px-6">
          <CardTitle className="text-base">Document types by status</CardTitle>
          <CardDescription>Every player's status for each document</CardDescription>
        </CardHeader>
        <CardContent className="px-4 sm:px-6">
          <ul className="flex flex-col gap-5" aria-label="Document types by status" data-testid="details-types">
            {report.documentStats.map((stat) => {
              const label = DOC_TYPE_COLUMN_LABELS[stat.docType];
              const segments = statusSegments(stat);
              return (
                <li key={stat.docType} className="flex flex-col gap-2" data-testid="details-type" data-key={stat.docType}>
                  <div className="flex items-baseline justify-between gap-3 text-sm">
                    <span className="min-w-0 truncate font-medium">{label}</span>
                    <span className="shrink-0 tabular-nums text-muted-foreground">{formatPercent(stat.completionRate)} complete</span>
                  </div>
                  <SegmentedBar segments={segments} label={describeStatusSegments(label, segments)} />
                  <dl className="flex flex-wrap gap-x-4 gap-y-1 text-xs">
                    {segments.map((segment) => (
                      <div key={segment.status} className="flex items-center gap-1.5 whitespace-nowrap">
                        <dt className="flex items-center gap-1.5 text-muted-foreground">
                          <span className="size-2 shrink-0 rounded-full" style={{ background: segment.colour }} aria-hidden="true" />
                          {segment.label}
                        </dt>
                        <dd className="font-medium tabular-nums" data-testid={`details-${segment.status}`}>
                          {segment.count}
                        </dd>
                      </div>
                    ))}
                  </dl>
                </li>
              );
            })}
          </ul>
        </CardContent>
      </Card>
      <Card className="min-w-0 gap-4 py-5">
        <CardHeader className="px-4 sm:px-6">
          <CardTitle className="text-base">Divisions</CardTitle>
          <CardDescription>Players, their share of the season, and how many are complete</CardDescription>
        </CardHeader>
        <CardContent className="px-4 sm:px-6">
          <ul className="flex flex-col gap-5" aria-label="Divisions" data-testid="details-divisions">
            {divisionDetails(report.divisionStats).map((d) => (
              <li key={d.division} className="flex flex-col gap-1.5" data-testid="details-division" data-key={d.division}>
                <div className="flex items-baseline justify-between gap-3 text-sm">
                  <span className="font-medium">{d.division}</span>
                  <span className="text-right tabular-nums text-muted-foreground" data-testid="details-division-figures">
                    {plural(d.players, 'player')} · {formatPercent(d.share)} of the season
                  </span>
                </div>
                <CompletionBar percent={d.completionRate} label={`${d.division} completion`} />
                <p className="text-xs text-muted-foreground">
                  {d.complete} complete, {d.incomplete} incomplete
                </p>
              </li>
            ))}
          </ul>
        </CardContent>
      </Card>
    </div>
  );
}

/** A bar cut in the four statuses, widths by share; an image named by its counts (colour is not the only cue). */
function SegmentedBar({ segments, label }: { segments: readonly StatusSegment[]; label: string }) {
  return (
    <div role="img" aria-label={label} className="flex h-2.5 w-full overflow-hidden rounded-full bg-muted">
      {segments.map((segment) =>
        segment.percent > 0 ? <div key={segment.status} className="h-full" style={{ width: `${segment.percent}%`, background: segment.colour }} /> : null,
      )}
    </div>
  );
}
