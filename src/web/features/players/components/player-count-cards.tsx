import { CircleAlert, CircleCheck, Users, type LucideIcon } from 'lucide-react';
import type { TReportSummary } from '../../../../contract';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';

const CARDS: ReadonlyArray<{ key: keyof TReportSummary; title: string; icon: LucideIcon; iconClass: string }> = [
  { key: 'total', title: 'Total Players', icon: Users, iconClass: 'bg-secondary text-secondary-foreground' },
  { key: 'complete', title: 'Complete Profiles', icon: CircleCheck, iconClass: 'bg-success-soft text-success-soft-foreground' },
  { key: 'incomplete', title: 'Incomplete', icon: CircleAlert, iconClass: 'bg-warning-soft text-warning-soft-foreground' },
];

/** Total Players, Complete Profiles, Incomplete, for the season and division (not the search). */
export function PlayerCountCards({ summary }: { summary: TReportSummary | undefined }) {
  return (
    // Three across even on a phone: small figures need not take a screen each.
    <ul className="grid grid-cols-3 gap-2 sm:gap-4" aria-label="Player counts">
      {CARDS.map(({ key, title, icon: Icon, iconClass }) => (
        <li key={key}>
          <Card className="h-full flex-row items-center gap-4 px-3 py-3 sm:px-5 sm:py-4" data-testid={`player-count-${key}`}>
            <span className={`hidden size-10 shrink-0 items-center justify-center rounded-lg sm:flex ${iconClass}`}>
              <Icon className="size-5" aria-hidden="true" />
            </span>
            <div className="flex min-w-0 flex-col">
              <span className="text-xs text-muted-foreground sm:text-sm">{title}</span>
              {summary ? (
                <span className="text-xl font-semibold tabular-nums sm:text-2xl" data-testid="player-count-value">
                  {summary[key].toLocaleString()}
                </span>
              ) : (
                <Skeleton className="mt-1 h-7 w-16" />
              )}
            </div>
          </Card>
        </li>
      ))}
    </ul>
  );
}
