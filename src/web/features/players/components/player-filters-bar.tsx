import { X } from 'lucide-react';
import { useId } from 'react';
import { PLAYER_STATUS_FILTERS, type TPlayerStatusFilter } from '../../../../contract';
import { SeasonSelect } from '@/components/season-select';
import { Button } from '@/components/ui/button';
import { SearchInput } from '@/components/ui/search-input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { cn } from '@/lib/utils';
import {
  PLAYER_DIVISION_FILTER_LABELS,
  PLAYER_DIVISION_FILTERS,
  PLAYER_STATUS_FILTER_LABELS,
  type PlayerFilters,
  type TPlayerDivisionFilter,
} from '../player-filters';
import { useDebouncedInput } from '@/lib/use-debounced-input';

type FilterChange = Partial<Omit<PlayerFilters, 'page'>>;

interface PlayerFiltersBarProps {
  filters: Omit<PlayerFilters, 'page'>;
  onChange: (change: FilterChange) => void;
  /** Spec §5: resets search, division and status. */
  onClear: () => void;
  /** The Players screen picks a season here; the dashboard's overview follows the dashboard's season. */
  showSeason?: boolean;
  className?: string;
}

const isDivisionFilter = (value: string): value is TPlayerDivisionFilter => (PLAYER_DIVISION_FILTERS as readonly string[]).includes(value);
const isStatusFilter = (value: string): value is TPlayerStatusFilter => (PLAYER_STATUS_FILTERS as readonly string[]).includes(value);

/** Search (name or player id, sent ~300 ms after the last key), season, division, status and Clear Filters. */
export function PlayerFiltersBar({ filters, onChange, onClear, showSeason = false, className }: PlayerFiltersBarProps) {
  const id = useId();
  const [searchText, setSearchText] = useDebouncedInput(filters.search, (search) => onChange({ search }));
  const canClear = searchText !== '' || filters.division !== 'all' || filters.status !== 'all';

  return (
    <div
      role="search"
      aria-label="Player filters"
      className={cn(
        'grid gap-4 sm:grid-cols-2',
        showSeason ? 'lg:grid-cols-[minmax(0,2fr)_minmax(0,1.5fr)_repeat(2,minmax(0,1fr))_auto]' : 'lg:grid-cols-[minmax(0,2fr)_repeat(2,minmax(0,1fr))_auto]',
        className,
      )}
    >
      <div className="flex min-w-0 flex-col gap-2 sm:col-span-2 lg:col-span-1">
        <Label htmlFor={`${id}-search`}>Search</Label>
        <SearchInput
          id={`${id}-search`}
          placeholder="Name or player ID"
          autoComplete="off"
          spellCheck={false}
          value={searchText}
          onChange={(event) => setSearchText(event.target.value)}
        />
      </div>
      {showSeason ? (
        <div className="flex min-w-0 flex-col gap-2">
          <Label htmlFor={`${id}-season`}>Season</Label>
          <SeasonSelect id={`${id}-season`} value={filters.season} onValueChange={(season) => onChange({ season })} />
        </div>
      ) : null}
      <div className="flex min-w-0 flex-col gap-2">
        <Label htmlFor={`${id}-division`}>Division</Label>
        <Select value={filters.division} onValueChange={(value) => isDivisionFilter(value) && onChange({ division: value })}>
          <SelectTrigger id={`${id}-division`}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {PLAYER_DIVISION_FILTERS.map((division) => (
              <SelectItem key={division} value={division}>
                {PLAYER_DIVISION_FILTER_LABELS[division]}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      <div className="flex min-w-0 flex-col gap-2">
        <Label htmlFor={`${id}-status`}>Status</Label>
        <Select value={filters.status} onValueChange={(value) => isStatusFilter(value) && onChange({ status: value })}>
          <SelectTrigger id={`${id}-status`}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {PLAYER_STATUS_FILTERS.map((status) => (
              <SelectItem key={status} value={status}>
                {PLAYER_STATUS_FILTER_LABELS[status]}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </div>
      <div className="flex items-end">
        <Button
          variant="outline"
          className="w-full lg:w-auto"
          onClick={() => {
            setSearchText('');
            onClear();
          }}
          disabled={!canClear}
        >
          <X aria-hidden="true" />
          Clear Filters
        </Button>
      </div>
    </div>
  );
}
