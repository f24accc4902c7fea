import { X } from 'lucide-react';
import { useId } from 'react';
import { MAX_USER_SEARCH_LENGTH, USER_ROLE_FILTERS, USER_STATUS_FILTERS } from '../../../../contract';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { SearchInput } from '@/components/ui/search-input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { useDebouncedInput } from '@/lib/use-debounced-input';
import { USER_ROLE_FILTER_LABELS, USER_STATUS_FILTER_LABELS, type UserFilters } from '../user-filters';

function FilterSelect<T extends string>({
  label,
  value,
  options,
  labels,
  onChange,
}: {
  label: string;
  value: T;
  options: readonly T[];
  labels: Record<T, string>;
  onChange: (value: T) => void;
}) {
  const id = useId();
  const isOption = (next: string): next is T => (options as readonly string[]).includes(next);
  return (
    <div className="flex min-w-0 flex-col gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Select value={value} onValueChange={(next) => isOption(next) && onChange(next)}>
        <SelectTrigger id={id}>
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {options.map((option) => (
            <SelectItem key={option} value={option}>
              {labels[option]}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );
}

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
      <div className="flex min-w-0 flex-col gap-2 sm:col-span-2 lg:col-span-1">
        <Label htmlFor={`${id}-search`}>Search</Label>
        <SearchInput
          id={`${id}-search`}
          placeholder="First name, last name or e-mail"
          autoComplete="off"
          spellCheck={false}
          maxLength={MAX_USER_SEARCH_LENGTH}
          value={searchText}
          onChange={(event) => setSearchText(event.target.value)}
        />
      </div>
      <FilterSelect label="Role" value={filters.role} options={USER_ROLE_FILTERS} labels={USER_ROLE_FILTER_LABELS} onChange={(role) => onChange({ role })} />
      <FilterSelect
        label="Status"
        value={filters.status}
        options={USER_STATUS_FILTERS}
        labels={USER_STATUS_FILTER_LABELS}
        onChange={(status) => onChange({ status })}
      />
      <div className="flex items-end sm:col-span-2 lg:col-span-1">
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
