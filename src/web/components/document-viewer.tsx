import { useQuery, useQueryClient } from '@tanstack/react-query';
import { AlertTriangle, ChevronLeft, ChevronRight, Download, FileCheck2, FileWarning, LoaderCircle, RotateCcw } from 'lucide-react';
import { useEffect, useState, type KeyboardEvent, type ReactNode } from 'react';
import { DOC_TYPE_LABELS, FORBIDDEN_MESSAGE, ZDocument, type TDocument } from '../../contract';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { getErrorMessage, getQueryFn } from '@/lib/api-client';
import { formatDate, formatDateTime } from '@/lib/format';
import { fetchDocumentFile, previewKindOf, type TPreviewKind } from '@/lib/document-file';
import { saveUrlAs } from '@/lib/download';
import { rereadSessionAfter } from '@/lib/query-client';
import { useReturnFocus } from '@/lib/use-return-focus';
import { usePermissions } from '@/lib/session-api';

/** What the viewer needs to know about a document: its id and the name to show and download it under. */
export interface ViewableDocument {
  id: string;
  fileName: string;
  /** A line under the title, e.g. the player and document type. */
  description?: string;
  /** Verified, then its file removed on purpose: nothing is read, the viewer says so. */
  fileRemoved?: boolean;
}

/** GET /api/documents/{id}: the review record the viewer shows beside the file (the same query as the documents screen's). */
function useDocumentRecord(documentId: string) {
  return useQuery({ queryKey: ['api', 'documents', documentId], queryFn: getQueryFn({ schema: ZDocument }), staleTime: 0 });
}

/** What the approval recorded: the date of birth shown, the exam date, the document's date and group. */
function recordedFacts(document: TDocument): Array<{ label: string; value: string }> {
  const { birthDate, documentDate, residencyGroup } = document.facts;
  const facts: Array<{ label: string; value: string }> = [];
  if (birthDate) facts.push({ label: 'Date of birth shown', value: formatDate(birthDate) });
  if (documentDate) facts.push({ label: document.docType === 'medical' ? 'Exam date' : 'Date on the document', value: formatDate(documentDate) });
  if (residencyGroup) facts.push({ label: 'Group', value: residencyGroup });
  return facts;
}

/** A verified document's record: who verified it and when, and the facts the approval recorded. */
function VerificationRecord({ document }: { document: TDocument }) {
  if (document.status !== 'verified') return null;
  const facts = recordedFacts(document);
  return (
    <div className="grid gap-1 rounded-md border bg-muted/40 px-3 py-2 text-sm" data-testid="document-verification">
      <p>
        Verified
        {document.reviewedBy ? ` by ${document.reviewedBy}` : ''}
        {document.reviewedAt ? ` on ${formatDateTime(document.reviewedAt)}` : ''}
      </p>
      {facts.length > 0 ? (
        <dl className="flex flex-wrap gap-x-6 gap-y-1">
          {facts.map((fact) => (
            <div key={fact.label} className="flex min-w-0 gap-1.5">
              <dt className="text-muted-foreground">{fact.label}:</dt>
              <dd className="min-w-0 font-medium break-words">{fact.value}</dd>
            </div>
          ))}
        </dl>
      ) : null}
    </div>
  );
}

