import { CheckCircle2, Download, Eye, FileText, LoaderCircle, Lock, Mail, Phone, UserRound, XCircle } from 'lucide-react';
import { useRef, useState, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import { DOC_TYPE_LABELS, type TDocument, type TErasedPlayer, type TPlayerReport, type TPlayerReportRow } from '../../../../contract';
import {
  approvalIsStale,
  ApproveDocumentDialog,
  needsApprovalStep,
  RejectDocumentDialog,
  useReviewDocument,
  type ApproveTarget,
  type RejectTarget,
  type TReviewDecision,
} from '@/features/documents';
import { CompletionBar } from '@/components/completion-bar';
import { DocumentViewer, type ViewableDocument } from '@/components/document-viewer';
import { LoadError } from '@/components/load-error';
import { LoadingState } from '@/components/loading-state';
import { DocumentStatusBadge, PlayerDocStatusBadge } from '@/components/status-badges';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { getErrorMessage, isApiError } from '@/lib/api-client';
import { documentFileUrl } from '@/lib/document-file';
import { formatBytes, formatDate, formatDateTime } from '@/lib/format';
import { usePermissions } from '@/lib/session-api';
import { toast } from '@/lib/toast-store';
import { cn } from '@/lib/utils';
import { usePlayerReport, useRefreshPlayerTimeline, useSeasonRequirements } from '../api';
import { expiringText } from '../league-age';
import { LeagueAge } from './league-age';
import { requiredDocuments, STORAGE_WORDS, whatIsMissing } from '../required-documents';
import { useReturnFocus } from '@/lib/use-return-focus';
import { PlayerTimeline } from './player-timeline';
import { UploadLinkSection } from './upload-link-section';
import { FamilyDataSection } from './family-data-section';

const docTypeLabel = (document: TDocument): string => (document.docType ? DOC_TYPE_LABELS[document.docType] : 'Type not detected');

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="flex min-w-0 flex-col gap-3">
      <h3 className="text-sm font-semibold">{title}</h3>
      {children}
    </section>
  );
}

/** What the signed-in role may do with a document: open its file ('files.open'), review it ('documents.review'). */
type DocumentAccess = {
  open: boolean;
  review: boolean;
};

/** The review actions of the dialog, for the documents waiting for a decision. */
type ReviewHandlers = {
  onView: (document: TDocument) => void;
  onApprove: (document: TDocument) => void;
  onReject: (document: TDocument) => void;
  /** The document whose decision is being sent, if any. */
  busyId: string | null;
};

