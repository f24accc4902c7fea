import { SlidersHorizontal } from 'lucide-react';
import { useId, useState } from 'react';
import { PLAYER_SORTS, PLAYER_STATUS_FILTERS, type TPlayerSort } from '../../../../contract';
import { ClearFiltersButton, FilterSearch } from '@/components/filter-bar';
import { LabelledNativeSelect } from '@/components/labelled-native-select';
import { SeasonSelect } from '@/components/season-select';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { useSeasons } from '@/lib/seasons-query';
import { resolveSeason } from '@/lib/seasons';
import { cn } from '@/lib/utils';
import {
  activePlayerFilterCount,
  divisionChoices,
  PLAYER_DIVISION_FILTER_LABELS,
  PLAYER_MISSING_FILTER_LABELS,
  PLAYER_MISSING_FILTERS,
  PLAYER_STATUS_FILTER_LABELS,
  type PlayerFilters,
} from '../player-filters';
import { useDebouncedInput } from '@/lib/use-debounced-input';

type FilterChange = Partial<Omit<PlayerFilters, 'page'>>;

/** The order choices of a phone, which shows cards without column headers to click. */
const SORT_LABELS: Record<TPlayerSort, string> = {
  name: 'Name (A–Z)',
  '-name': 'Name (Z–A)',
  division: 'Division (AAA first)',
  '-division': 'Division (AAA last)',
  completion: 'Completion (lowest first)',
  '-completion': 'Completion (highest first)',
};

interface PlayerFiltersBarProps {
  filters: Omit<PlayerFilters, 'page'>;
  onChange: (change: FilterChange) => void;
  /** Resets search, division, status and missing type (the season and the order stay). */
  onClear: () => void;
  /** The Players screen picks a season here; the dashboard's overview follows the dashboard's season. */
  showSeason?: boolean;
  className?: string;
}

/**
 * Search (name, player id or guardian, ignoring case and accents, sent ~300 ms after the last key), season, division (those the season offers),
 * status, missing document type and Clear Filters. On a phone they fold behind one Filters button that says
 * how many narrow the list, with an order choice in place of the table's column headers.
 */
export function PlayerFiltersBar({ filters, onChange, onClear, showSeason = false, className }: PlayerFiltersBarProps) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [searchText, setSearchText] = useDebouncedInput(filters.search, (search) => onChange({ search }));
  const active = activePlayerFilterCount({ ...filters, search: searchText });
  const seasons = useSeasons();
  const season = resolveSeason(seasons.data?.seasons ?? [], filters.season);
  const divisions = divisionChoices(season?.divisions, filters.division);

  return (
    <div className={cn('flex flex-col gap-4', className)}>
      <Button
        type="button"
        variant="outline"
        className="w-full justify-between sm:hidden"
        aria-expanded={open}
        aria-controls={`${id}-filters`}
        onClick={() => setOpen((value) => !value)}
        data-testid="player-filters-toggle"
      >
        <span className="flex items-center gap-2">
          <SlidersHorizontal aria-hidden="true" />
          Filters
        </span>
        {active > 0 ? (
          <Badge variant="secondary" aria-label={`${active} active`}>
            {active}
          </Badge>
        ) : (
          <span className="text-xs text-muted-foreground">None</span>
        )}
      </Button>
      <div
        id={`${id}-filters`}
        role="search"
        aria-label="Player filters"
        className={cn(
          'gap-4 sm:grid sm:grid-cols-2',
          open ? 'grid' : 'hidden',
          // Six controls make two rows of three beside the sidebar; five fit one row of the dashboard's card.
          showSeason ? 'lg:grid-cols-3' : 'lg:grid-cols-[minmax(0,1.5fr)_repeat(2,minmax(0,1fr))_minmax(0,1.5fr)_auto]',
        )}
      >
        <FilterSearch id={`${id}-search`} placeholder="Name, player ID or guardian" value={searchText} onChange={setSearchText} />
        {showSeason ? (
          <div className="flex min-w-0 flex-col gap-2">
            <Label htmlFor={`${id}-season`}>Season</Label>
            <SeasonSelect id={`${id}-season`} value={filters.season} onValueChange={(next) => onChange({ season: next })} />
          </div>
        ) : null}
        <LabelledNativeSelect
          id={`${id}-division`}
          label="Division"
          value={filters.division}
          options={divisions}
          labels={PLAYER_DIVISION_FILTER_LABELS}
          onChange={(division) => onChange({ division })}
        />
        <LabelledNativeSelect
          id={`${id}-status`}
          label="Status"
          value={filters.status}
          options={PLAYER_STATUS_FILTERS}
          labels={PLAYER_STATUS_FILTER_LABELS}
          onChange={(status) => onChange({ status })}
        />
        <LabelledNativeSelect
          id={`${id}-missing`}
          label="Missing document"
          value={filters.missing}
          options={PLAYER_MISSING_FILTERS}
          labels={PLAYER_MISSING_FILTER_LABELS}
          onChange={(missing) => onChange({ missing })}
        />
        <LabelledNativeSelect
          id={`${id}-sort`}
          label="Sort by"
          value={filters.sort}
          options={PLAYER_SORTS}
          labels={SORT_LABELS}
          onChange={(sort) => onChange({ sort })}
          className="flex min-w-0 flex-col gap-2 sm:hidden"
        />
        <ClearFiltersButton
          onClear={() => {
            setSearchText('');
            onClear();
          }}
          disabled={active === 0}
        />
      </div>
    </div>
  );
}
