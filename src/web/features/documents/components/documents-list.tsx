import { FileCheck2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { DOC_TYPE_LABELS, FILE_REMOVED_LABEL, type TDocumentListItem } from '../../../../contract';
import { DocumentStatusBadge } from '@/components/status-badges';
import { Checkbox } from '@/components/ui/checkbox';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatBytes, formatDateTime, shaPrefix } from '@/lib/format';
import { cn } from '@/lib/utils';
import type { DocumentRowAction } from '../document-actions';
import type { Selection } from '../selection';
import { DocumentRowActions, type DocumentRowHandlers } from './document-row-actions';

export const UNDETECTED_TYPE_TEXT = 'Undetected — needs review';

const uploadDate = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const uploadTime = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });

/** The row's status; a verified document whose file was removed on purpose says so (its verification stands). */
function ListStatusBadge({ document }: { document: TDocumentListItem }) {
  if (!document.fileRemoved) return <DocumentStatusBadge status={document.status} scanFailed={document.scanFailed} />;
  return (
    <span
      className="inline-flex w-fit items-center gap-1 rounded-md bg-green-100 px-2 py-0.5 text-xs font-medium whitespace-nowrap text-green-800 dark:bg-green-950 dark:text-green-300 [&>svg]:size-3"
      data-status="file_removed"
    >
      <FileCheck2 aria-hidden="true" />
      {FILE_REMOVED_LABEL}
    </span>
  );
}
/** The upload instant on two lines in the table (date, then time), so the column stays narrow. */
function UploadedAt({ iso }: { iso: string }) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return <span>{iso}</span>;
  return (
    <time dateTime={iso} className="grid">
      <span className="text-foreground">{uploadDate.format(date)}</span>
      <span>{uploadTime.format(date)}</span>
    </time>
  );
}

export interface DocumentsListProps {
  documents: readonly TDocumentListItem[];
  selection: Selection;
  onToggle: (id: string, selected: boolean) => void;
  handlers: DocumentRowHandlers;
  /** The actions the signed-in role can use on a row (documentRowActions). */
  rowActions: (document: TDocumentListItem) => readonly DocumentRowAction[];
  /** Rows have a checkbox only when the role has a bulk action to use on them. */
  selectable: boolean;
  /** The document whose review is in flight, if any. */
  reviewingId: string | null;
  /** The document whose scan retry is in flight, if any. */
  retryingId: string | null;
  /** Wide screens get a table; narrow ones a stack of cards. */
  layout: 'table' | 'cards';
}

function DocTypeText({ document }: { document: TDocumentListItem }) {
  return document.docType ? (
    <span>{DOC_TYPE_LABELS[document.docType]}</span>
  ) : (
    <span className="text-warning-soft-foreground">{UNDETECTED_TYPE_TEXT}</span>
  );
}

function ReviewReason({ document }: { document: TDocumentListItem }) {
  if (document.status !== 'rejected' || !document.reviewNotes) return null;
  return (
    <p data-testid="review-reason" className="text-xs break-words whitespace-normal text-destructive-soft-foreground">
      <span className="font-medium">Reason:</span> {document.reviewNotes}
    </p>
  );
}

function Sha({ document }: { document: TDocumentListItem }) {
  return (
    <span className="font-mono text-xs text-muted-foreground" title={document.fileSha256 ?? undefined}>
      <span className="sr-only">SHA-256 </span>
      {shaPrefix(document.fileSha256)}
    </span>
  );
}

function RowCheckbox({ document, selected, onToggle }: { document: TDocumentListItem; selected: boolean; onToggle: DocumentsListProps['onToggle'] }) {
  return (
    <Checkbox
      checked={selected}
      onCheckedChange={(checked) => onToggle(document.id, checked === true)}
      aria-label={`Select ${document.fileName}`}
      className="size-5 sm:size-4"
    />
  );
}

/**
 * The actions column fits the most buttons a row has: four icons, or Retry with its word, for a reviewer; one icon
 * for a role that has only History. No row with an action, no column.
 */
function actionsColumnClass(documents: readonly TDocumentListItem[], rowActions: DocumentsListProps['rowActions']): string | null {
  const most = Math.max(0, ...documents.map((document) => rowActions(document).length));
  if (most === 0) return null;
  return most === 1 ? 'w-16' : 'w-[10.5rem]';
}

