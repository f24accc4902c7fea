import { useId } from 'react';
import { PLAYER_STATUS_FILTERS } from '../../../../contract';
import { ClearFiltersButton, FilterSearch } from '@/components/filter-bar';
import { LabelledSelect } from '@/components/labelled-select';
import { SeasonSelect } from '@/components/season-select';
import { Label } from '@/components/ui/label';
import { cn } from '@/lib/utils';
import { PLAYER_DIVISION_FILTER_LABELS, PLAYER_DIVISION_FILTERS, PLAYER_STATUS_FILTER_LABELS, type PlayerFilters } from '../player-filters';
import { useDebouncedInput } from '@/lib/use-debounced-input';

type FilterChange = Partial<Omit<PlayerFilters, 'page'>>;

interface PlayerFiltersBarProps {
  filters: Omit<PlayerFilters, 'page'>;
  onChange: (change: FilterChange) => void;
  /** Resets search, division and status (the season stays). */
  onClear: () => void;
  /** The Players screen picks a season here; the dashboard's overview follows the dashboard's season. */
  showSeason?: boolean;
  className?: string;
}

/** Search (name, player id or guardian, ignoring case and accents, sent ~300 ms after the last key), season, division, status and Clear Filters. */
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
      <FilterSearch id={`${id}-search`} placeholder="Name, player ID or guardian" value={searchText} onChange={setSearchText} />
      {showSeason ? (
        <div className="flex min-w-0 flex-col gap-2">
          <Label htmlFor={`${id}-season`}>Season</Label>
          <SeasonSelect id={`${id}-season`} value={filters.season} onValueChange={(season) => onChange({ season })} />
        </div>
      ) : null}
      <LabelledSelect
        id={`${id}-division`}
        label="Division"
        value={filters.division}
        options={PLAYER_DIVISION_FILTERS}
        labels={PLAYER_DIVISION_FILTER_LABELS}
        onChange={(division) => onChange({ division })}
      />
      <LabelledSelect
        id={`${id}-status`}
        label="Status"
        value={filters.status}
        options={PLAYER_STATUS_FILTERS}
        labels={PLAYER_STATUS_FILTER_LABELS}
        onChange={(status) => onChange({ status })}
      />
      <ClearFiltersButton
        onClear={() => {
          setSearchText('');
          onClear();
        }}
        disabled={!canClear}
      />
    </div>
  );
}
