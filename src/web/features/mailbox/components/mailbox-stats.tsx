import { ToggleGroup } from 'radix-ui';
import { useId, useState } from 'react';
import { MAILBOX_STATS_RANGES } from '../../../../contract';
import { LoadingState } from '@/components/loading-state';
import { Skeleton } from '@/components/ui/skeleton';
import { getErrorMessage } from '@/lib/api-client';
import { cn } from '@/lib/utils';
import { useMailboxStats, type TMailboxStatsRange } from '../api';
import { describeMailboxStats } from '../mailbox-figures';

const RANGE_LABELS: Record<TMailboxStatsRange, string> = { today: 'Today', '7d': '7 days', '30d': '30 days' };

function isRange(value: string): value is TMailboxStatsRange {
  return (MAILBOX_STATS_RANGES as readonly string[]).includes(value);
}

function StatTile({ label, value, detail }: { label: string; value: string; detail: string }) {
  return (
    <div className="flex min-w-0 flex-col gap-1 rounded-lg border p-3">
      <dt className="text-xs font-medium text-muted-foreground">{label}</dt>
      <dd className="text-2xl leading-tight font-semibold tabular-nums">{value}</dd>
      <dd className="text-xs text-muted-foreground">{detail}</dd>
    </div>
  );
}

interface MailboxStatsProps {
  /** Polls every 30 s while true (the panel is in view). */
  polling: boolean;
}

/** E-mails received in a period, with success rate, error rate and attachments per e-mail. */
export function MailboxStats({ polling }: MailboxStatsProps) {
  const [range, setRange] = useState<TMailboxStatsRange>('today');
  const stats = useMailboxStats(range, { polling });
  const headingId = useId();
  const figures = stats.data ? describeMailboxStats(stats.data) : null;

  return (
    <section aria-labelledby={headingId} className="@container flex flex-col gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id={headingId} className="text-sm font-semibold">
          Intake statistics
        </h3>
        <ToggleGroup.Root
          type="single"
          value={range}
          onValueChange={(value) => {
            // A single toggle group reports '' when the pressed item is pressed again: keep the range.
            if (isRange(value)) setRange(value);
          }}
          aria-label="Statistics period"
          className="inline-flex rounded-md border bg-muted p-0.5"
        >
          {MAILBOX_STATS_RANGES.map((value) => (
            <ToggleGroup.Item
              key={value}
              value={value}
              data-testid={`gmail-range-${value}`}
              className={cn(
                'rounded-[calc(var(--radius)-4px)] px-2.5 py-1 text-xs font-medium text-muted-foreground outline-none transition-colors',
                'hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50',
                'data-[state=on]:bg-background data-[state=on]:text-foreground data-[state=on]:shadow-xs',
              )}
            >
              {RANGE_LABELS[value]}
            </ToggleGroup.Item>
          ))}
        </ToggleGroup.Root>
      </div>

      {stats.isPending ? (
        <LoadingState label="Loading statistics" className="grid grid-cols-2 gap-3 @lg:grid-cols-4">
          {[0, 1, 2, 3].map((index) => (
            <Skeleton key={index} className="h-[5.5rem]" />
          ))}
        </LoadingState>
      ) : stats.isError ? (
        <p className="text-sm break-words text-destructive-soft-foreground">
          Unable to load the mailbox statistics: {getErrorMessage(stats.error)}
        </p>
      ) : figures ? (
        <dl data-testid="gmail-stats" className={cn('grid grid-cols-2 gap-3 @lg:grid-cols-4', stats.isFetching && 'opacity-80')}>
          <StatTile label="E-mails received" value={String(figures.received)} detail={RANGE_LABELS[range]} />
          <StatTile label="Success rate" value={`${figures.successRate}%`} detail={`${figures.processed} processed`} />
          <StatTile label="Error rate" value={`${figures.errorRate}%`} detail={`${figures.failed} failed`} />
          <StatTile label="Avg. attachments" value={String(figures.averageAttachments)} detail="per e-mail" />
        </dl>
      ) : null}
    </section>
  );
}