/** One document of the player: its facts and status, where it is kept (in words), and what the role may do with it. */
function DocumentItem({ document, access, handlers }: { document: TDocument; access: DocumentAccess; handlers: ReviewHandlers }) {
  const { originalFilename: fileName } = document;
  const stored = document.storageDriver !== null;
  const reviewable = access.review && document.status === 'pending';
  const busy = handlers.busyId === document.id;
  return (
    <li
      className="flex min-w-0 flex-col gap-2 rounded-lg border p-3 focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
      data-testid="player-document"
      data-document-id={document.id}
      data-status={document.status}
      tabIndex={-1}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="flex min-w-0 items-start gap-2">
          <FileText className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
          <div className="min-w-0">
            <p className="text-sm font-medium">{docTypeLabel(document)}</p>
            <p className="text-xs break-all text-muted-foreground">{fileName}</p>
          </div>
        </div>
        <DocumentStatusBadge status={document.status} scanFailed={document.scanFailed} />
      </div>
      <p className="text-xs text-muted-foreground">
        {formatBytes(document.bytes)} · Uploaded <time dateTime={document.uploadedAt}>{formatDateTime(document.uploadedAt)}</time>
      </p>
      {document.status === 'rejected' && document.reviewNotes ? (
        <p className="rounded-md bg-destructive-soft px-2 py-1.5 text-xs break-words text-destructive-soft-foreground">
          <span className="font-medium">Review notes:</span> {document.reviewNotes}
        </p>
      ) : null}
      {document.storageDriver ? (
        <p className="flex items-center gap-1.5 text-xs text-muted-foreground" data-testid="storage-words">
          <Lock className="size-3.5 shrink-0" aria-hidden="true" />
          {STORAGE_WORDS[document.storageDriver]}
        </p>
      ) : null}
      {(stored && access.open) || reviewable ? (
        <div className="flex flex-wrap gap-2">
          {stored && access.open ? (
            <>
              <Button variant="outline" size="sm" onClick={() => handlers.onView(document)} aria-haspopup="dialog">
                <Eye aria-hidden="true" />
                View
                <span className="sr-only"> {fileName}</span>
              </Button>
              <Button variant="outline" size="sm" asChild>
                <a href={documentFileUrl(document.id)} download={fileName}>
                  <Download aria-hidden="true" />
                  Download
                  <span className="sr-only"> {fileName}</span>
                </a>
              </Button>
            </>
          ) : null}
          {reviewable ? (
            <>
              <Button variant="outline" size="sm" disabled={busy} onClick={() => handlers.onApprove(document)}>
                {busy ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <CheckCircle2 aria-hidden="true" />}
                Approve
                <span className="sr-only"> {fileName}</span>
              </Button>
              <Button variant="outline" size="sm" disabled={busy} onClick={() => handlers.onReject(document)} aria-haspopup="dialog">
                <XCircle aria-hidden="true" />
                Reject
                <span className="sr-only"> {fileName}</span>
              </Button>
            </>
          ) : null}
        </div>
      ) : access.open && !stored ? (
        <p className="text-xs text-muted-foreground">No stored file to view.</p>
      ) : null}
    </li>
  );
}

