import { CalendarClock } from 'lucide-react';
import { Link } from 'wouter';
import { EXPIRING_WITHIN_DAYS, type TStats } from '../../../../contract';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/utils';

const numberFormat = new Intl.NumberFormat();

/** The Players screen listing the season's players whose approval runs out soon. */
export function expiringPlayersHref(seasonId: string | undefined): string {
  const params = new URLSearchParams({ status: 'expiring' });
  if (seasonId !== undefined) params.set('season', seasonId);
  return `/players?${params.toString()}`;
}

/**
 * 'Expiring within 30 days': the season's players with an approval (a medical form's year) running out soon,
 * a link to the Players screen filtered to them. Drawn as the other summary cards are.
 */
export function ExpiringCard({ stats, error, seasonId, className }: { stats: TStats | undefined; error: boolean; seasonId: string | undefined; className?: string }) {
  const count = stats?.expiringSoon;
  const title = `Expiring within ${EXPIRING_WITHIN_DAYS} days`;
  return (
    <Link
      href={expiringPlayersHref(seasonId)}
      data-testid="stat-expiring-soon"
      className={cn(
        'flex min-w-0 flex-col gap-2 rounded-xl border bg-card p-4 text-left text-card-foreground shadow-sm transition-[box-shadow,border-color] outline-none hover:border-primary/40 hover:shadow-md focus-visible:ring-[3px] focus-visible:ring-ring/50 sm:p-5',
        className,
      )}
    >
      <div className="flex items-start justify-between gap-2">
        <span className="text-sm font-medium text-muted-foreground">{title}</span>
        <span className="flex size-8 shrink-0 items-center justify-center rounded-md bg-primary/10 text-primary">
          <CalendarClock className="size-4" aria-hidden="true" />
        </span>
      </div>
      {count === undefined && !error ? (
        <Skeleton className="h-8 w-20" data-testid="stat-loading" />
      ) : (
        <span data-testid="stat-value" data-value={count ?? ''} className="text-2xl font-semibold tracking-tight tabular-nums sm:text-3xl">
          {count === undefined ? '—' : numberFormat.format(count)}
        </span>
      )}
      {error && count === undefined ? (
        <span className="text-xs text-destructive-soft-foreground">Unable to load</span>
      ) : (
        <span className="text-xs text-muted-foreground">Players whose approval runs out soon</span>
      )}
      <span className="sr-only">Show these players</span>
    </Link>
  );
}
