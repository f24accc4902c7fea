import { TrendingDown, TrendingUp, type LucideIcon } from 'lucide-react';
import { Link } from 'wouter';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/utils';

const numberFormat = new Intl.NumberFormat();

export interface StatTrend {
  text: string;
  /** Good news reads green, bad news red. */
  positive: boolean;
}

export interface StatCardProps {
  title: string;
  /** Undefined while loading. */
  value: number | undefined;
  subtitle?: string;
  /** Shown instead of the subtitle when given: a card shows one or the other. */
  trend?: StatTrend;
  icon: LucideIcon;
  /** Makes the card a button that opens its details; it gets the button, to return focus to. */
  onClick?: (button: HTMLButtonElement) => void;
  /** Makes the card a link to another screen (instead of a button); `linkLabel` says where, for screen readers. */
  href?: string;
  linkLabel?: string;
  /** Set when the figure could not be read. */
  error?: boolean;
  testId?: string;
  className?: string;
}

/** A summary figure: title, value, subtitle or trend, icon; a button when it opens details, a link when it leads to a screen. */
export function StatCard({ title, value, subtitle, trend, icon: Icon, onClick, href, linkLabel, error = false, testId, className }: StatCardProps) {
  const body = (
    <>
      <div className="flex items-start justify-between gap-2">
        <span className="text-sm font-medium text-muted-foreground">{title}</span>
        <span className="flex size-8 shrink-0 items-center justify-center rounded-md bg-primary/10 text-primary">
          <Icon className="size-4" aria-hidden="true" />
        </span>
      </div>
      {value === undefined && !error ? (
        <Skeleton className="h-8 w-20" data-testid="stat-loading" />
      ) : (
        <span data-testid="stat-value" data-value={value ?? ''} className="text-2xl font-semibold tracking-tight tabular-nums sm:text-3xl">
          {error || value === undefined ? '—' : numberFormat.format(value)}
        </span>
      )}
      {error ? (
        <span className="text-xs text-destructive-soft-foreground">Unable to load</span>
      ) : trend ? (
        <span
          className={cn(
            'flex items-center gap-1 text-xs font-medium',
            trend.positive ? 'text-success-soft-foreground' : 'text-destructive-soft-foreground',
          )}
        >
          {trend.positive ? <TrendingUp className="size-3.5" aria-hidden="true" /> : <TrendingDown className="size-3.5" aria-hidden="true" />}
          {trend.text}
        </span>
      ) : subtitle ? (
        <span className="text-xs text-muted-foreground">{subtitle}</span>
      ) : null}
    </>
  );

  const shared = cn('flex min-w-0 flex-col gap-2 rounded-xl border bg-card p-4 text-left text-card-foreground shadow-sm sm:p-5', className);
  const interactive = 'cursor-pointer transition-[box-shadow,border-color] outline-none hover:border-primary/40 hover:shadow-md focus-visible:ring-[3px] focus-visible:ring-ring/50';
  if (href !== undefined) {
    return (
      <Link href={href} data-testid={testId} className={cn(shared, interactive)}>
        {body}
        <span className="sr-only">{linkLabel ?? 'Show these'}</span>
      </Link>
    );
  }
  if (!onClick) {
    return (
      <div data-testid={testId} className={shared}>
        {body}
      </div>
    );
  }
  return (
    <button
      type="button"
      data-testid={testId}
      aria-haspopup="dialog"
      onClick={(event) => onClick(event.currentTarget)}
      className={cn(shared, interactive)}
    >
      {body}
      <span className="sr-only">Show details</span>
    </button>
  );
}
