import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/utils';
import { pageItems } from './page-items';

/**
 * Previous and next, up to 5 page numbers, then an ellipsis and the last page. Renders
 * nothing for a single page. With `lastPageKnown` false (the count of pages is an estimate), the
 * ellipsis stands for the pages beyond and no last page is offered.
 */
export function Pagination({
  page,
  pageCount,
  onPageChange,
  label = 'Pages',
  className,
  lastPageKnown = true,
}: {
  page: number;
  pageCount: number;
  onPageChange: (page: number) => void;
  label?: string;
  className?: string;
  lastPageKnown?: boolean;
}) {
  if (pageCount <= 1) return null;
  return (
    <nav aria-label={label} className={cn('flex flex-wrap items-center justify-center gap-1', className)}>
      <Button variant="outline" size="sm" className="px-2 sm:px-3" onClick={() => onPageChange(page - 1)} disabled={page <= 1} aria-label="Previous page">
        <ChevronLeft aria-hidden="true" />
        <span className="hidden sm:inline">Previous</span>
      </Button>
      {pageItems(page, pageCount, 5, lastPageKnown).map((item, index) =>
        item === 'ellipsis' ? (
          <span key={`ellipsis-${index}`} className="px-2 text-muted-foreground" aria-hidden="true">
            …
          </span>
        ) : (
          <Button
            key={item}
            variant={item === page ? 'default' : 'outline'}
            size="sm"
            className="min-w-8"
            onClick={() => onPageChange(item)}
            aria-label={`Page ${item}`}
            aria-current={item === page ? 'page' : undefined}
          >
            {item}
          </Button>
        ),
      )}
      <Button variant="outline" size="sm" className="px-2 sm:px-3" onClick={() => onPageChange(page + 1)} disabled={page >= pageCount} aria-label="Next page">
        <span className="hidden sm:inline">Next</span>
        <ChevronRight aria-hidden="true" />
      </Button>
    </nav>
  );
}
