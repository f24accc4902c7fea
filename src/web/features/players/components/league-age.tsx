import { TriangleAlert } from 'lucide-react';
import type { TDivision, TDivisionAges, TPlayerReportRow } from '../../../../contract';
import { cn } from '@/lib/utils';
import { leagueAgeText } from '../league-age';

/** Amber like an expired approval's badge: a warning, not an error. */
const FLAG_CLASS =
  'inline-flex w-fit items-start gap-1 rounded-md bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900 dark:bg-amber-950 dark:text-amber-200 [&>svg]:mt-0.5 [&>svg]:size-3 [&>svg]:shrink-0';

/**
 * A player's league age: the number, or, when it is outside the division's ages, a warning badge saying so
 * ('Age 12 · outside AA (ages 8–10)') whose name is the whole sentence. `compact` (a table's narrow column)
 * shows only the warning sign and the age, the sentence as its name and tooltip. A dash when the season counts none.
 */
export function LeagueAge({
  player,
  divisionAges,
  compact = false,
  className,
}: {
  player: Pick<TPlayerReportRow, 'leagueAge' | 'ageFitsDivision' | 'division'>;
  divisionAges: Partial<Record<TDivision, TDivisionAges>> | undefined;
  compact?: boolean;
  className?: string;
}) {
  const { age, flag } = leagueAgeText(player, divisionAges);
  if (age === null) {
    return (
      <span className={cn('text-sm text-muted-foreground', className)} data-testid="league-age">
        <span aria-hidden="true">—</span>
        <span className="sr-only">No league age</span>
      </span>
    );
  }
  if (!flag) {
    return (
      <span className={cn('text-sm tabular-nums', className)} data-testid="league-age">
        {player.leagueAge}
      </span>
    );
  }
  return (
    <span role="img" aria-label={flag.label} title={flag.label} className={cn(FLAG_CLASS, className)} data-testid="league-age-flag">
      <TriangleAlert aria-hidden="true" />
      <span>{compact ? player.leagueAge : flag.text}</span>
    </span>
  );
}
