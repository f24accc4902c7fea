import { Clock, Minus, TrendingDown, TrendingUp } from 'lucide-react';
import type { TStatsBreakdown } from '../../../../contract';
import { cn } from '@/lib/utils';
import { buildDistribution, completionTrend, DISTRIBUTION_WHOLE, formatReviewHours, type TStatKind } from '../stat-details';
import { TONE_FILL } from './tone-classes';

const numberFormat = new Intl.NumberFormat();

const TREND_CLASS = {
  up: 'text-success-soft-foreground',
  down: 'text-destructive-soft-foreground',
  flat: 'text-muted-foreground',
} as const;
const TREND_ICON = { up: TrendingUp, down: TrendingDown, flat: Minus } as const;

/** The Analytics tab, on real figures: a status distribution and trends (completion a week apart, review time). */
export function DetailAnalytics({ kind, breakdown }: { kind: TStatKind; breakdown: TStatsBreakdown }) {
  const rows = buildDistribution(kind, breakdown);
  const trend = completionTrend(breakdown);
  const reviewTime = formatReviewHours(breakdown.averageReviewHours);
  const TrendIcon = TREND_ICON[trend.direction];

  return (
    <div className="flex flex-col gap-6">
      <section aria-labelledby="analytics-distribution-heading" className="flex flex-col gap-3">
        <h3 id="analytics-distribution-heading" className="text-sm font-semibold">
          Status distribution
        </h3>
        {rows.length > 0 ? (
          <ul className="flex flex-col gap-3" data-testid="distribution">
            {rows.map((row) => (
              <li key={row.id} data-testid="distribution-row" className="flex flex-col gap-1">
                <div className="flex items-baseline justify-between gap-2 text-sm">
                  <span className="font-medium">{row.label}</span>
                  <span className="text-muted-foreground tabular-nums">
                    <span className="font-semibold text-foreground">{numberFormat.format(row.count)}</span> of{' '}
                    {numberFormat.format(row.total)} {DISTRIBUTION_WHOLE[kind]} ({row.percent}%)
                  </span>
                </div>
                <div className="h-2 overflow-hidden rounded-full bg-muted" aria-hidden="true">
                  <div className={cn('h-full rounded-full', TONE_FILL[row.tone])} style={{ width: `${row.percent}%` }} />
                </div>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-muted-foreground">No players registered for this season yet.</p>
        )}
      </section>
      <section aria-labelledby="analytics-trends-heading" className="flex flex-col gap-3">
        <h3 id="analytics-trends-heading" className="text-sm font-semibold">
          Trends
        </h3>
        <div className="grid gap-3 sm:grid-cols-2">
          <div className="flex flex-col gap-1 rounded-lg border p-4" data-testid="completion-trend">
            <span className="text-xs font-medium text-muted-foreground">Completion rate</span>
            <span className="text-2xl font-semibold tabular-nums">{trend.now.toFixed(1)}%</span>
            <span className={cn('flex items-center gap-1 text-sm font-medium', TREND_CLASS[trend.direction])} data-direction={trend.direction}>
              <TrendIcon className="size-4" aria-hidden="true" />
              {trend.changeText}
              <span className="font-normal text-muted-foreground">vs {trend.weekAgo.toFixed(1)}% a week ago</span>
            </span>
          </div>
          <div className="flex flex-col gap-1 rounded-lg border p-4" data-testid="review-time">
            <span className="text-xs font-medium text-muted-foreground">Average review time</span>
            {reviewTime ? (
              <>
                <span className="text-2xl font-semibold tabular-nums">{reviewTime}</span>
                <span className="flex items-center gap-1 text-sm text-muted-foreground">
                  <Clock className="size-4" aria-hidden="true" />
                  Upload to decision, last 30 days
                </span>
              </>
            ) : (
              <span className="text-sm text-muted-foreground">No reviews in the last 30 days</span>
            )}
          </div>
        </div>
      </section>
    </div>
  );
}
