import { ChevronDown, LoaderCircle, XCircle } from 'lucide-react';
import { DEFAULT_REJECT_REASONS } from '../../../../contract';
import { useId, useRef, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { MessagePreview, useRejectionPreview, useSettledValue } from '@/features/notifications';
import { getErrorMessage } from '@/lib/api-client';
import { useSystemSettings } from '@/lib/system-settings-query';
import { cn } from '@/lib/utils';
import { useReturnFocus } from '@/lib/use-return-focus';
import { useDocumentDetail } from '../api';
import { rejectionNotes } from '../approval-step';

/** The server keeps at most this many characters of a review note (ZDocumentStatusChange). */
export const MAX_REVIEW_NOTES_LENGTH = 2000;

export interface RejectTarget {
  id: string;
  fileName: string;
  playerName: string;
}

/** The preview follows the reason once typing pauses this long. */
const PREVIEW_DEBOUNCE_MS = 400;
/** Stands in the preview for the reason until one is chosen. */
const REASON_STAND_IN = '[the reason you choose above]';

/** The e-mail the guardian will get, rendered by the server from the same template the rejection sends. */
function GuardianNoticePreview({ documentId, reason }: { documentId: string; reason: string }) {
  const settled = useSettledValue(reason.trim() || REASON_STAND_IN, PREVIEW_DEBOUNCE_MS);
  const preview = useRejectionPreview({ documentId, reason: settled });
  return (
    <MessagePreview
      preview={preview.data}
      loading={preview.isPending}
      error={preview.isError ? `The e-mail could not be previewed: ${getErrorMessage(preview.error)}` : null}
    />
  );
}

function RejectForm({
  documentId,
  busy,
  guardianEmail,
  onReject,
}: {
  documentId: string;
  busy: boolean;
  /** undefined while the document is being read; null when no guardian e-mail is on file. */
  guardianEmail: string | null | undefined;
  onReject: (reason: string, notifyGuardian: boolean) => void;
}) {
  const reasonId = useId();
  const detailId = useId();
  const notifyId = useId();
  // Untouched, the box follows whether the guardian has an e-mail; once clicked, it keeps the choice.
  const [notifyChoice, setNotifyChoice] = useState<boolean | null>(null);
  const hasEmail = typeof guardianEmail === 'string' && guardianEmail !== '';
  const notify = hasEmail && (notifyChoice ?? true);
  const errorId = useId();
  const hintId = useId();
  const settings = useSystemSettings();
  // The list saved in Settings; the defaults when it cannot be read, so a rejection is never blocked by it.
  const reasons: readonly string[] = settings.data?.rejectReasons ?? (settings.isError ? DEFAULT_REJECT_REASONS : []);
  const [reason, setReason] = useState('');
  const [detail, setDetail] = useState('');
  const [showError, setShowError] = useState(false);
  const invalid = reason === '';
  const notes = invalid ? '' : rejectionNotes(reason, detail);
  const detailRoom = MAX_REVIEW_NOTES_LENGTH - reason.length - 2;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (invalid) {
      setShowError(true);
      return;
    }
    onReject(notes, notify);
  };

  return (
    <form onSubmit={submit} noValidate className="grid gap-4">
      <div className="grid gap-2">
        <Label htmlFor={reasonId}>Reason for rejection</Label>
        <div className="relative">
          <select
            id={reasonId}
            value={reason}
            onChange={(event) => {
              setReason(event.target.value);
              if (event.target.value) setShowError(false);
            }}
            required
            disabled={busy || reasons.length === 0}
            aria-invalid={showError && invalid ? true : undefined}
            aria-describedby={showError && invalid ? errorId : undefined}
            data-testid="reject-reason"
            className={cn(
              'h-9 w-full min-w-0 appearance-none truncate rounded-md border border-input bg-transparent py-2 pr-8 pl-3 text-sm shadow-xs outline-none',
              'focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:opacity-60 dark:bg-input/30',
              '[&>option]:bg-popover [&>option]:text-popover-foreground',
            )}
          >
            <option value="">{reasons.length === 0 ? 'Loading the reasons…' : 'Choose a reason…'}</option>
            {reasons.map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
          <ChevronDown className="pointer-events-none absolute top-1/2 right-2.5 size-4 -translate-y-1/2 opacity-50" aria-hidden="true" />
        </div>
        <p id={errorId} className="text-xs text-destructive-soft-foreground" role={showError && invalid ? 'alert' : undefined}>
          {showError && invalid ? 'Please choose a reason: it is shown to staff and kept with the document.' : null}
        </p>
      </div>
      <div className="grid gap-2">
        <Label htmlFor={detailId}>More detail (optional)</Label>
        <Textarea
          id={detailId}
          value={detail}
          onChange={(event) => setDetail(event.target.value)}
          maxLength={Math.max(0, detailRoom)}
          rows={3}
          placeholder="e.g. The date of birth cannot be read."
          aria-describedby={hintId}
          disabled={busy}
        />
        <p id={hintId} className="text-right text-xs text-muted-foreground tabular-nums">
          {detail.length} / {Math.max(0, detailRoom)} characters
        </p>
      </div>
      <div className="flex items-start gap-2">
        <Checkbox
          id={notifyId}
          checked={notify}
          disabled={busy || !hasEmail}
          onCheckedChange={(checked) => setNotifyChoice(checked === true)}
          aria-describedby={`${notifyId}-hint`}
          data-testid="notify-guardian"
        />
        <div className="grid gap-1">
          <Label htmlFor={notifyId} className="text-sm font-normal">
            Notify the guardian by e-mail
          </Label>
          <p id={`${notifyId}-hint`} className="text-xs break-words text-muted-foreground">
            {guardianEmail === undefined
              ? 'Looking up the guardian…'
              : hasEmail
                ? `Sends the 'Document Rejected' template with the reason to ${guardianEmail}, as shown below.`
                : 'No guardian e-mail is on file for this player.'}
          </p>
        </div>
      </div>
      {notify ? <GuardianNoticePreview documentId={documentId} reason={notes} /> : null}
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline" disabled={busy}>
            Cancel
          </Button>
        </DialogClose>
        <Button type="submit" variant="destructive" disabled={busy}>
          {busy ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <XCircle aria-hidden="true" />}
          Reject Document
        </Button>
      </DialogFooter>
    </form>
  );
}

/**
 * Asks why a pending document is rejected: a reason from the list in Settings (required) and more detail if
 * needed; the note kept with the document is the reason, then the detail.
 */
export function RejectDocumentDialog({
  target,
  busy,
  onOpenChange,
  onReject,
}: {
  target: RejectTarget | null;
  busy: boolean;
  onOpenChange: (open: boolean) => void;
  onReject: (target: RejectTarget, reason: string, notifyGuardian: boolean) => void;
}) {
  const detail = useDocumentDetail(target?.id ?? null);
  // A failed lookup reads as 'no e-mail': the rejection itself does not depend on it.
  const guardianEmail = detail.isError ? null : detail.data?.guardianEmail;
  // Opened from a row's Reject button, not a trigger of its own: Esc and Cancel give focus back to that button.
  // Once rejected the button is gone (the document is no longer pending): focus goes to the row's next action.
  const returnFocus = useReturnFocus();
  const rowId = useRef<string | null>(null);
  const onOpenAutoFocus = () => {
    rowId.current = target?.id ?? null;
    returnFocus.onOpenAutoFocus();
  };
  const onCloseAutoFocus = (event: Event) => {
    returnFocus.onCloseAutoFocus(event);
    if (event.defaultPrevented || rowId.current === null) return;
    const row = document.querySelector(`[data-row-actions="${CSS.escape(rowId.current)}"]`);
    const next = row?.querySelector<HTMLElement>('button:not([disabled])');
    if (next) {
      event.preventDefault();
      next.focus();
    }
  };
  return (
    <Dialog open={target !== null} onOpenChange={(open) => (busy && !open ? undefined : onOpenChange(open))}>
      <DialogContent className="sm:max-w-xl" data-testid="reject-dialog" onOpenAutoFocus={onOpenAutoFocus} onCloseAutoFocus={onCloseAutoFocus}>
        {target ? (
          <>
            <DialogHeader>
              <DialogTitle>Reject Document</DialogTitle>
              <DialogDescription>
                <span className="break-all">{target.fileName}</span> from {target.playerName} will be marked rejected. Say what is wrong
                so the family can send a better copy.
              </DialogDescription>
            </DialogHeader>
            <RejectForm
              key={target.id}
              documentId={target.id}
              busy={busy}
              guardianEmail={guardianEmail}
              onReject={(reason, notify) => onReject(target, reason, notify)}
            />
          </>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
