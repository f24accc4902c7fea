import { useQueryClient } from '@tanstack/react-query';
import { Check, CheckCheck, CloudUpload, FileDown, FileSearch, LoaderCircle, RefreshCw, RotateCcw, Undo2, X } from 'lucide-react';
import { useCallback, useEffect, useId, useMemo, useReducer, useState } from 'react';
import { useSearchParams } from 'wouter';
import { DOC_TYPE_LABELS, FILE_REMOVED_LABEL, type TDocumentListItem } from '../../../../contract';
import { DocumentViewer, type ViewerNavigation } from '@/components/document-viewer';
import { EmptyState } from '@/components/empty-state';
import { LoadingState } from '@/components/loading-state';
import { PageHeader } from '@/components/page-header';
import { DOCUMENT_STATUS_LABELS } from '@/components/status-tones';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Pagination } from '@/components/pagination';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { getErrorMessage, isApiError } from '@/lib/api-client';
import { downloadFile } from '@/lib/csv';
import { PastEstimatedEnd } from '@/components/past-estimated-end';
import { listPageCount, pastEstimatedEnd } from '@/lib/list-pages';
import { formatCount } from '@/lib/format';
import { usePermissions } from '@/lib/session-api';
import { toast, type ToastInput } from '@/lib/toast-store';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useMediaQuery } from '@/lib/use-media-query';
import { useReturnFocus } from '@/lib/use-return-focus';
import { cn } from '@/lib/utils';
import {
  refreshAfterFileOpened,
  useBulkApproveDocuments,
  useDocumentList,
  useDownloadDocumentFile,
  useReopenDocument,
  useRetryScan,
  useReviewDocument,
  useUploadToStorage,
  type TReviewDecision,
} from '../api';
import { approvalIsStale, needsApprovalStep } from '../approval-step';
import { describeBulkApprove, planBulkApprove, unopenedApprovalQuestion } from '../bulk-approve';
import { documentBulkActions, documentRowActions, isReopenable } from '../document-actions';
import {
  changeDocumentFilters,
  DEFAULT_DOCUMENT_FILTERS,
  documentFiltersToParams,
  documentsSummary,
  DOCUMENTS_PAGE_SIZE,
  hasActiveDocumentFilters,
  parseDocumentFilters,
  type DocumentFilters,
} from '../document-filters';
import { documentsCsv, documentsCsvFileName } from '../documents-csv';
import { EMPTY_SELECTION, selectAllLabel, selectAllState, selectedRows, selectionReducer } from '../selection';
import { ApproveDocumentDialog, type ApproveTarget } from './approve-document-dialog';
import { DocumentFiltersCard } from './document-filters-card';
import { DocumentHistoryDialog, type HistoryTarget } from './document-history-dialog';
import type { DocumentRowHandlers } from './document-row-actions';
import { DocumentsList } from './documents-list';
import { RejectDocumentDialog, type RejectTarget } from './reject-document-dialog';
import { ReopenDocumentDialog, type ReopenTarget } from './reopen-document-dialog';

/** The table needs the room of a desktop window; narrower screens get stacked cards. */
const TABLE_QUERY = '(min-width: 1280px)';

const NO_DOCUMENTS: readonly TDocumentListItem[] = [];

/** The position in the whole list of a page's first row. */
const firstShownOf = (page: number): number => (page - 1) * DOCUMENTS_PAGE_SIZE + 1;

const documentsWord = (count: number): string => (count === 1 ? 'document' : 'documents');

function describeDocument(document: TDocumentListItem): string {
  const type = document.docType ? DOC_TYPE_LABELS[document.docType] : 'Undetected type';
  return `${document.playerName} · ${type} · ${document.fileRemoved ? FILE_REMOVED_LABEL : DOCUMENT_STATUS_LABELS[document.status]}`;
}

const reopenTargetOf = (document: TDocumentListItem): ReopenTarget => ({
  id: document.id,
  fileName: document.fileName,
  playerName: document.playerName,
  status: document.status,
});

/** Filters live in the URL (`?q=&status=&type=&page=`), so a filtered view can be reloaded and shared. */
function useDocumentFilters() {
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => parseDocumentFilters(params), [params]);
  const update = useCallback(
    (next: (current: DocumentFilters) => DocumentFilters) =>
      setParams((previous) => documentFiltersToParams(next(parseDocumentFilters(previous))), { replace: true }),
    [setParams],
  );
  return { filters, update };
}

