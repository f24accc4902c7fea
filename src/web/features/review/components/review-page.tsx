import { useQueryClient } from '@tanstack/react-query';
import { Camera, CheckCircle2, ChevronLeft, ChevronRight, CircleCheckBig, Keyboard, LoaderCircle, XCircle } from 'lucide-react';
import { useCallback, useEffect, useEffectEvent, useRef, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { DOC_TYPE_LABELS, FORBIDDEN_MESSAGE, UNREADABLE_REASON, type TDocumentListItem } from '../../../../contract';
import { EmptyState } from '@/components/empty-state';
import { LoadError } from '@/components/load-error';
import { LoadingState } from '@/components/loading-state';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import {
  ApproveDocumentDialog,
  approvalIsStale,
  needsApprovalStep,
  RejectDocumentDialog,
  type ApproveTarget,
  type RejectTarget,
  type TReviewDecision,
} from '@/features/documents';
import { getErrorMessage, isApiError } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { usePermissions } from '@/lib/session-api';
import { toast } from '@/lib/toast-store';
import { useDocumentTitle } from '@/lib/use-document-title';
import { prefetchReview, useDecideDocument, useReviewContext, useReviewedDocument, useReviewQueue } from '../api';
import { nextRotation, nextZoom, type Rotation, type Zoom } from '../file-view';
import { isDialogOpen, isTypingTarget, REVIEW_KEYS, reviewActionForKey, type ReviewAction } from '../review-keys';
import {
  approvalPrefill,
  currentIndex,
  decisionAnnouncement,
  offersBetterPhoto,
  pendingLeft,
  queueCounter,
  remainingQueue,
  stepIndex,
} from '../review-queue';
import { Kbd } from './kbd';
import { ReviewDocumentDetails } from './review-document-details';
import { ReviewFileView } from './review-file-view';
import { ReviewKeysDialog } from './review-keys-dialog';
import { ReviewSeasonSelect } from './review-season-select';

type Decision = 'approved' | 'rejected' | 'photo';

/** The season in the address (?season=fall-2026); none: every season. */
function useSeasonParam(): [string | undefined, (season: string | undefined) => void] {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const season = new URLSearchParams(search).get('season') ?? undefined;
  const setSeason = useCallback(
    (next: string | undefined) => navigate(next ? `${location}?season=${encodeURIComponent(next)}` : location, { replace: true }),
    [location, navigate],
  );
  return [season, setSeason];
}

/**
 * The Review screen: the pending documents, oldest first, one at a time: the document large on one side,
 * its registration and what reading found on the other, mismatches marked. Every action has a key (A, R,
 * J, K, Z, T, ?) and a button; after a decision the next document comes up and the decision is announced.
 */
export function ReviewPage() {
  useDocumentTitle('Review');
  const { can } = usePermissions();
  const [season, setSeason] = useSeasonParam();
  return (
    <>
      <PageHeader
        title="Review"
        description="Documents waiting for review, oldest first"
        actions={<ReviewSeasonSelect value={season} onChange={setSeason} />}
      />
      {can('documents.review') && can('files.open') ? (
        <ReviewQueue key={season ?? ''} season={season} />
      ) : (
        <p role="alert" className="text-sm text-muted-foreground" data-testid="review-refused">
          {FORBIDDEN_MESSAGE}
        </p>
      )}
    </>
  );
}

function ReviewQueue({ season }: { season: string | undefined }) {
  const queryClient = useQueryClient();
  const queue = useReviewQueue(season);
  const review = useDecideDocument();
  const regionRef = useRef<HTMLDivElement>(null);
  const [decided, setDecided] = useState<ReadonlySet<string>>(() => new Set());
  const [currentId, setCurrentId] = useState<string | null>(null);
  const [lastIndex, setLastIndex] = useState(0);
  const [view, setView] = useState<{ zoom: Zoom; rotation: Rotation }>({ zoom: 'fit', rotation: 0 });
  const [approving, setApproving] = useState<ApproveTarget | null>(null);
  const [approveFailure, setApproveFailure] = useState<string | null>(null);
  const [rejecting, setRejecting] = useState<RejectTarget | null>(null);
  const [showKeys, setShowKeys] = useState(false);
  const [announcement, setAnnouncement] = useState('');

  const listed = queue.data?.pages.flatMap((page) => page.documents) ?? [];
  const remaining = remainingQueue(listed, decided);
  const index = currentIndex(remaining, currentId, lastIndex);
  const current: TDocumentListItem | undefined = index >= 0 ? remaining[index] : undefined;
  const lastRead = queue.data?.pages.at(-1);
  const serverTotal = lastRead?.total ?? 0;
  // Past about a thousand pending, the server's count is an estimate, and is said as one.
  const totalIsEstimate = lastRead?.totalIsEstimate ?? false;
  const left = pendingLeft(serverTotal, listed, decided);
  const record = useReviewedDocument(current?.id ?? null);
  const context = useReviewContext(current?.id ?? null);
  const busy = review.isPending;

  /** Focus stays on the review region when what had it went away (a button of the document just decided). */
  const keepFocus = useCallback(() => {
    const active = document.activeElement;
    if (!active || active === document.body || !active.isConnected) regionRef.current?.focus();
  }, []);

  const goTo = (nextIndex: number) => {
    const target = remaining[nextIndex];
    setCurrentId(target?.id ?? null);
    setLastIndex(nextIndex);
    setView({ zoom: 'fit', rotation: 0 });
  };

  const step = (direction: 'next' | 'previous') => {
    if (index < 0) return;
    const next = stepIndex(index, remaining.length, direction);
    if (next !== undefined) goTo(next);
    else if (direction === 'next' && queue.hasNextPage && !queue.isFetchingNextPage) {
      // Past the last one read: the next hundred are read, and the first of them comes up.
      setCurrentId(null);
      setLastIndex(index + 1);
      void queue.fetchNextPage();
    }
  };

  const settle = (document: TDocumentListItem, decision: Decision) => {
    const after = new Set(decided).add(document.id);
    setDecided(after);
    // The one after it takes its place; the last one's place is taken by the one before it.
    const following = remaining[index + 1];
    setCurrentId(following?.id ?? null);
    setLastIndex(following ? index : Math.max(0, index - 1));
    setView({ zoom: 'fit', rotation: 0 });
    setAnnouncement(decisionAnnouncement(decision, document.playerName, document.docType, pendingLeft(serverTotal, listed, after), totalIsEstimate));
    requestAnimationFrame(keepFocus);
  };

  const send = (document: TDocumentListItem, decision: TReviewDecision, kind: Decision) =>
    review.mutate(
      { documentId: document.id, decision },
      {
        onSuccess: () => {
          setApproving(null);
          setRejecting(null);
          settle(document, kind);
        },
        onError: (error) => {
          const title = kind === 'approved' ? 'Approve Failed' : 'Reject Failed';
          toast({ title, description: getErrorMessage(error), variant: 'destructive' });
          // Someone else decided it meanwhile, or it is gone: it leaves the queue.
          const stale = kind === 'approved' ? approvalIsStale(error) : isApiError(error) && (error.status === 409 || error.status === 404);
          if (stale) {
            setApproving(null);
            setRejecting(null);
            setDecided((previous) => new Set(previous).add(document.id));
            requestAnimationFrame(keepFocus);
          } else if (kind === 'approved') {
            setApproveFailure(getErrorMessage(error));
          }
        },
      },
    );

  const approve = () => {
    if (!current || busy) return;
    const { docType } = current;
    if (needsApprovalStep(docType)) {
      setApproveFailure(null);
      setApproving({ id: current.id, fileName: current.fileName, playerName: current.playerName, docType, prefill: approvalPrefill(docType, record.data) });
      return;
    }
    send(current, { status: 'verified' }, 'approved');
  };

  const reject = () => {
    if (!current || busy) return;
    setRejecting({ id: current.id, fileName: current.fileName, playerName: current.playerName });
  };

  const askForBetterPhoto = () => {
    if (!current || busy) return;
    send(current, { status: 'rejected', reviewNotes: UNREADABLE_REASON, notifyGuardian: true }, 'photo');
  };

  const act = (action: ReviewAction) => {
    if (action === 'help') return setShowKeys(true);
    if (action === 'next' || action === 'previous') return step(action);
    if (action === 'zoom') return setView((previous) => ({ ...previous, zoom: nextZoom(previous.zoom) }));
    if (action === 'rotate') return setView((previous) => ({ ...previous, rotation: nextRotation(previous.rotation) }));
    if (action === 'approve') return approve();
    return reject();
  };
  // The listener is added once; it sees the latest queue and document through an effect event.
  const onKeyDown = useEffectEvent((event: KeyboardEvent) => {
    const action = reviewActionForKey(event, { typing: isTypingTarget(event.target), dialogOpen: isDialogOpen() });
    if (!action) return;
    event.preventDefault();
    // A dialog opened by a key gives focus back to the region when it closes, never to the page.
    keepFocus();
    act(action);
  });
  useEffect(() => {
    const listener = (event: KeyboardEvent) => onKeyDown(event);
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, []);

  // The next document's record and registration are read ahead, so stepping on shows them at once.
  const upcoming = remaining[index + 1]?.id;
  useEffect(() => {
    if (upcoming) prefetchReview(queryClient, upcoming);
  }, [upcoming, queryClient]);

  // Every document read so far was decided here: the queue is read again for the ones after them.
  const ranOut = queue.isSuccess && remaining.length === 0 && listed.length > 0 && !queue.isFetching;
  useEffect(() => {
    if (ranOut) void queue.refetch();
  }, [ranOut, queue]);

  const loadingMore = queue.isFetchingNextPage && index >= remaining.length - 1 && lastIndex > index;
  const empty = queue.isSuccess && remaining.length === 0 && listed.length === 0;

  return (
    <>
      <div className="sr-only" role="status" aria-live="polite" aria-atomic="true" data-testid="review-announcement">
        {announcement}
      </div>
      <div
        ref={regionRef}
        tabIndex={-1}
        role="region"
        aria-label="Document under review"
        data-testid="review-region"
        className="rounded-md outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
      >
        {queue.isPending ? (
          <LoadingState label="Loading the documents waiting for review" testId="review-loading" className="grid gap-4 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
            <Skeleton className="h-[50dvh] w-full" />
            <Skeleton className="h-64 w-full" />
          </LoadingState>
        ) : queue.isError && !queue.data ? (
          <LoadError
            variant="card"
            title="Unable to load the documents waiting for review"
            detail={getErrorMessage(queue.error)}
            onRetry={() => void queue.refetch()}
            retrying={queue.isFetching}
            testId="review-error"
          />
        ) : empty ? (
          <EmptyState
            variant="card"
            icon={CircleCheckBig}
            title="Nothing waiting for review."
            description="New documents appear here as families send them."
            className="py-10"
            testId="review-empty"
          />
        ) : current ? (
          <div className="flex flex-col gap-4">
            <ReviewToolbar
              position={index + 1}
              total={Math.max(left, index + 1)}
              totalIsEstimate={totalIsEstimate}
              busy={busy}
              onPrevious={index > 0 ? () => step('previous') : undefined}
              onNext={index < remaining.length - 1 || queue.hasNextPage ? () => step('next') : undefined}
              onApprove={approve}
              onReject={reject}
              onBetterPhoto={record.data && offersBetterPhoto(record.data.checks) ? askForBetterPhoto : undefined}
              onKeys={() => setShowKeys(true)}
            />
            <div className="grid gap-4 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]" data-testid="review-current" data-document-id={current.id}>
              <ReviewFileView
                documentId={current.id}
                fileName={current.fileName}
                zoom={view.zoom}
                rotation={view.rotation}
                onZoom={() => act('zoom')}
                onRotate={() => act('rotate')}
              />
              <Card className="gap-4 py-4">
                <CardContent className="flex flex-col gap-4 px-4">
                  <div className="min-w-0">
                    <h2 className="text-lg font-semibold break-words" data-testid="review-player">
                      {current.playerName}
                    </h2>
                    <p className="text-sm break-words text-muted-foreground">
                      {current.docType ? DOC_TYPE_LABELS[current.docType] : 'Type not detected'} · <span className="break-all">{current.fileName}</span> ·
                      received {formatDateTime(current.uploadedAt)}
                    </p>
                  </div>
                  <ReviewDocumentDetails item={current} record={record} context={context} />
                </CardContent>
              </Card>
            </div>
          </div>
        ) : loadingMore || queue.isFetching || ranOut ? (
          <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
            <LoaderCircle className="size-4 animate-spin" aria-hidden="true" />
            Loading the next documents…
          </p>
        ) : null}
        {queue.isError && queue.data ? (
          <p role="alert" className="mt-3 text-sm text-destructive-soft-foreground">
            The list could not be refreshed: {getErrorMessage(queue.error)}
          </p>
        ) : null}
      </div>
      <ApproveDocumentDialog
        target={approving}
        busy={busy}
        failure={approveFailure}
        onOpenChange={(open) => !open && setApproving(null)}
        onApprove={(target, decision) => {
          const document = remaining.find((item) => item.id === target.id);
          if (document) send(document, decision, 'approved');
        }}
      />
      <RejectDocumentDialog
        target={rejecting}
        busy={busy}
        onOpenChange={(open) => !open && setRejecting(null)}
        onReject={(target, reason, notifyGuardian) => {
          const document = remaining.find((item) => item.id === target.id);
          if (document) send(document, { status: 'rejected', reviewNotes: reason, notifyGuardian }, 'rejected');
        }}
      />
      <ReviewKeysDialog open={showKeys} onOpenChange={setShowKeys} />
    </>
  );
}

/** The counter, Previous and Next, and the decisions, each with its key. */
function ReviewToolbar({
  position,
  total,
  totalIsEstimate,
  busy,
  onPrevious,
  onNext,
  onApprove,
  onReject,
  onBetterPhoto,
  onKeys,
}: {
  position: number;
  total: number;
  /** The total is the server's estimate: 'about 24,200'. */
  totalIsEstimate: boolean;
  busy: boolean;
  onPrevious: (() => void) | undefined;
  onNext: (() => void) | undefined;
  onApprove: () => void;
  onReject: () => void;
  onBetterPhoto: (() => void) | undefined;
  onKeys: () => void;
}) {
  const target = 'h-11 sm:h-9';
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-center sm:justify-between">
      <nav aria-label="Documents waiting for review" className="flex items-center gap-2">
        <Button variant="outline" className={target} onClick={onPrevious} disabled={!onPrevious} aria-keyshortcuts={REVIEW_KEYS.previous}>
          <ChevronLeft aria-hidden="true" />
          Previous
          <Kbd>{REVIEW_KEYS.previous}</Kbd>
        </Button>
        {/* On a phone an estimated count ('3 of about 24,200 pending') may take two lines between the buttons. */}
        <span className="min-w-0 px-1 text-center text-sm font-medium text-balance tabular-nums sm:whitespace-nowrap" data-testid="review-counter">
          {queueCounter(position, total, totalIsEstimate)}
        </span>
        <Button variant="outline" className={target} onClick={onNext} disabled={!onNext} aria-keyshortcuts={REVIEW_KEYS.next}>
          Next
          <ChevronRight aria-hidden="true" />
          <Kbd>{REVIEW_KEYS.next}</Kbd>
        </Button>
      </nav>
      <div className="grid grid-cols-2 gap-2 sm:flex sm:flex-wrap sm:items-center" role="group" aria-label="Decision">
        <Button className={target} onClick={onApprove} disabled={busy} aria-keyshortcuts={REVIEW_KEYS.approve} data-testid="review-approve">
          {busy ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <CheckCircle2 aria-hidden="true" />}
          Approve
          <Kbd>{REVIEW_KEYS.approve}</Kbd>
        </Button>
        <Button variant="destructive" className={target} onClick={onReject} disabled={busy} aria-keyshortcuts={REVIEW_KEYS.reject} data-testid="review-reject">
          <XCircle aria-hidden="true" />
          Reject
          <Kbd>{REVIEW_KEYS.reject}</Kbd>
        </Button>
        {onBetterPhoto ? (
          <Button variant="outline" className={`${target} col-span-2`} onClick={onBetterPhoto} disabled={busy} data-testid="review-better-photo">
            <Camera aria-hidden="true" />
            Ask for a better photo
          </Button>
        ) : null}
        <Button variant="ghost" className={`${target} col-span-2 sm:col-span-1`} onClick={onKeys} aria-keyshortcuts="Shift+?">
          <Keyboard aria-hidden="true" />
          Keys
          <Kbd>?</Kbd>
        </Button>
      </div>
    </div>
  );
}
