import { ChevronDown } from 'lucide-react';
import { useId } from 'react';
import { Label } from '@/components/ui/label';
import { useSeasons } from '@/lib/seasons-query';
import { cn } from '@/lib/utils';

const EVERY_SEASON = '';

/** Which season's documents to review; every season by default. The browser's own select, one tap on a phone. */
export function ReviewSeasonSelect({ value, onChange }: { value: string | undefined; onChange: (season: string | undefined) => void }) {
  const id = useId();
  const seasons = useSeasons();
  const list = seasons.data?.seasons ?? [];
  // A season in the address that is not (yet) listed is still offered, so the select shows what is filtered.
  const unlisted = value !== undefined && !list.some((season) => season.id === value);
  return (
    <div className="flex min-w-0 flex-col gap-2 sm:w-56">
      <Label htmlFor={id}>Season</Label>
      <div className="relative">
        <select
          id={id}
          value={value ?? EVERY_SEASON}
          onChange={(event) => onChange(event.target.value === EVERY_SEASON ? undefined : event.target.value)}
          className={cn(
            'h-11 w-full min-w-0 appearance-none rounded-md border border-input bg-transparent py-2 pr-8 pl-3 text-sm shadow-xs outline-none sm:h-9',
            'focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 dark:bg-input/30',
            '[&>option]:bg-popover [&>option]:text-popover-foreground',
          )}
        >
          <option value={EVERY_SEASON}>Every season</option>
          {unlisted ? <option value={value}>{value}</option> : null}
          {list.map((season) => (
            <option key={season.id} value={season.id}>
              {season.isCurrent ? `${season.name} (current)` : season.name}
            </option>
          ))}
        </select>
        <ChevronDown className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 opacity-50" aria-hidden="true" />
      </div>
    </div>
  );
}