/** What reading found in the file, once it was read: a line of facts, and the checks as sentences. */
function ReadingSummary({ document }: { document: TDocument }) {
  if (document.reading.state !== 'done') return null;
  const { docType, fullName, dateOfBirth, documentDate } = document.extracted;
  const facts = [
    docType ? { label: 'Type', value: DOC_TYPE_LABELS[docType] } : null,
    fullName ? { label: 'Name', value: fullName } : null,
    dateOfBirth ? { label: 'Date of birth', value: formatDate(dateOfBirth) } : null,
    documentDate ? { label: 'Date', value: formatDate(documentDate) } : null,
  ].filter((fact): fact is { label: string; value: string } => fact !== null);
  return (
    <div className="grid gap-1 rounded-md border px-3 py-2 text-sm" data-testid="document-reading">
      <p className="font-medium">What the document says</p>
      {facts.length > 0 ? (
        <dl className="flex flex-wrap gap-x-6 gap-y-1">
          {facts.map((fact) => (
            <div key={fact.label} className="flex min-w-0 gap-1.5">
              <dt className="text-muted-foreground">{fact.label}:</dt>
              <dd className="min-w-0 break-words">{fact.value}</dd>
            </div>
          ))}
        </dl>
      ) : (
        <p className="text-muted-foreground">No type, name or date was found in it.</p>
      )}
      {document.checks.length > 0 ? (
        <ul className="grid gap-1">
          {document.checks.map((check) => (
            <li key={`${check.kind}:${check.message}`} className="flex items-start gap-2">
              <AlertTriangle className="mt-0.5 size-4 shrink-0 text-amber-700 dark:text-amber-300" aria-hidden="true" />
              {check.message}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** In place of the file, once it was removed after verification: when, and that the verification stands. */
function FileRemovedBody({ removedAt, actions }: { removedAt: string | null; actions?: ReactNode }) {
  return (
    <>
      <div
        data-testid="document-viewer-body"
        data-state="removed"
        className="flex min-h-40 items-center justify-center rounded-md border bg-muted/40"
      >
        <div role="status" className="flex max-w-sm flex-col items-center gap-2 p-6 text-center">
          <FileCheck2 className="size-8 text-muted-foreground" aria-hidden="true" />
          <p className="text-sm font-medium">Verified, file removed</p>
          <p className="text-sm text-muted-foreground">
            The file was removed{removedAt ? ` on ${formatDateTime(removedAt)}` : ''} after the document was verified. The verification is kept:
            the document still counts.
          </p>
        </div>
      </div>
      {actions ? <DialogFooter className="flex-row flex-wrap items-center gap-2 sm:justify-end">{actions}</DialogFooter> : null}
    </>
  );
}

/** Moving through a list of documents from the viewer: its buttons, and the left and right arrow keys. */
export interface ViewerNavigation {
  /** Where the document is in the list, e.g. '3 of 50'. */
  position: string;
  /** Left out on the first document. */
  onPrevious?: () => void;
  /** Left out on the last document. */
  onNext?: () => void;
}

/** An arrow key typed into a field moves its caret, not the viewer. */
function isTextEntry(target: EventTarget): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));
}

function NavigationButtons({ navigation }: { navigation: ViewerNavigation }) {
  return (
    <nav aria-label="Documents in this list" className="flex items-center gap-1">
      <Button variant="outline" size="sm" onClick={navigation.onPrevious} disabled={!navigation.onPrevious} aria-keyshortcuts="ArrowLeft">
        <ChevronLeft aria-hidden="true" />
        Previous
      </Button>
      <span className="px-1 text-sm whitespace-nowrap text-muted-foreground tabular-nums" data-testid="document-viewer-position">
        {navigation.position}
      </span>
      <Button variant="outline" size="sm" onClick={navigation.onNext} disabled={!navigation.onNext} aria-keyshortcuts="ArrowRight">
        Next
        <ChevronRight aria-hidden="true" />
      </Button>
    </nav>
  );
}

export type FileState =
  | { status: 'loading' }
  | { status: 'ready'; url: string; kind: TPreviewKind }
  | { status: 'error'; message: string };

/**
 * Reads the file once per mount into an object URL, revoked when the viewer closes (the body unmounts)
 * or reads again. Keyed by document and attempt by its parent, so each mount starts from 'loading'.
 */
export function useDocumentFile(documentId: string, fileName: string): FileState {
  const queryClient = useQueryClient();
  const [state, setState] = useState<FileState>({ status: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    let url: string | null = null;
    fetchDocumentFile(documentId, controller.signal).then(
      (blob) => {
        if (controller.signal.aborted) return;
        url = URL.createObjectURL(blob);
        setState({ status: 'ready', url, kind: previewKindOf(blob.type, fileName) });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        // Refused for the role (it changed while the page was open): the session is read again, like every call's.
        rereadSessionAfter(queryClient, error);
        setState({ status: 'error', message: getErrorMessage(error, 'The file could not be read. Please try again.') });
      },
    );
    return () => {
      controller.abort();
      if (url) URL.revokeObjectURL(url);
    };
  }, [documentId, fileName, queryClient]);
  return state;
}

function ViewerBody({ document, onRetry, actions }: { document: ViewableDocument; onRetry: () => void; actions?: ReactNode }) {
  const file = useDocumentFile(document.id, document.fileName);
  const label = `Preview of ${document.fileName}`;
  return (
    <>
      <div
        data-testid="document-viewer-body"
        data-state={file.status}
        className="flex h-[60dvh] min-h-48 shrink items-center justify-center overflow-hidden rounded-md border bg-muted/40"
      >
        {file.status === 'loading' ? (
          <p className="flex items-center gap-2 text-sm text-muted-foreground" role="status">
            <LoaderCircle className="size-4 animate-spin" aria-hidden="true" />
            Loading file…
          </p>
        ) : file.status === 'error' ? (
          <div role="alert" className="flex max-w-sm flex-col items-center gap-3 p-6 text-center">
            <FileWarning className="size-8 text-muted-foreground" aria-hidden="true" />
            <p className="text-sm font-medium">The file is not available</p>
            <p className="text-sm break-words text-muted-foreground">{file.message}</p>
            <Button variant="outline" size="sm" onClick={onRetry}>
              <RotateCcw aria-hidden="true" />
              Try again
            </Button>
          </div>
        ) : file.kind === 'pdf' ? (
          <iframe src={file.url} title={label} className="size-full bg-white" />
        ) : file.kind === 'image' ? (
          <img src={file.url} alt={label} className="max-h-full max-w-full object-contain" />
        ) : (
          <div className="flex max-w-sm flex-col items-center gap-2 p-6 text-center">
            <FileWarning className="size-8 text-muted-foreground" aria-hidden="true" />
            <p className="text-sm text-muted-foreground">This browser cannot show this kind of file. Download it to open it.</p>
          </div>
        )}
      </div>
      <DialogFooter className="flex-row flex-wrap items-center gap-2 sm:justify-end">
        {actions}
        <Button
          variant={actions ? 'outline' : 'default'}
          onClick={() => file.status === 'ready' && saveUrlAs(file.url, document.fileName)}
          disabled={file.status !== 'ready'}
        >
          <Download aria-hidden="true" />
          Download
        </Button>
      </DialogFooter>
    </>
  );
}

/**
 * A dialog that shows a stored document: PDFs in a frame, images as an image, with a Download button.
 * The file's frame gives up height first, so on a short screen the record, what reading found and the
 * buttons all stay in view.
 * It reads GET /api/documents/{id}/file with the session cookie; when no file is stored it shows the
 * server's message. Open it by passing a document, close it through onOpenChange(false).
 * A role without 'files.open' gets no preview at all: the file is not read (screens hide View for it, too).
 * `actions` (e.g. a reviewer's Approve and Reject) sit beside Download; `navigation` adds Previous and Next
 * through the screen's list, also on the left and right arrow keys.
 */
export function DocumentViewer({
  document,
  onOpenChange,
  actions,
  navigation,
}: {
  document: ViewableDocument | null;
  onOpenChange: (open: boolean) => void;
  actions?: ReactNode;
  navigation?: ViewerNavigation;
}) {
  const [attempt, setAttempt] = useState(0);
  const { can } = usePermissions();
  // Opened from a list row, with no trigger of its own: focus goes back to the row's View when it closes.
  const returnFocus = useReturnFocus();
  const onKeyDown = (event: KeyboardEvent) => {
    if (!navigation || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || isTextEntry(event.target)) return;
    const move = event.key === 'ArrowLeft' ? navigation.onPrevious : event.key === 'ArrowRight' ? navigation.onNext : undefined;
    if (!move) return;
    event.preventDefault();
    move();
  };
  return (
    <Dialog open={document !== null} onOpenChange={onOpenChange}>
      <DialogContent className="flex max-w-4xl flex-col" data-testid="document-viewer" onKeyDown={onKeyDown} {...returnFocus}>
        {document ? (
          <>
            <DialogHeader>
              <DialogTitle className="break-all">{document.fileName}</DialogTitle>
              <DialogDescription>{document.description ?? 'The stored file, decrypted for viewing.'}</DialogDescription>
            </DialogHeader>
            {navigation ? <NavigationButtons navigation={navigation} /> : null}
            <ViewerContent document={document} attempt={attempt} onRetry={() => setAttempt((n) => n + 1)} actions={actions} canOpen={can('files.open')} />
          </>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}

/** The record of the document, then its file (or why it is not shown). */
function ViewerContent({
  document,
  attempt,
  onRetry,
  actions,
  canOpen,
}: {
  document: ViewableDocument;
  attempt: number;
  onRetry: () => void;
  actions?: ReactNode;
  canOpen: boolean;
}) {
  const record = useDocumentRecord(document.id);
  const removedAt = record.data?.fileRemovedAt ?? null;
  const removed = document.fileRemoved === true || removedAt !== null;
  return (
    <>
      {record.data ? <VerificationRecord document={record.data} /> : null}
      {record.data ? <ReadingSummary document={record.data} /> : null}
      {removed ? (
        <FileRemovedBody removedAt={removedAt} actions={actions} />
      ) : canOpen ? (
        <ViewerBody key={`${document.id}:${attempt}`} document={document} onRetry={onRetry} actions={actions} />
      ) : (
        <p role="alert" data-testid="document-viewer-refused" className="text-sm text-muted-foreground">
          {FORBIDDEN_MESSAGE}
        </p>
      )}
    </>
  );
}
