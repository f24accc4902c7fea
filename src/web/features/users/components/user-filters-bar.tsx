import { useId } from 'react';
import { MAX_USER_SEARCH_LENGTH, USER_ROLE_FILTERS, USER_STATUS_FILTERS } from '../../../../contract';
import { ClearFiltersButton, FilterSearch } from '@/components/filter-bar';
import { LabelledSelect } from '@/components/labelled-select';
import { useDebouncedInput } from '@/lib/use-debounced-input';
import { USER_ROLE_FILTER_LABELS, USER_STATUS_FILTER_LABELS, type UserFilters } from '../user-filters';

/** Search (first name, last name or e-mail; sent ~300 ms after the last key), role, status and Clear Filters. */
export function UserFiltersBar({
  filters,
  onChange,
  onClear,
}: {
  filters: UserFilters;
  onChange: (change: Partial<UserFilters>) => void;
  onClear: () => void;
}) {
  const id = useId();
  const [searchText, setSearchText] = useDebouncedInput(filters.search, (search) => onChange({ search }));
  const canClear = searchText.trim() !== '' || filters.role !== 'all' || filters.status !== 'all';

  return (
    <div role="search" aria-label="User filters" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-[minmax(0,2fr)_repeat(2,minmax(0,1fr))_auto]">
      <FilterSearch
        id={`${id}-search`}
        placeholder="First name, last name or e-mail"
        maxLength={MAX_USER_SEARCH_LENGTH}
        value={searchText}
        onChange={setSearchText}
      />
      <LabelledSelect label="Role" value={filters.role} options={USER_ROLE_FILTERS} labels={USER_ROLE_FILTER_LABELS} onChange={(role) => onChange({ role })} />
      <LabelledSelect
        label="Status"
        value={filters.status}
        options={USER_STATUS_FILTERS}
        labels={USER_STATUS_FILTER_LABELS}
        onChange={(status) => onChange({ status })}
      />
      <ClearFiltersButton
        onClear={() => {
          setSearchText('');
          onClear();
        }}
        disabled={!canClear}
        className="sm:col-span-2 lg:col-span-1"
      />
    </div>
  );
}
