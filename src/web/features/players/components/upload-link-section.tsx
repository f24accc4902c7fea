import { Ban, Link2, LoaderCircle, Send } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import type { TUploadLink } from '../../../../contract';
import { CopyButton } from '@/components/copy-button';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { getErrorMessage } from '@/lib/api-client';
import { useReturnFocus } from '@/lib/use-return-focus';
import { cn } from '@/lib/utils';
import { useRevokeUploadLinks, useSendUploadLink, useUploadLinkStatus } from '../api';
import { sendLinkUnavailable, sendResultSentence, uploadLinkStatusLine, worksUntil } from '../upload-link-text';
import { useCopyUploadLink } from './upload-link-actions';

/** The last answer of an action of the section, said under the buttons (announced politely). */
type Outcome = { ok: boolean; text: string } | null;

interface UploadLinkSectionProps {
  playerId: string;
  playerName: string;
  /** The season the dialog shows (its id). */
  season: string;
  /** Where Send link e-mails the link; null when no guardian e-mail is on file. */
  guardianEmail: string | null;
}

/**
 * The family's upload link for staff who may message families: how many links work and when one was last opened;
 * Copy upload link (a new link, copied, and shown in a read-only field to copy by hand where the clipboard
 * fails), Send link (e-mailed to the guardian) and Stop links (every working link stops, after a confirm).
 */
export function UploadLinkSection({ playerId, playerName, season, guardianEmail }: UploadLinkSectionProps) {
  const status = useUploadLinkStatus(playerId, season);
  const copyLink = useCopyUploadLink();
  const send = useSendUploadLink();
  const revoke = useRevokeUploadLinks();
  const [issued, setIssued] = useState<{ link: TUploadLink; copied: boolean } | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [confirming, setConfirming] = useState(false);
  const statusRef = useRef<HTMLParagraphElement>(null);
  // The confirm has no trigger of its own: Cancel gives focus back to Stop links; after a stop (the button is
  // gone with the last working link) focus goes to the line that says so.
  const returnFocus = useReturnFocus();
  const focusStatusOnClose = useRef(false);
  const fieldId = useId();
  const reasonId = useId();
  const unavailable = sendLinkUnavailable(guardianEmail);
  const active = status.data?.active ?? 0;

  const onCopy = async () => {
    setOutcome(null);
    try {
      setIssued(await copyLink.copy(playerId, season));
    } catch (error) {
      setIssued(null);
      setOutcome({ ok: false, text: getErrorMessage(error, 'The link could not be made. Please try again.') });
    }
  };

  const onSend = () => {
    setOutcome(null);
    send.mutate(
      { playerId, season },
      {
        onSuccess: (result) => setOutcome(sendResultSentence(result)),
        onError: (error) => setOutcome({ ok: false, text: getErrorMessage(error, 'The link could not be sent. Please try again.') }),
      },
    );
  };

  const onStop = () => {
    setOutcome(null);
    revoke.mutate(
      { playerId, season },
      {
        onSuccess: ({ revoked }) => {
          focusStatusOnClose.current = true;
          setConfirming(false);
          setIssued(null);
          setOutcome({ ok: true, text: revoked === 1 ? 'The link stopped working.' : `${revoked} links stopped working.` });
        },
        onError: (error) => {
          setConfirming(false);
          setOutcome({ ok: false, text: getErrorMessage(error, 'The links could not be stopped. Please try again.') });
        },
      },
    );
  };

  return (
    <div className="flex min-w-0 flex-col gap-3" data-testid="upload-link-section">
      <p
        ref={statusRef}
        tabIndex={-1}
        className="flex items-center gap-2 text-sm outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
        data-testid="upload-link-status"
        aria-live="polite"
      >
        <Link2 className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
        {status.isPending ? 'Checking the upload links…' : status.isError ? `Unable to check the upload links: ${getErrorMessage(status.error)}` : uploadLinkStatusLine(status.data)}
      </p>
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" size="sm" onClick={() => void onCopy()} disabled={copyLink.isPending}>
          {copyLink.isPending ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Link2 aria-hidden="true" />}
          Copy upload link
        </Button>
        <Button variant="outline" size="sm" onClick={onSend} disabled={unavailable !== null || send.isPending} aria-describedby={unavailable ? reasonId : undefined}>
          {send.isPending ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Send aria-hidden="true" />}
          Send link
        </Button>
        {active > 0 ? (
          <Button variant="outline" size="sm" onClick={() => setConfirming(true)} aria-haspopup="dialog" className="text-destructive-soft-foreground">
            <Ban aria-hidden="true" />
            Stop links
          </Button>
        ) : null}
      </div>
      {unavailable ? (
        <p id={reasonId} className="text-xs text-muted-foreground" data-testid="send-link-unavailable">
          {unavailable}
        </p>
      ) : null}
      {issued ? (
        <div className="flex min-w-0 flex-col gap-1.5 rounded-md border p-3" data-testid="upload-link-issued">
          <Label htmlFor={fieldId}>Upload link for {playerName}</Label>
          <div className="flex min-w-0 gap-2">
            <Input
              id={fieldId}
              readOnly
              value={issued.link.url}
              className="min-w-0 flex-1 font-mono text-xs md:text-xs"
              data-testid="upload-link-url"
              aria-describedby={`${fieldId}-until`}
              onFocus={(event) => event.currentTarget.select()}
            />
            <CopyButton text={issued.link.url} size="sm" label="Copy" className="shrink-0" aria-label="Copy the upload link" />
          </div>
          <p id={`${fieldId}-until`} className="text-xs text-muted-foreground" data-testid="upload-link-expires">
            {worksUntil(issued.link.expiresAt)}. {issued.copied ? 'Copied to the clipboard.' : 'Not copied: select the link and copy it.'}
          </p>
        </div>
      ) : null}
      <p
        role="status"
        className={cn('text-sm empty:hidden', outcome && !outcome.ok && 'text-destructive-soft-foreground')}
        data-testid="upload-link-outcome"
      >
        {outcome?.text}
      </p>
      <AlertDialog open={confirming} onOpenChange={(open) => !revoke.isPending && setConfirming(open)}>
        <AlertDialogContent
          data-testid="stop-links-dialog"
          onOpenAutoFocus={returnFocus.onOpenAutoFocus}
          onCloseAutoFocus={(event) => {
            if (!focusStatusOnClose.current) return returnFocus.onCloseAutoFocus(event);
            focusStatusOnClose.current = false;
            event.preventDefault();
            statusRef.current?.focus();
          }}
        >
          <AlertDialogHeader>
            <AlertDialogTitle>Stop {playerName}’s upload links?</AlertDialogTitle>
            <AlertDialogDescription>
              {active === 1 ? 'The working link stops' : `All ${active} working links stop`} at once: the family can no longer open them or send
              documents with them. Copy or send a new link when they need one.
            </AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel disabled={revoke.isPending}>Cancel</AlertDialogCancel>
            <Button variant="destructive" onClick={onStop} disabled={revoke.isPending}>
              {revoke.isPending ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : null}
              Stop links
            </Button>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </div>
  );
}