/** Each required document of the season with its state, and the missing ones named in a sentence. */
function RequiredDocuments({ report }: { report: TPlayerReport }) {
  const required = requiredDocuments(report.status.documentsStatus, report.documents);
  const missing = whatIsMissing(required);
  return (
    <div className="flex flex-col gap-3">
      <p className={cn('text-sm', missing ? 'font-medium' : 'text-muted-foreground')} data-testid="missing-documents">
        {missing ?? 'Every required document is in.'}
      </p>
      <ul className="grid gap-2 sm:grid-cols-2" aria-label={`Required documents for ${report.season.name}`}>
        {required.map((document) => (
          <li
            key={document.docType}
            className="flex items-center justify-between gap-2 rounded-md border px-3 py-2"
            data-testid="required-document"
            data-doc-type={document.docType}
          >
            <span className="text-sm">{document.label}</span>
            {document.summary === 'expired' || document.summary === 'not_required' ? (
              <PlayerDocStatusBadge status={document.summary} />
            ) : (
              <DocumentStatusBadge status={document.status} scanFailed={document.scanFailed} />
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The player's guardian, else the contact a document was sent with. */
function guardianOf(report: TPlayerReport): { name: string | null; email: string | null; phone: string | null } {
  const { name, email, phone } = report.guardian;
  return {
    name,
    email: email ?? report.documents.find((d) => d.guardianEmail)?.guardianEmail ?? null,
    phone: phone ?? report.documents.find((d) => d.guardianPhone)?.guardianPhone ?? null,
  };
}

function GuardianContact({ report }: { report: TPlayerReport }) {
  const guardian = guardianOf(report);
  if (!guardian.name && !guardian.email && !guardian.phone) {
    return <p className="text-sm text-muted-foreground">No guardian information available</p>;
  }
  return (
    <ul className="flex flex-col gap-2 text-sm" data-testid="guardian-contact">
      {guardian.name ? (
        <li className="flex items-center gap-2">
          <UserRound className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
          <span className="break-words">{guardian.name}</span>
        </li>
      ) : null}
      {guardian.email ? (
        <li className="flex min-w-0 items-center gap-2">
          <Mail className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
          <a href={`mailto:${guardian.email}`} className="break-all text-primary underline-offset-4 hover:underline">
            {guardian.email}
          </a>
        </li>
      ) : null}
      {guardian.phone ? (
        <li className="flex items-center gap-2">
          <Phone className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
          <a href={`tel:${guardian.phone.replace(/[^0-9+]/g, '')}`} className="text-primary underline-offset-4 hover:underline">
            {guardian.phone}
          </a>
        </li>
      ) : null}
    </ul>
  );
}

function Fact({ term, children, className }: { term: string; children: ReactNode; className?: string }) {
  return (
    <div className={cn('flex min-w-0 flex-col gap-0.5', className)}>
      <dt className="text-xs text-muted-foreground">{term}</dt>
      <dd className="text-sm font-medium break-words">{children}</dd>
    </div>
  );
}

/** The list's row of the player, for what the player report does not carry: league age and the expiry day. */
type ListRow = Pick<TPlayerReportRow, 'playerId' | 'leagueAge' | 'ageFitsDivision' | 'division' | 'expiresOn' | 'documentsStatus'>;

function ReportBody({
  report,
  row,
  access,
  handlers,
  onErased,
}: {
  report: TPlayerReport;
  row: ListRow | undefined;
  access: DocumentAccess;
  handlers: ReviewHandlers;
  onErased: (result: TErasedPlayer) => void;
}) {
  const { status, season } = report;
  const { can } = usePermissions();
  const requirements = useSeasonRequirements(row ? season.id : undefined).data;
  const lapsing = requirements?.rules.filter((rule) => rule.required && rule.lasts === 'months').map((rule) => rule.docType);
  const expiring = row ? expiringText({ expiresOn: row.expiresOn, documentsStatus: status.documentsStatus }, lapsing) : null;
  return (
    <div className="flex min-w-0 flex-col gap-6">
      <dl className="grid grid-cols-2 gap-4 sm:grid-cols-[minmax(0,1.7fr)_minmax(0,0.8fr)_minmax(0,1fr)_minmax(0,1fr)]">
        <Fact term="Player ID" className="col-span-2 sm:col-span-1">
          <span className="font-mono text-xs break-all" data-testid="player-detail-id">
            {status.playerId}
          </span>
        </Fact>
        <Fact term="Division">
          <Badge variant="outline">{status.division}</Badge>
        </Fact>
        <Fact term="Birth date">{formatDate(report.birthDate)}</Fact>
        <Fact term="Season">{season.name}</Fact>
        {row ? (
          <Fact term="League age" className="col-span-2 sm:col-span-4">
            <LeagueAge player={{ ...row, division: status.division }} divisionAges={requirements?.divisionAges} />
          </Fact>
        ) : null}
        <div className="col-span-2 flex flex-col gap-1 sm:col-span-4">
          <dt className="text-xs text-muted-foreground">Completion</dt>
          <dd>
            <CompletionBar percent={status.completionPercentage} label={`Completion for ${status.playerName}`} />
          </dd>
          {expiring ? (
            <dd className="text-sm font-medium text-amber-900 dark:text-amber-200" data-testid="player-expiring">
              {expiring}
            </dd>
          ) : null}
        </div>
      </dl>
      <Section title="Required documents">
        <RequiredDocuments report={report} />
      </Section>
      <Section title={`Documents (${report.documents.length})`}>
        {report.documents.length === 0 ? (
          <p className="text-sm text-muted-foreground">No documents uploaded yet</p>
        ) : (
          <ul className="flex flex-col gap-3">
            {report.documents.map((document) => (
              <DocumentItem key={document.id} document={document} access={access} handlers={handlers} />
            ))}
          </ul>
        )}
      </Section>
      <Section title="Guardian contact">
        <GuardianContact report={report} />
      </Section>
      {can('notifications.send') ? (
        <Section title="Upload link">
          <UploadLinkSection playerId={status.playerId} playerName={status.playerName} season={season.id} guardianEmail={guardianOf(report).email} />
        </Section>
      ) : null}
      <Section title="Timeline">
        <PlayerTimeline playerId={status.playerId} />
      </Section>
      {can('players.privacy') ? (
        <Section title="Family's data">
          <FamilyDataSection playerId={status.playerId} playerName={status.playerName} onErased={onErased} />
        </Section>
      ) : null}
    </div>
  );
}

function ReportSkeleton() {
  return (
    <LoadingState label="Loading player" className="flex flex-col gap-4">
      <div className="grid grid-cols-2 gap-4 sm:grid-cols-4">
        {[0, 1, 2, 3].map((index) => (
          <div key={index} className="flex flex-col gap-1.5">
            <Skeleton className="h-3 w-16" />
            <Skeleton className="h-4 w-24 max-w-full" />
          </div>
        ))}
      </div>
      <Skeleton className="h-2 w-full" />
      {[0, 1].map((index) => (
        <Skeleton key={index} className="h-24 w-full" />
      ))}
    </LoadingState>
  );
}

export interface PlayerDetailDialogProps {
  /** The player to show; null keeps the dialog closed. */
  playerId: string | null;
  /** Shown as the title until the report arrives. */
  playerName?: string;
  /** A season id or year; undefined = the current season. */
  season?: string | number;
  /** The player's row in the list it was opened from: its league age and expiry day are shown too. */
  row?: ListRow | null | undefined;
  onOpenChange: (open: boolean) => void;
}

/** The element that had focus, to give it back when a dialog opened from it closes. */
const focusedElement = (): HTMLElement | null => (window.document.activeElement instanceof HTMLElement ? window.document.activeElement : null);

/** After Radix has finished closing a dialog (it would otherwise leave focus on the page body). */
const refocus = (element: HTMLElement | null) => requestAnimationFrame(() => element?.isConnected && element.focus());

/**
 * A player's registration in one season (GET /api/report/player): the facts, each required document's state
 * with the missing ones named, every document with its status, where it is kept in words and, for reviewers,
 * Approve and Reject; the guardian's contact, and the player's timeline across seasons. Used by the Players
 * screen and the dashboard's Document Status Overview.
 */
export function PlayerDetailDialog({ playerId, playerName, season, row, onOpenChange }: PlayerDetailDialogProps) {
  const report = usePlayerReport(playerId, season === undefined ? undefined : String(season));
  const [viewing, setViewing] = useState<ViewableDocument | null>(null);
  const [rejecting, setRejecting] = useState<RejectTarget | null>(null);
  const [approving, setApproving] = useState<ApproveTarget | null>(null);
  const [approveFailure, setApproveFailure] = useState<string | null>(null);
  // The viewer and the reject dialog have no trigger of their own, so focus goes back to their button by hand.
  const opener = useRef<HTMLElement | null>(null);
  const returnFocus = useReturnFocus();
  const review = useReviewDocument();
  const refreshTimeline = useRefreshPlayerTimeline();
  const title = report.data?.status.playerName ?? playerName ?? 'Player';
  const { can } = usePermissions();
  const access: DocumentAccess = { open: can('files.open'), review: can('documents.review') };
  const playerNameNow = report.data?.status.playerName ?? playerName ?? 'the player';
  const [, navigate] = useLocation();

  // The player is gone: back to the Players list, which no longer shows them, with what was done.
  const afterErasure = (result: TErasedPlayer) => {
    onOpenChange(false);
    navigate('/players');
    toast({ title: 'Player erased', description: result.message });
  };

  const afterDecision = () => {
    if (playerId !== null) void refreshTimeline(playerId);
  };

  const handlers: ReviewHandlers = {
    busyId: review.isPending ? (review.variables?.documentId ?? null) : null,
    onView: (document) => {
      opener.current = focusedElement();
      setViewing({ id: document.id, fileName: document.originalFilename, description: `${playerNameNow} · ${docTypeLabel(document)}` });
    },
    onApprove: (document) => {
      const { docType } = document;
      // A birth certificate, medical form or residency proof records its facts in an approval step first.
      if (needsApprovalStep(docType)) {
        setApproveFailure(null);
        setApproving({ id: document.id, fileName: document.originalFilename, playerName: playerNameNow, docType });
        return;
      }
      sendApproval({ id: document.id, fileName: document.originalFilename }, { status: 'verified' });
    },
    onReject: (document) => {
      opener.current = focusedElement();
      setRejecting({ id: document.id, fileName: document.originalFilename, playerName: playerNameNow });
    },
  };

  const sendApproval = (document: { id: string; fileName: string }, decision: TReviewDecision) =>
    review.mutate(
      { documentId: document.id, decision },
      {
        onSuccess: () => {
          setApproving(null);
          toast({ title: 'Document Approved', description: `${document.fileName} is now verified.` });
          // The Approve button is gone: focus stays on the document it was about.
          requestAnimationFrame(() => window.document.querySelector<HTMLElement>(`[data-document-id="${document.id}"]`)?.focus());
        },
        onError: (error) => {
          if (approvalIsStale(error)) setApproving(null);
          else setApproveFailure(getErrorMessage(error));
          toast({ title: 'Approve Failed', description: getErrorMessage(error), variant: 'destructive' });
        },
        onSettled: afterDecision,
      },
    );

  const closeRejecting = () => {
    setRejecting(null);
    const element = opener.current;
    opener.current = null;
    refocus(element);
  };

  const reject = (target: RejectTarget, reason: string, notifyGuardian: boolean) =>
    review.mutate(
      { documentId: target.id, decision: { status: 'rejected', reviewNotes: reason, notifyGuardian } },
      {
        onSuccess: () => {
          setRejecting(null);
          opener.current = null;
          const notice = notifyGuardian ? ' The guardian was e-mailed the reason (Notifications History shows whether it went out).' : '';
          toast({ title: 'Document Rejected', description: `${target.fileName} is rejected: ${reason}.${notice}` });
          requestAnimationFrame(() => window.document.querySelector<HTMLElement>(`[data-document-id="${target.id}"]`)?.focus());
        },
        onError: (error) => {
          // Someone else reviewed it (409) or it is gone (404): the dialog has nothing left to do.
          if (isApiError(error) && (error.status === 409 || error.status === 404)) closeRejecting();
          toast({ title: 'Reject Failed', description: getErrorMessage(error), variant: 'destructive' });
        },
        onSettled: afterDecision,
      },
    );

  return (
    <>
      <Dialog open={playerId !== null} onOpenChange={onOpenChange}>
        <DialogContent className="max-w-2xl" data-testid="player-detail-dialog" {...returnFocus}>
          <DialogHeader>
            <DialogTitle className="break-words">{title}</DialogTitle>
            <DialogDescription>
              {report.data ? `Registration documents for ${report.data.season.name}` : 'Registration documents and guardian contact'}
            </DialogDescription>
          </DialogHeader>
          {report.isPending ? (
            <ReportSkeleton />
          ) : report.isError ? (
            <LoadError
              title="Unable to load this player"
              detail={getErrorMessage(report.error)}
              onRetry={() => void report.refetch()}
              retrying={report.isFetching}
            />
          ) : (
            <ReportBody
              report={report.data}
              row={row && row.playerId === playerId ? row : undefined}
              access={access}
              handlers={handlers}
              onErased={afterErasure}
            />
          )}
        </DialogContent>
      </Dialog>
      <DocumentViewer
        document={viewing}
        onOpenChange={(open) => {
          if (open) return;
          setViewing(null);
          const element = opener.current;
          opener.current = null;
          refocus(element);
        }}
      />
      {access.review ? (
        <ApproveDocumentDialog
          target={approving}
          busy={review.isPending && review.variables?.documentId === approving?.id}
          failure={approveFailure}
          onOpenChange={(open) => !open && setApproving(null)}
          onApprove={(target, decision) => sendApproval(target, decision)}
        />
      ) : null}
      {access.review ? (
        <RejectDocumentDialog
          target={rejecting}
          busy={review.isPending && review.variables?.documentId === rejecting?.id}
          onOpenChange={(open) => !open && closeRejecting()}
          onReject={reject}
        />
      ) : null}
    </>
  );
}
