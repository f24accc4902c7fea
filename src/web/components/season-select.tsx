import type { ComponentProps } from 'react';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { useSeasons } from '@/lib/seasons-query';
import { resolveSeason } from '@/lib/seasons';

interface SeasonSelectProps extends Omit<ComponentProps<typeof SelectTrigger>, 'value' | 'children'> {
  /** A season id or year; undefined shows the current season. */
  value: string | undefined;
  onValueChange: (seasonId: string) => void;
}

/** The seasons of GET /api/seasons, newest first, the current one marked. Label it with <Label htmlFor> or aria-label. */
export function SeasonSelect({ value, onValueChange, ...triggerProps }: SeasonSelectProps) {
  const seasons = useSeasons();
  const list = seasons.data?.seasons ?? [];
  const selected = resolveSeason(list, value);
  const placeholder = seasons.isError ? 'Seasons unavailable' : seasons.isPending ? 'Loading seasons…' : 'Select a season';
  return (
    <Select value={selected?.id ?? ''} onValueChange={onValueChange} disabled={!seasons.data}>
      <SelectTrigger {...triggerProps}>
        <SelectValue placeholder={placeholder} />
      </SelectTrigger>
      <SelectContent>
        {list.map((season) => (
          <SelectItem key={season.id} value={season.id}>
            {season.isCurrent ? `${season.name} (current)` : season.name}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
