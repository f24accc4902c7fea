import { Copy, Download, Eye, FileText, Mail, Phone, UserRound } from 'lucide-react';
import { useRef, useState, type ReactNode } from 'react';
import { DOC_TYPE_LABELS, type TDocument, type TPlayerReport } from '../../../../contract';
import { CompletionBar } from '@/components/completion-bar';
import { DocumentViewer, type ViewableDocument } from '@/components/document-viewer';
import { LoadError } from '@/components/load-error';
import { LoadingState } from '@/components/loading-state';
import { DocumentStatusBadge } from '@/components/status-badges';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { getErrorMessage } from '@/lib/api-client';
import { documentFileUrl } from '@/lib/document-file';
import { formatBytes, formatDate, formatDateTime, storageUrlPrefix } from '@/lib/format';
import { usePermissions } from '@/lib/session-api';
import { toast } from '@/lib/toast-store';
import { cn } from '@/lib/utils';
import { usePlayerReport } from '../api';
import { useReturnFocus } from '@/lib/use-return-focus';

/** The toast after a storage URL is copied. */
async function copyStorageUrl(url: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(url);
    toast({ title: 'Copied to clipboard', description: 'S3 URL has been copied to your clipboard.' });
  } catch {
    toast({ title: 'Copy failed', description: 'The browser did not allow copying. Select the address and copy it by hand.', variant: 'destructive' });
  }
}

const docTypeLabel = (document: TDocument): string => (document.docType ? DOC_TYPE_LABELS[document.docType] : 'Type not detected');

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="flex min-w-0 flex-col gap-3">
      <h3 className="text-sm font-semibold">{title}</h3>
      {children}
    </section>
  );
}

/** What the signed-in role may do with a document's stored file. */
type FileAccess = {
  /** View and Download ('files.open'). */
  open: boolean;
  /** The storage URL to copy: it names the storage folder or bucket, which only admins see ('settings.manage'). */
  location: boolean;
};

/** One document of the player: its facts and status, and its stored file as far as the role may reach it. */
function DocumentItem({ document, onView, files }: { document: TDocument; onView: (document: TDocument) => void; files: FileAccess }) {
  const { originalFilename: fileName } = document;
  const stored = document.storageUrl !== null;
  const storageUrl = files.location ? document.storageUrl : null;
  return (
    <li className="flex min-w-0 flex-col gap-2 rounded-lg border p-3" data-testid="player-document" data-status={document.status}>
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
      {storageUrl ? (
        <div className="flex min-w-0 items-center gap-2">
          <code className="min-w-0 flex-1 truncate rounded bg-muted px-2 py-1 font-mono text-xs" title={storageUrl} data-testid="storage-url">
            {storageUrlPrefix(storageUrl)}
          </code>
          <Button variant="outline" size="sm" onClick={() => void copyStorageUrl(storageUrl)}>
            <Copy aria-hidden="true" />
            Copy
            <span className="sr-only"> storage URL of {fileName}</span>
          </Button>
        </div>
      ) : null}
      {stored && files.open ? (
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" size="sm" onClick={() => onView(document)} aria-haspopup="dialog">
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
        </div>
      ) : files.open ? (
        <p className="text-xs text-muted-foreground">No stored file to view.</p>
      ) : null}
    </li>
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

function ReportBody({ report, onView, files }: { report: TPlayerReport; onView: (document: TDocument) => void; files: FileAccess }) {
  const { status, season } = report;
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
        <div className="col-span-2 flex flex-col gap-1 sm:col-span-4">
          <dt className="text-xs text-muted-foreground">Completion</dt>
          <dd>
            <CompletionBar percent={status.completionPercentage} label={`Completion for ${status.playerName}`} />
          </dd>
        </div>
      </dl>
      <Section title={`Documents (${report.documents.length})`}>
        {report.documents.length === 0 ? (
          <p className="text-sm text-muted-foreground">No documents uploaded yet</p>
        ) : (
          <ul className="flex flex-col gap-3">
            {report.documents.map((document) => (
              <DocumentItem key={document.id} document={document} onView={onView} files={files} />
            ))}
          </ul>
        )}
      </Section>
      <Section title="Guardian contact">
        <GuardianContact report={report} />
      </Section>
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
  onOpenChange: (open: boolean) => void;
}

/**
 * A player's registration in one season (GET /api/report/player): the facts, every document with its
 * status and file, the guardian's contact and each file's storage URL to copy. Used by the Players
 * screen and the dashboard's Document Status Overview.
 */
export function PlayerDetailDialog({ playerId, playerName, season, onOpenChange }: PlayerDetailDialogProps) {
  const report = usePlayerReport(playerId, season === undefined ? undefined : String(season));
  const [viewing, setViewing] = useState<ViewableDocument | null>(null);
  // The viewer has no trigger of its own, so focus goes back to the View button by hand when it closes.
  const viewOpener = useRef<HTMLElement | null>(null);
  const returnFocus = useReturnFocus();
  const title = report.data?.status.playerName ?? playerName ?? 'Player';
  const { can } = usePermissions();
  const files: FileAccess = { open: can('files.open'), location: can('settings.manage') };

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
              files={files}
              onView={(document) => {
                viewOpener.current = window.document.activeElement instanceof HTMLElement ? window.document.activeElement : null;
                setViewing({
                  id: document.id,
                  fileName: document.originalFilename,
                  description: `${report.data.status.playerName} · ${docTypeLabel(document)}`,
                });
              }}
            />
          )}
        </DialogContent>
      </Dialog>
      <DocumentViewer
        document={viewing}
        onOpenChange={(open) => {
          if (open) return;
          setViewing(null);
          const opener = viewOpener.current;
          viewOpener.current = null;
          // After Radix has finished closing the viewer (it would otherwise leave focus on the page body).
          requestAnimationFrame(() => opener?.isConnected && opener.focus());
        }}
      />
    </>
  );
}
