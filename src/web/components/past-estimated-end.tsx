import { ChevronsLeft, type LucideIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { formatCount } from '@/lib/format';

/**
 * A page past the real end of a list whose total was an estimate (an old link, or a page number the estimate
 * offered): nothing to show, and the way back to the start. `things` names what the list holds ('documents');
 * `list` what it is called in the sentence ('list', 'history').
 */
export function PastEstimatedEnd({
  icon: Icon,
  things,
  list,
  page,
  onFirstPage,
  testId,
}: {
  icon: LucideIcon;
  things: string;
  list: string;
  page: number;
  onFirstPage: () => void;
  testId: string;
}) {
  return (
    <div className="flex flex-col items-center gap-3 px-6 py-12 text-center" data-testid={testId}>
      <Icon className="size-10 text-muted-foreground" aria-hidden="true" />
      <p className="font-medium">No more {things}</p>
      <p className="max-w-md text-sm break-words text-muted-foreground">
        The {list} ends before page {formatCount(page)}: the number of {things} shown was an estimate.
      </p>
      <Button variant="outline" onClick={onFirstPage}>
        <ChevronsLeft aria-hidden="true" />
        Back to page 1
      </Button>
    </div>
  );
}
