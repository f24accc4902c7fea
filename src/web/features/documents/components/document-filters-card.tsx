import { FilterX } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { DOC_TYPE_FILTERS, DOCUMENT_STATUS_FILTERS, MIN_CONTENT_SEARCH_WORD } from '../../../../contract';
import { LabelledSelect } from '@/components/labelled-select';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { SearchInput } from '@/components/ui/search-input';
import { Label } from '@/components/ui/label';
import { usePermissions } from '@/lib/session-api';
import {
  DOC_TYPE_FILTER_LABELS,
  MAX_SEARCH_LENGTH,
  STATUS_FILTER_LABELS,
  type DocumentFilters,
  type TDocTypeFilter,
  type TDocumentStatusFilter,
} from '../document-filters';

/** How long typing must pause before the search reaches the URL and the server. */
export const SEARCH_DEBOUNCE_MS = 300;

/**
 * The search box keeps what is typed locally and sends it on after a pause. When the URL's search changes
 * from elsewhere (Clear Filters, back button), the box follows it.
 */
function SearchBox({ value, onSearch }: { value: string; onSearch: (search: string) => void }) {
  const id = useId();
  // Staff who may open files also find documents by the words inside them.
  const inside = usePermissions().can('files.open');
  const [text, setText] = useState(value);
  const [seenValue, setSeenValue] = useState(value);
  if (value !== seenValue) {
    setSeenValue(value);
    if (value !== text.trim()) setText(value);
  }

  useEffect(() => {
    const search = text.trim();
    if (search === value) return;
    const timer = setTimeout(() => onSearch(search), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, value, onSearch]);

  return (
    <div className="grid min-w-0 gap-2">
      <Label htmlFor={id}>Search</Label>
      <SearchInput
        id={id}
        value={text}
        onChange={(event) => setText(event.target.value)}
        maxLength={MAX_SEARCH_LENGTH}
        placeholder={inside ? 'Search names, files or words in documents' : 'Player name or file name'}
        autoComplete="off"
        aria-describedby={inside ? `${id}-hint` : undefined}
      />
      {inside ? (
        <p id={`${id}-hint`} className="sr-only">
          Finds a player’s name, a file name, or words inside the documents ({MIN_CONTENT_SEARCH_WORD} letters or more).
        </p>
      ) : null}
    </div>
  );
}

export interface DocumentFiltersCardProps {
  filters: DocumentFilters;
  onSearch: (search: string) => void;
  onStatus: (status: TDocumentStatusFilter) => void;
  onDocType: (docType: TDocTypeFilter) => void;
  onClear: () => void;
}

/** Search, status and document type; Clear Filters also empties the selection. */
export function DocumentFiltersCard({ filters, onSearch, onStatus, onDocType, onClear }: DocumentFiltersCardProps) {
  return (
    <Card className="py-4">
      <CardContent className="grid items-end gap-4 px-4 sm:grid-cols-2 sm:px-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)_auto]">
        <div className="sm:col-span-2 lg:col-span-1">
          <SearchBox value={filters.search} onSearch={onSearch} />
        </div>
        <LabelledSelect
          label="Status"
          value={filters.status}
          options={DOCUMENT_STATUS_FILTERS}
          labels={STATUS_FILTER_LABELS}
          onChange={onStatus}
          className="grid min-w-0 gap-2"
        />
        <LabelledSelect
          label="Document type"
          value={filters.docType}
          options={DOC_TYPE_FILTERS}
          labels={DOC_TYPE_FILTER_LABELS}
          onChange={onDocType}
          className="grid min-w-0 gap-2"
        />
        <Button variant="outline" onClick={onClear} className="sm:col-span-2 lg:col-span-1">
          <FilterX aria-hidden="true" />
          Clear Filters
        </Button>
      </CardContent>
    </Card>
  );
}
