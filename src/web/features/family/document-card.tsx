import { CircleCheck, CircleDashed, CircleX, Clock, PartyPopper, type LucideIcon } from 'lucide-react';
import { useEffect, useId, useRef } from 'react';
import type { TFamilyUploadResult } from '../../../contract';
import { cn } from '@/lib/utils';
import { documentCardView, type FamilyDocument, type StateTone } from './family-states';
import { UploadPanel } from './upload-panel';
import { nextSteps, type DeadLinkReason } from './upload-outcome';

const TONE_STYLES: Record<StateTone, { icon: LucideIcon; badge: string }> = {
  missing: { icon: CircleDashed, badge: 'bg-muted text-foreground' },
  waiting: { icon: Clock, badge: 'bg-warning-soft text-warning-soft-foreground' },
  done: { icon: CircleCheck, badge: 'bg-success-soft text-success-soft-foreground' },
  refused: { icon: CircleX, badge: 'bg-destructive-soft text-destructive-soft-foreground' },
};

/** What the family sees right after sending: received, and what happens next. It takes the focus. */
function Received({ message }: { message: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <div
      ref={ref}
      tabIndex={-1}
      role="status"
      data-testid="upload-received"
      className="flex items-start gap-3 rounded-lg bg-success-soft p-3 text-success-soft-foreground outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
    >
      <PartyPopper className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
      <div className="flex flex-col gap-0.5">
        <p className="font-semibold">Received</p>
        <p className="text-sm">{nextSteps(message)}</p>
      </div>
    </div>
  );
}

export function DocumentCard({
  token,
  document,
  receivedMessage,
  onSent,
  onDeadLink,
}: {
  token: string;
  document: FamilyDocument;
  /** The server's words after this page's upload of the document, until the page is left. */
  receivedMessage: string | null;
  onSent: (result: TFamilyUploadResult) => void;
  onDeadLink: (link: { reason: DeadLinkReason; message: string | null }) => void;
}) {
  const headingId = useId();
  const view = documentCardView(document);
  const { icon: Icon, badge } = TONE_STYLES[view.tone];
  return (
    <section
      aria-labelledby={headingId}
      data-testid={`family-document-${document.type}`}
      data-state={document.state}
      className="flex flex-col gap-3 rounded-xl border bg-card p-4 text-card-foreground shadow-sm"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={headingId} className="text-lg font-semibold tracking-tight">
          {document.label}
        </h2>
        <span data-testid="document-state" className={cn('inline-flex items-center gap-1.5 rounded-full px-2.5 py-1 text-sm font-medium', badge)}>
          <Icon className="size-4" aria-hidden="true" />
          {view.label}
        </span>
      </div>
      {view.reason ? (
        <div className="rounded-lg border border-destructive/30 bg-destructive-soft p-3 text-destructive-soft-foreground" data-testid="document-reason">
          <p className="text-sm font-semibold">Why it was not accepted</p>
          <p className="mt-0.5 text-base">{view.reason}</p>
        </div>
      ) : null}
      {receivedMessage ? <Received message={receivedMessage} /> : <p className="text-sm text-muted-foreground">{view.explanation}</p>}
      {view.canSend ? <UploadPanel token={token} docType={document.type} label={document.label} onSent={onSent} onDeadLink={onDeadLink} /> : null}
    </section>
  );
}
