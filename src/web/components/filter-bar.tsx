import { X } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { SearchInput } from '@/components/ui/search-input';
import { cn } from '@/lib/utils';

/** The first cell of a filter bar: the search box under its label, as wide as the bar on a phone. */
export function FilterSearch({
  id,
  placeholder,
  maxLength,
  value,
  onChange,
}: {
  id: string;
  placeholder: string;
  maxLength?: number;
  value: string;
  onChange: (text: string) => void;
}) {
  return (
    <div className="flex min-w-0 flex-col gap-2 sm:col-span-2 lg:col-span-1">
      <Label htmlFor={id}>Search</Label>
      <SearchInput
        id={id}
        placeholder={placeholder}
        autoComplete="off"
        spellCheck={false}
        maxLength={maxLength}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </div>
  );
}

/** The last cell of a filter bar: Clear Filters, at the bottom of its cell, disabled while nothing is filtered. */
export function ClearFiltersButton({ onClear, disabled, className }: { onClear: () => void; disabled: boolean; className?: string }) {
  return (
    <div className={cn('flex items-end', className)}>
      <Button variant="outline" className="w-full lg:w-auto" onClick={onClear} disabled={disabled}>
        <X aria-hidden="true" />
        Clear Filters
      </Button>
    </div>
  );
}
