import { Check, Download, Eye, History, LoaderCircle, MoreHorizontal, RotateCw, Undo2, X } from 'lucide-react';
import type { TDocumentListItem } from '../../../../contract';
import { Button } from '@/components/ui/button';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '@/components/ui/dropdown-menu';
import { cn } from '@/lib/utils';
import { rowActionLayout, type DocumentRowAction } from '../document-actions';

export interface DocumentRowHandlers {
  onView: (document: TDocumentListItem) => void;
  onApprove: (document: TDocumentListItem) => void;
  onReject: (document: TDocumentListItem) => void;
  /** Puts a verified or rejected document back under review, asking why. */
  onReopen: (document: TDocumentListItem) => void;
  onDownload: (document: TDocumentListItem) => void;
  onHistory: (document: TDocumentListItem) => void;
  /** Runs the virus scan of a document whose scan keeps failing again now. */
  onRetryScan: (document: TDocumentListItem) => void;
}

/**
 * The row's actions the role can use (`actions`, from documentRowActions): View, Approve and Reject (these two
 * only while pending review), Reopen (only once verified or rejected), Retry (only while the virus scan keeps failing) and a More menu with Download and
 * History (a lone one of these is a button of its own). `compact` shows icons only (the table), except Retry,
 * which keeps its word so the one thing to do on such a row is plain; every button still has a name naming its
 * file, and More is an icon everywhere.
 */
export function DocumentRowActions({
  document,
  actions,
  handlers,
  reviewing,
  retrying,
  compact,
}: {
  document: TDocumentListItem;
  actions: readonly DocumentRowAction[];
  handlers: DocumentRowHandlers;
  /** A review of this row is in flight. */
  reviewing: boolean;
  /** A retry of this row's virus scan is in flight. */
  retrying: boolean;
  compact: boolean;
}) {
  const { buttons, menu } = rowActionLayout(actions);
  const shown = new Set(buttons);
  const size = compact ? 'icon' : 'sm';
  const iconOnly = compact ? 'size-8' : 'px-2.5';
  const text = (label: string) =>
    compact ? (
      <span className="sr-only">
        {label} {document.fileName}
      </span>
    ) : (
      <>
        {label}
        <span className="sr-only"> {document.fileName}</span>
      </>
    );
  return (
    <div className={cn('flex items-center gap-1', compact ? 'justify-end' : 'flex-wrap')} data-row-actions={document.id}>
      {shown.has('view') ? (
        <Button variant="ghost" size={size} className={iconOnly} title="View" onClick={() => handlers.onView(document)}>
          <Eye aria-hidden="true" />
          {text('View')}
        </Button>
      ) : null}
      {shown.has('approve') ? (
        <Button
          variant="ghost"
          size={size}
          className={cn(iconOnly, 'text-green-700 hover:text-green-800 dark:text-green-400 dark:hover:text-green-300')}
          title="Approve"
          disabled={reviewing}
          onClick={() => handlers.onApprove(document)}
        >
          {reviewing ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Check aria-hidden="true" />}
          {text('Approve')}
        </Button>
      ) : null}
      {shown.has('reject') ? (
        <Button
          variant="ghost"
          size={size}
          className={cn(iconOnly, 'text-red-700 hover:text-red-800 dark:text-red-400 dark:hover:text-red-300')}
          title="Reject"
          disabled={reviewing}
          onClick={() => handlers.onReject(document)}
        >
          <X aria-hidden="true" />
          {text('Reject')}
        </Button>
      ) : null}
      {shown.has('reopen') ? (
        <Button variant="ghost" size={size} className={iconOnly} title="Reopen for review" disabled={reviewing} onClick={() => handlers.onReopen(document)}>
          <Undo2 aria-hidden="true" />
          {text('Reopen')}
        </Button>
      ) : null}
      {shown.has('retryScan') ? (
        <Button
          variant="outline"
          size="sm"
          className="h-8 px-2.5"
          title="Retry the virus scan now"
          disabled={retrying}
          aria-busy={retrying}
          onClick={() => handlers.onRetryScan(document)}
        >
          {retrying ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <RotateCw aria-hidden="true" />}
          {retrying ? 'Retrying' : 'Retry'}
          <span className="sr-only"> the virus scan of {document.fileName}</span>
        </Button>
      ) : null}
      {shown.has('download') ? (
        <Button variant="ghost" size={size} className={iconOnly} title="Download" onClick={() => handlers.onDownload(document)}>
          <Download aria-hidden="true" />
          {text('Download')}
        </Button>
      ) : null}
      {shown.has('history') ? (
        <Button variant="ghost" size={size} className={iconOnly} title="History" onClick={() => handlers.onHistory(document)}>
          <History aria-hidden="true" />
          {text('History')}
        </Button>
      ) : null}
      {menu.length > 0 ? (
        <DropdownMenu modal={false}>
          <DropdownMenuTrigger asChild>
            {/* Icon-only on cards too: three labelled actions and this one fit a phone's row. */}
            <Button variant="ghost" size="icon" className={cn('size-8', !compact && 'ml-auto')} title="More actions">
              <MoreHorizontal aria-hidden="true" />
              <span className="sr-only">More {document.fileName}</span>
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent align="end">
            {menu.includes('download') ? (
              <DropdownMenuItem onSelect={() => handlers.onDownload(document)}>
                <Download aria-hidden="true" />
                Download
              </DropdownMenuItem>
            ) : null}
            {menu.includes('history') ? (
              <DropdownMenuItem onSelect={() => handlers.onHistory(document)}>
                <History aria-hidden="true" />
                History
              </DropdownMenuItem>
            ) : null}
          </DropdownMenuContent>
        </DropdownMenu>
      ) : null}
    </div>
  );
}
