import { ChevronRight, Download } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import type { TStatsBreakdown } from '../../../../contract';
import { Button } from '@/components/ui/button';
import { SearchInput } from '@/components/ui/search-input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { downloadFile, fileTimestamp, toCsv } from '@/lib/csv';
import { toast } from '@/lib/toast-store';
import { cn } from '@/lib/utils';
import {
  buildDetailItems,
  DETAIL_CSV_HEADER,
  detailCsvFileName,
  detailCsvRows,
  filterItems,
  ITEM_STATUS_LABELS,
  ITEM_STATUSES,
  type DetailItem,
  type TItemStatus,
  type TItemStatusFilter,
  type TStatKind,
  toItemStatusFilter,
} from '../stat-details';

const numberFormat = new Intl.NumberFormat();

const STATUS_PILL: Record<TItemStatus, string> = {
  complete: 'bg-green-100 text-green-800 dark:bg-green-950 dark:text-green-300',
  incomplete: 'bg-red-100 text-red-800 dark:bg-red-950 dark:text-red-300',
  pending: 'bg-orange-100 text-orange-800 dark:bg-orange-950 dark:text-orange-300',
  error: 'bg-gray-200 text-gray-800 dark:bg-gray-800 dark:text-gray-200',
};

function StatusPill({ status }: { status: TItemStatus }) {
  return (
    <span className={cn('rounded-md px-2 py-0.5 text-xs font-medium whitespace-nowrap', STATUS_PILL[status])} data-status={status}>
      {ITEM_STATUS_LABELS[status]}
    </span>
  );
}

interface TreeProps {
  items: DetailItem[];
  isOpen: (id: string) => boolean;
  onToggle: (id: string) => void;
  depth: number;
}

function ItemTree({ items, isOpen, onToggle, depth }: TreeProps) {
  const baseId = useId();
  return (
    <ul className={cn('flex flex-col', depth > 0 && 'ml-4 border-l pl-2')}>
      {items.map((item) => {
        const hasChildren = item.children.length > 0;
        const open = hasChildren && isOpen(item.id);
        const childrenId = `${baseId}-${item.id}`;
        const metadata = Object.entries(item.metadata);
        return (
          <li key={item.id} data-testid="detail-item" data-item-id={item.id} data-status={item.status}>
            <div className="flex items-start gap-2 rounded-md px-1 py-2 hover:bg-muted/50">
              {hasChildren ? (
                <Button
                  variant="ghost"
                  size="icon"
                  className="size-6"
                  aria-expanded={open}
                  aria-controls={childrenId}
                  aria-label={`${open ? 'Collapse' : 'Expand'} ${item.name}`}
                  onClick={() => onToggle(item.id)}
                >
                  <ChevronRight className={cn('size-4 transition-transform', open && 'rotate-90')} aria-hidden="true" />
                </Button>
              ) : (
                <span className="size-6 shrink-0" aria-hidden="true" />
              )}
              <div className="min-w-0 flex-1">
                <p className="text-sm font-medium break-words">{item.name}</p>
                {metadata.length > 0 ? (
                  <p className="text-xs break-words text-muted-foreground">{metadata.map(([label, text]) => `${label}: ${text}`).join(' · ')}</p>
                ) : null}
              </div>
              <div className="flex shrink-0 flex-col-reverse items-end gap-1 sm:flex-row sm:items-center sm:gap-2">
                <StatusPill status={item.status} />
                <span className="text-sm font-semibold tabular-nums sm:w-14 sm:text-right" data-testid="detail-item-value">
                  {numberFormat.format(item.value)}
                </span>
              </div>
            </div>
            {open ? (
              <div id={childrenId}>
                <ItemTree items={item.children} isOpen={isOpen} onToggle={onToggle} depth={depth + 1} />
              </div>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}

/** The Details tab: search, status filter, CSV export of what is shown, and the expandable list. */
export function DetailItems({ kind, breakdown }: { kind: TStatKind; breakdown: TStatsBreakdown }) {
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<TItemStatusFilter>('all');
  // Branches start closed; while a filter is on they start open, so every match shows, and the
  // branches closed by hand are remembered until the filter changes.
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(() => new Set());
  const items = useMemo(() => buildDetailItems(kind, breakdown), [kind, breakdown]);
  const visible = useMemo(() => filterItems(items, { search, status }), [items, search, status]);
  const filtering = search.trim() !== '' || status !== 'all';

  const isOpen = (id: string) => (filtering ? !collapsed.has(id) : expanded.has(id));
  const toggle = (id: string) =>
    (filtering ? setCollapsed : setExpanded)((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const changeSearch = (text: string) => {
    setSearch(text);
    setCollapsed(new Set());
  };
  const changeStatus = (value: string) => {
    setStatus(toItemStatusFilter(value));
    setCollapsed(new Set());
  };

  const exportCsv = () => {
    const rows = detailCsvRows(visible);
    downloadFile(detailCsvFileName(kind, breakdown.season.id, fileTimestamp()), toCsv(DETAIL_CSV_HEADER, rows));
    toast({ title: 'Export Successful', description: `${rows.length} ${rows.length === 1 ? 'item' : 'items'} exported to CSV.` });
  };

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-2">
        <SearchInput
          wrapperClassName="w-full min-w-0 sm:w-auto sm:flex-1"
          value={search}
          onChange={(event) => changeSearch(event.target.value)}
          placeholder="Search items..."
          aria-label="Search items"
        />
        <Select value={status} onValueChange={changeStatus}>
          <SelectTrigger aria-label="Filter by status" className="w-auto min-w-0 flex-1 sm:w-36 sm:flex-none">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value="all">All</SelectItem>
            {ITEM_STATUSES.map((value) => (
              <SelectItem key={value} value={value}>
                {ITEM_STATUS_LABELS[value]}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        <Button variant="outline" onClick={exportCsv} disabled={visible.length === 0}>
          <Download aria-hidden="true" />
          Export
        </Button>
      </div>
      {/* Focusable, so the list scrolls from the keyboard too. */}
      <div role="region" aria-label="Items" tabIndex={0} className="h-96 overflow-y-auto rounded-md border p-2 outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50" data-testid="detail-items">
        {visible.length > 0 ? (
          <ItemTree items={visible} isOpen={isOpen} onToggle={toggle} depth={0} />
        ) : (
          <p className="flex h-full items-center justify-center p-4 text-center text-sm text-muted-foreground">No items match your search criteria</p>
        )}
      </div>
    </div>
  );
}