function ListSkeleton() {
  return (
    <LoadingState label="Loading documents" className="grid gap-3 px-4 sm:px-6">
      {Array.from({ length: 6 }, (_, index) => (
        <div key={index} className="flex items-center gap-4">
          <Skeleton className="size-4" />
          <div className="grid flex-1 gap-1.5">
            <Skeleton className="h-4 w-64 max-w-full" />
            <Skeleton className="h-3 w-40 max-w-full" />
          </div>
          <Skeleton className="hidden h-5 w-24 sm:block" />
          <Skeleton className="hidden h-4 w-32 md:block" />
        </div>
      ))}
    </LoadingState>
  );
}

function ErrorState({ message, onRetry, retrying }: { message: string; onRetry: () => void; retrying: boolean }) {
  return (
    <div role="alert" className="flex flex-col items-center gap-3 px-6 py-12 text-center">
      <p className="font-medium">Documents could not be loaded</p>
      <p className="max-w-md text-sm break-words text-muted-foreground">{message}</p>
      <Button variant="outline" onClick={onRetry} disabled={retrying}>
        <RotateCcw className={cn(retrying && 'animate-spin')} aria-hidden="true" />
        Try again
      </Button>
    </div>
  );
}

export function DocumentsPage() {
  useDocumentTitle('Documents');
  const { filters, update } = useDocumentFilters();
  const list = useDocumentList(filters);
  const documents = list.data?.documents ?? NO_DOCUMENTS;
  const listedIds = useMemo(() => documents.map((document) => document.id), [documents]);
  const wide = useMediaQuery(TABLE_QUERY);
  const selectAllId = useId();
  // Each control the role cannot use is hidden (the server refuses it anyway); rows are selectable only for a bulk action.
  const { can } = usePermissions();
  const bulkActions = documentBulkActions(can);
  const selectable = bulkActions.length > 0;
  const rowActions = useCallback((document: TDocumentListItem) => documentRowActions(document, can), [can]);

  // Selection is by id, so a refetch keeps it; rows that are no longer listed leave it when new rows arrive.
  const [selection, dispatch] = useReducer(selectionReducer, EMPTY_SELECTION);
  const [prunedFor, setPrunedFor] = useState(listedIds);
  if (prunedFor !== listedIds) {
    setPrunedFor(listedIds);
    if (list.data) dispatch({ type: 'prune', listedIds });
  }
  const selected = selectedRows(selection, documents);
  const selectedCount = selected.length;

  // The viewer follows the listed row (its status changes as it is reviewed); the row as it was opened, when it
  // has left the list meanwhile (approved under the Under Review filter).
  const [viewed, setViewed] = useState<TDocumentListItem | null>(null);
  const viewing = viewed ? (documents.find((document) => document.id === viewed.id) ?? viewed) : null;
  const viewingIndex = viewing ? documents.findIndex((document) => document.id === viewing.id) : -1;
  const [rejecting, setRejecting] = useState<RejectTarget | null>(null);
  const [approving, setApproving] = useState<{ target: ApproveTarget; fromViewer: boolean } | null>(null);
  const [approveFailure, setApproveFailure] = useState<string | null>(null);
  const [reopening, setReopening] = useState<ReopenTarget | null>(null);
  // Approving documents nobody opened asks first.
  const [confirmApprove, setConfirmApprove] = useState<{ question: string; approvable: number } | null>(null);
  const [historyOf, setHistoryOf] = useState<HistoryTarget | null>(null);
  // The bulk-approve summary also stays on the list: the live 'status updated' toasts that follow can replace its toast.
  const [bulkSummary, setBulkSummary] = useState<ToastInput | null>(null);

  const queryClient = useQueryClient();
  const confirmFocus = useReturnFocus();
  const review = useReviewDocument();
  const reopen = useReopenDocument();
  const bulkApprove = useBulkApproveDocuments();
  const upload = useUploadToStorage();
  const retryScan = useRetryScan();
  const download = useDownloadDocumentFile();

  const onSearch = useCallback((search: string) => update((current) => changeDocumentFilters(current, { search })), [update]);

  const clearFilters = () => {
    update(() => DEFAULT_DOCUMENT_FILTERS);
    dispatch({ type: 'clear' });
  };

  const uploadSelected = () => {
    if (selectedCount === 0) {
      toast({ title: 'No Documents', description: 'No documents to upload. Please select documents.', variant: 'destructive' });
      return;
    }
    const ids = selected.map((document) => document.id);
    upload.mutate(ids, {
      onSuccess: ({ uploaded }) => {
        // The server counts files it moved; files already in secure storage (or with none stored) are left as they are.
        const alreadyThere = ids.length - uploaded;
        toast({
          title: 'Upload Successful',
          description:
            `${uploaded} documents uploaded to secure storage successfully.` +
            (alreadyThere > 0 ? ` ${alreadyThere} ${documentsWord(alreadyThere)} already in secure storage or with no stored file.` : ''),
        });
      },
      onError: (error) => {
        toast({
          title: 'Upload Failed',
          description: isApiError(error) && error.body ? error.body.message : 'Failed to upload documents to secure storage.',
          variant: 'destructive',
        });
      },
    });
  };

  const exportSelected = () => {
    if (selectedCount === 0) {
      toast({ title: 'No Documents', description: 'No documents to export. Please select documents.', variant: 'destructive' });
      return;
    }
    downloadFile(documentsCsvFileName(), documentsCsv(selected));
    toast({ title: 'Export Successful', description: `${selectedCount} documents exported to CSV.` });
  };

  const approveSelected = () => {
    if (selectedCount === 0) {
      toast({ title: 'No Documents', description: 'No documents to approve. Please select documents.', variant: 'destructive' });
      return;
    }
    const unopened = unopenedApprovalQuestion(selected);
    if (unopened) {
      setConfirmApprove(unopened);
      return;
    }
    approveConfirmed();
  };

  const approveConfirmed = () => {
    const plan = planBulkApprove(selected);
    const report = (summary: ToastInput) => {
      setBulkSummary(summary);
      toast(summary);
    };
    if (plan.approvableIds.length === 0) {
      report(describeBulkApprove(plan, null));
      return;
    }
    bulkApprove.mutate(plan.approvableIds, {
      onSuccess: (result) => report(describeBulkApprove(plan, result)),
      onError: (error) => toast({ title: 'Approve Failed', description: getErrorMessage(error), variant: 'destructive' }),
    });
  };

  /** After a decision in the viewer: the next listed document, or, after the last one, the list again. */
  const moveOnFrom = (documentId: string) => {
    const index = documents.findIndex((document) => document.id === documentId);
    const next = index >= 0 ? documents[index + 1] : undefined;
    if (next) setViewed(next);
    else closeViewer();
  };

  const closeViewer = () => {
    setViewed(null);
    // The file was read: the list's 'opened' flags and the history have changed.
    void refreshAfterFileOpened(queryClient);
  };

  /** Approves at once, or opens the approval step first when the type records facts (a waiver does not). */
  const approve = (document: TDocumentListItem, fromViewer: boolean) => {
    const { docType } = document;
    if (needsApprovalStep(docType)) {
      setApproveFailure(null);
      setApproving({ target: { id: document.id, fileName: document.fileName, playerName: document.playerName, docType }, fromViewer });
      return;
    }
    sendApproval(document, { status: 'verified' }, fromViewer);
  };

  const sendApproval = (document: Pick<TDocumentListItem, 'id' | 'fileName'>, decision: TReviewDecision, fromViewer: boolean) =>
    review.mutate(
      { documentId: document.id, decision },
      {
        onSuccess: () => {
          setApproving(null);
          toast({ title: 'Document Approved', description: `${document.fileName} is now verified.` });
          if (fromViewer) moveOnFrom(document.id);
        },
        onError: (error) => {
          // The step stays open with the server's words (a date of birth to confirm, a date after today); a
          // document someone else reviewed meanwhile, or one that is gone, leaves it nothing to do.
          if (approvalIsStale(error)) setApproving(null);
          else setApproveFailure(getErrorMessage(error));
          toast({ title: 'Approve Failed', description: getErrorMessage(error), variant: 'destructive' });
        },
      },
    );

  const handlers: DocumentRowHandlers = {
    onView: (document) => setViewed(document),
    onApprove: (document) => approve(document, false),
    onReject: (document) => setRejecting({ id: document.id, fileName: document.fileName, playerName: document.playerName }),
    onReopen: (document) => setReopening(reopenTargetOf(document)),
    onDownload: (document) =>
      download.mutate(
        { documentId: document.id, fileName: document.fileName },
        { onError: (error) => toast({ title: 'Download Failed', description: getErrorMessage(error), variant: 'destructive' }) },
      ),
    onHistory: (document) => setHistoryOf({ id: document.id, fileName: document.fileName }),
    onRetryScan: (document) =>
      retryScan.mutate(document.id, {
        onSuccess: (result) => toast({ title: 'Scan Queued', description: result.message }),
        onError: (error) => toast({ title: 'Retry Failed', description: getErrorMessage(error), variant: 'destructive' }),
      }),
  };

  const reject = (target: RejectTarget, reason: string, notifyGuardian: boolean) =>
    review.mutate(
      { documentId: target.id, decision: { status: 'rejected', reviewNotes: reason, notifyGuardian } },
      {
        onSuccess: () => {
          setRejecting(null);
          if (viewing?.id === target.id) moveOnFrom(target.id);
          const notice = notifyGuardian ? ' The guardian was e-mailed the reason (Notifications History shows whether it went out).' : '';
          toast({ title: 'Document Rejected', description: `${target.fileName} is rejected: ${reason}.${notice}` });
        },
        onError: (error) => {
          // Someone else reviewed it (409) or it is gone (404): the dialog has nothing left to do.
          if (isApiError(error) && (error.status === 409 || error.status === 404)) setRejecting(null);
          toast({ title: 'Reject Failed', description: getErrorMessage(error), variant: 'destructive' });
        },
      },
    );

  const reopenDocument = (target: ReopenTarget, reason: string) =>
    reopen.mutate(
      { documentId: target.id, reason },
      {
        onSuccess: () => {
          setReopening(null);
          toast({ title: 'Document Reopened', description: `${target.fileName} is under review again: ${reason}` });
        },
        onError: (error) => {
          if (isApiError(error) && (error.status === 409 || error.status === 404)) setReopening(null);
          toast({ title: 'Reopen Failed', description: getErrorMessage(error), variant: 'destructive' });
        },
      },
    );

  const reviewingId = review.isPending ? (review.variables?.documentId ?? null) : reopen.isPending ? (reopen.variables?.documentId ?? null) : null;
  const reviewer = can('documents.review');
  const previous = viewingIndex > 0 ? documents[viewingIndex - 1] : undefined;
  const next = viewingIndex >= 0 ? documents[viewingIndex + 1] : undefined;
  const viewerNavigation: ViewerNavigation | undefined =
    reviewer && viewing
      ? {
          position:
            viewingIndex >= 0
              ? `${formatCount(firstShownOf(filters.page) + viewingIndex)} of ${formatCount(list.data?.total ?? documents.length, list.data?.totalIsEstimate ?? false)}`
              : 'Not in the list',
          onPrevious: previous ? () => setViewed(previous) : undefined,
          onNext: next ? () => setViewed(next) : undefined,
        }
      : undefined;
  const viewerBusy = viewing !== null && reviewingId === viewing.id;
  const viewerActions =
    reviewer && viewing ? (
      viewing.status === 'pending' ? (
        <>
          <Button
            variant="outline"
            className="text-green-700 hover:text-green-800 dark:text-green-400 dark:hover:text-green-300"
            onClick={() => approve(viewing, true)}
            disabled={viewerBusy}
          >
            {viewerBusy ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Check aria-hidden="true" />}
            Approve
          </Button>
          <Button
            variant="outline"
            className="text-red-700 hover:text-red-800 dark:text-red-400 dark:hover:text-red-300"
            onClick={() => handlers.onReject(viewing)}
            disabled={viewerBusy}
          >
            <X aria-hidden="true" />
            Reject
          </Button>
        </>
      ) : isReopenable(viewing.status) ? (
        <Button variant="outline" onClick={() => handlers.onReopen(viewing)} disabled={viewerBusy}>
          <Undo2 aria-hidden="true" />
          Reopen
        </Button>
      ) : null
    ) : null;
  const retryingId = retryScan.isPending ? (retryScan.variables ?? null) : null;
  // What this answer tells of the list: its page, and the total, exact or (past the count's cap) an estimate.
  const listed = list.data && {
    page: list.data.page,
    pageSize: list.data.pageSize,
    rows: documents.length,
    total: list.data.total,
    totalIsEstimate: list.data.totalIsEstimate,
  };
  const pageCount = listed ? listPageCount(listed) : 1;
  const allState = selectAllState(selection, listedIds);

  // A page past the end (the last rows were approved away, or an old link): go to the last page there is. Past
  // the end of an estimated list there is no known last page: it says so, with the way back to the first.
  const settled = listed !== undefined && !list.isPlaceholderData;
  const pastTheEstimatedEnd = settled && pastEstimatedEnd(listed);
  const pastTheEnd = settled && !listed.totalIsEstimate && documents.length === 0 && listed.total > 0 && filters.page > pageCount;
  useEffect(() => {
    if (pastTheEnd) update((current) => ({ ...current, page: pageCount }));
  }, [pastTheEnd, pageCount, update]);

  return (
    <>
      <PageHeader
        title="Documents"
        description={can('documents.review') ? 'Manage document uploads and processing status' : 'Document uploads and their processing status'}
        actions={
          <>
            <Button variant="outline" onClick={() => void list.refetch()} disabled={list.isFetching}>
              <RefreshCw className={cn(list.isFetching && 'animate-spin')} aria-hidden="true" />
              Refresh
            </Button>
            {bulkActions.includes('upload') ? (
              <Button variant="outline" onClick={uploadSelected} disabled={selectedCount === 0 || upload.isPending}>
                {upload.isPending ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <CloudUpload aria-hidden="true" />}
                Upload Selected ({selectedCount})
              </Button>
            ) : null}
            {bulkActions.includes('export') ? (
              <Button onClick={exportSelected} disabled={selectedCount === 0}>
                <FileDown aria-hidden="true" />
                Export Selected ({selectedCount})
              </Button>
            ) : null}
          </>
        }
      />
      <div className="grid gap-6">
        <DocumentFiltersCard
          filters={filters}
          onSearch={onSearch}
          onStatus={(status) => update((current) => changeDocumentFilters(current, { status }))}
          onDocType={(docType) => update((current) => changeDocumentFilters(current, { docType }))}
          onClear={clearFilters}
        />
        <Card className="gap-4">
          <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-3 px-4 sm:px-6">
            <div className="grid gap-1">
              <CardTitle>Recent Documents</CardTitle>
              <p className="text-sm text-muted-foreground" aria-live="polite">
                {listed ? documentsSummary(listed, hasActiveDocumentFilters(filters)) : '\u00a0'}
              </p>
            </div>
            {documents.length > 0 && selectable ? (
              <div className="flex flex-wrap items-center gap-3">
                <div className="flex items-center gap-2">
                  <Checkbox
                    id={selectAllId}
                    checked={allState}
                    onCheckedChange={(checked) => dispatch({ type: 'setAll', listedIds, selected: checked === true })}
                    className="size-5 sm:size-4"
                  />
                  <Label htmlFor={selectAllId} className="cursor-pointer">
                    {selectAllLabel(selection, listedIds)}
                  </Label>
                </div>
                {bulkActions.includes('approve') ? (
                  <Button variant="outline" size="sm" onClick={approveSelected} disabled={selectedCount === 0 || bulkApprove.isPending}>
                    {bulkApprove.isPending ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <CheckCheck aria-hidden="true" />}
                    Approve Selected ({selectedCount})
                  </Button>
                ) : null}
              </div>
            ) : null}
          </CardHeader>
          {bulkSummary ? (
            <div
              role="status"
              data-testid="bulk-approve-summary"
              className="mx-4 flex items-start gap-3 rounded-md border bg-muted/40 px-3 py-2 text-sm sm:mx-6"
            >
              <CheckCheck className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
              <p className="min-w-0 flex-1 break-words">
                <span className="font-medium">{bulkSummary.title}:</span> {bulkSummary.description}
              </p>
              <Button variant="ghost" size="icon" className="-my-1 size-7" onClick={() => setBulkSummary(null)}>
                <X aria-hidden="true" />
                <span className="sr-only">Dismiss the approval summary</span>
              </Button>
            </div>
          ) : null}
          <CardContent className={cn('px-0', !wide && 'px-4 sm:px-6')}>
            {list.isPending || pastTheEnd ? (
              <ListSkeleton />
            ) : list.isError && !list.data ? (
              <ErrorState message={getErrorMessage(list.error)} onRetry={() => void list.refetch()} retrying={list.isFetching} />
            ) : pastTheEstimatedEnd ? (
              <PastEstimatedEnd
                icon={FileSearch}
                things="documents"
                list="list"
                page={filters.page}
                onFirstPage={() => update((current) => ({ ...current, page: 1 }))}
                testId="documents-past-end"
              />
            ) : documents.length === 0 ? (
              <EmptyState
                icon={FileSearch}
                iconSize="size-10"
                title="No documents found"
                description="No documents match your current filters."
                className="px-6 py-12"
              />
            ) : (
              <div
                data-testid="documents-list"
                className={cn('transition-opacity', list.isPlaceholderData && 'opacity-60')}
                aria-busy={list.isPlaceholderData}
              >
                <DocumentsList
                  documents={documents}
                  selection={selection}
                  onToggle={(id, isSelected) => dispatch({ type: 'toggle', id, selected: isSelected })}
                  handlers={handlers}
                  rowActions={rowActions}
                  selectable={selectable}
                  reviewingId={reviewingId}
                  retryingId={retryingId}
                  layout={wide ? 'table' : 'cards'}
                />
              </div>
            )}
            {list.isError && list.data ? (
              <p role="alert" className="mt-3 px-4 text-sm text-destructive-soft-foreground sm:px-6">
                The list could not be refreshed: {getErrorMessage(list.error)}
              </p>
            ) : null}
          </CardContent>
          {pageCount > 1 ? (
            <Pagination
              page={filters.page}
              pageCount={pageCount}
              onPageChange={(page) => update((current) => ({ ...current, page }))}
              label="Documents pages"
              lastPageKnown={!listed?.totalIsEstimate}
              className="px-4"
            />
          ) : null}
        </Card>
      </div>
      {/* Opened only from View, which a role without 'files.open' lacks; the viewer refuses such a role itself, too. */}
      <DocumentViewer
        document={viewing && { id: viewing.id, fileName: viewing.fileName, description: describeDocument(viewing), fileRemoved: viewing.fileRemoved }}
        onOpenChange={(open) => !open && closeViewer()}
        actions={viewerActions}
        navigation={viewerNavigation}
      />
      {reviewer ? (
        <>
          <ApproveDocumentDialog
            target={approving?.target ?? null}
            busy={review.isPending && review.variables?.documentId === approving?.target.id}
            failure={approveFailure}
            onOpenChange={(open) => !open && setApproving(null)}
            onApprove={(target, decision) => sendApproval(target, decision, approving?.fromViewer ?? false)}
          />
          <RejectDocumentDialog
            target={rejecting}
            busy={review.isPending && review.variables?.documentId === rejecting?.id}
            onOpenChange={(open) => !open && setRejecting(null)}
            onReject={reject}
          />
          <ReopenDocumentDialog
            target={reopening}
            busy={reopen.isPending}
            onOpenChange={(open) => !open && setReopening(null)}
            onReopen={reopenDocument}
            fallbackFocus={() =>
              // Reopened from the viewer, whose Reopen became Approve and Reject: the viewer; from a row: the row's first action.
              globalThis.document.querySelector<HTMLElement>(
                viewing ? '[data-testid="document-viewer"]' : `[data-document-id="${reopening?.id ?? ''}"] button`,
              )
            }
          />
          <AlertDialog open={confirmApprove !== null} onOpenChange={(open) => !open && setConfirmApprove(null)}>
            <AlertDialogContent data-testid="bulk-approve-confirm" {...confirmFocus}>
              <AlertDialogHeader>
                <AlertDialogTitle>Approve documents nobody has opened?</AlertDialogTitle>
                <AlertDialogDescription>{confirmApprove?.question}</AlertDialogDescription>
              </AlertDialogHeader>
              <AlertDialogFooter>
                <AlertDialogCancel>Cancel</AlertDialogCancel>
                <Button
                  onClick={() => {
                    setConfirmApprove(null);
                    approveConfirmed();
                  }}
                >
                  <CheckCheck aria-hidden="true" />
                  Approve all {confirmApprove?.approvable}
                </Button>
              </AlertDialogFooter>
            </AlertDialogContent>
          </AlertDialog>
        </>
      ) : null}
      <DocumentHistoryDialog target={historyOf} onOpenChange={(open) => !open && setHistoryOf(null)} />
    </>
  );
}