function DocumentsTable({ documents, selection, onToggle, handlers, rowActions, selectable, reviewingId, retryingId }: DocumentsListProps) {
  const actionsColumn = actionsColumnClass(documents, rowActions);
  return (
    <Table className="table-fixed">
      <colgroup>
        {selectable ? <col className="w-11" /> : null}
        <col />
        <col className="w-32" />
        <col className="w-48" />
        <col className="w-24" />
        <col className="w-28" />
        {actionsColumn ? <col className={actionsColumn} /> : null}
      </colgroup>
      <TableHeader>
        <TableRow className="hover:bg-transparent">
          {selectable ? (
            <TableHead className="pl-4">
              <span className="sr-only">Selected</span>
            </TableHead>
          ) : null}
          <TableHead className={cn(!selectable && 'pl-4')}>File</TableHead>
          <TableHead>Status</TableHead>
          <TableHead>Player and type</TableHead>
          <TableHead className="text-right">Size</TableHead>
          <TableHead className={cn(!actionsColumn && 'pr-4')}>Uploaded</TableHead>
          {actionsColumn ? (
            <TableHead className="pr-4 text-right">
              <span className="sr-only">Actions</span>
            </TableHead>
          ) : null}
        </TableRow>
      </TableHeader>
      <TableBody>
        {documents.map((document) => {
          const selected = selection.has(document.id);
          return (
            <TableRow
              key={document.id}
              data-testid="document-row"
              data-document-id={document.id}
              data-state={selected ? 'selected' : undefined}
            >
              {selectable ? (
                <TableCell className="pl-4">
                  <RowCheckbox document={document} selected={selected} onToggle={onToggle} />
                </TableCell>
              ) : null}
              <TableCell className={cn('whitespace-normal', !selectable && 'pl-4')}>
                <div className="grid min-w-0 gap-0.5">
                  <span className="truncate font-medium" title={document.fileName} data-testid="document-file-name">
                    {document.fileName}
                  </span>
                  <Sha document={document} />
                  <ReviewReason document={document} />
                </div>
              </TableCell>
              <TableCell>
                <ListStatusBadge document={document} />
              </TableCell>
              <TableCell className="whitespace-normal">
                <div className="grid min-w-0 gap-0.5">
                  <span className="truncate" title={document.playerName} data-testid="document-player">
                    {document.playerName}
                    {document.division ? <span className="text-muted-foreground"> · {document.division}</span> : null}
                  </span>
                  <span className="text-xs">
                    <DocTypeText document={document} />
                  </span>
                </div>
              </TableCell>
              <TableCell className="text-right tabular-nums">{formatBytes(document.bytes)}</TableCell>
              <TableCell className={cn('text-xs text-muted-foreground tabular-nums', !actionsColumn && 'pr-4')}>
                <UploadedAt iso={document.uploadedAt} />
              </TableCell>
              {actionsColumn ? (
                <TableCell className="pr-4">
                  <DocumentRowActions
                    document={document}
                    actions={rowActions(document)}
                    handlers={handlers}
                    reviewing={reviewingId === document.id}
                    retrying={retryingId === document.id}
                    compact
                  />
                </TableCell>
              ) : null}
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}

function Detail({ label, children, className }: { label: string; children: ReactNode; className?: string }) {
  return (
    <div className={cn('min-w-0', className)}>
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="text-sm break-words">{children}</dd>
    </div>
  );
}

function DocumentCards({ documents, selection, onToggle, handlers, rowActions, selectable, reviewingId, retryingId }: DocumentsListProps) {
  return (
    <ul className="grid gap-3">
      {documents.map((document) => {
        const selected = selection.has(document.id);
        const actions = rowActions(document);
        return (
          <li
            key={document.id}
            data-testid="document-row"
            data-document-id={document.id}
            data-state={selected ? 'selected' : undefined}
            className="grid gap-3 rounded-lg border p-3 data-[state=selected]:border-primary/60 data-[state=selected]:bg-muted/50"
          >
            <div className="flex items-start gap-3">
              {selectable ? (
                <div className="flex h-6 items-center">
                  <RowCheckbox document={document} selected={selected} onToggle={onToggle} />
                </div>
              ) : null}
              <div className="grid min-w-0 flex-1 gap-1">
                <span className="font-medium break-all" data-testid="document-file-name">
                  {document.fileName}
                </span>
                <ListStatusBadge document={document} />
              </div>
            </div>
            <dl className="grid grid-cols-2 gap-x-4 gap-y-2">
              <Detail label="Player">
                <span data-testid="document-player">{document.playerName}</span>
                {document.division ? <span className="text-muted-foreground"> · {document.division}</span> : null}
              </Detail>
              <Detail label="Type">
                <DocTypeText document={document} />
              </Detail>
              <Detail label="Size">{formatBytes(document.bytes)}</Detail>
              <Detail label="Uploaded">
                <time dateTime={document.uploadedAt}>{formatDateTime(document.uploadedAt)}</time>
              </Detail>
              <Detail label="SHA-256" className="col-span-2">
                <span className="font-mono text-xs">{shaPrefix(document.fileSha256)}</span>
              </Detail>
            </dl>
            <ReviewReason document={document} />
            {actions.length > 0 ? (
              <div className="-mx-1 border-t pt-2">
                <DocumentRowActions
                  document={document}
                  actions={actions}
                  handlers={handlers}
                  reviewing={reviewingId === document.id}
                  retrying={retryingId === document.id}
                  compact={false}
                />
              </div>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}

/** The listed documents, as table rows on wide screens and as stacked cards on phones. */
export function DocumentsList(props: DocumentsListProps) {
  return props.layout === 'table' ? <DocumentsTable {...props} /> : <DocumentCards {...props} />;
}
