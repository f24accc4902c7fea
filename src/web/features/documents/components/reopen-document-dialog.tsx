import { LoaderCircle, Undo2 } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import type { TDocumentStatus } from '../../../../contract';
import { DOCUMENT_STATUS_LABELS } from '@/components/status-tones';
import { Button } from '@/components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Label } from '@/components/ui/label';
import { Textarea } from '@/components/ui/textarea';
import { useReturnFocus } from '@/lib/use-return-focus';
import { MAX_REVIEW_NOTES_LENGTH } from './reject-document-dialog';

export interface ReopenTarget {
  id: string;
  fileName: string;
  playerName: string;
  status: TDocumentStatus;
}

function ReopenForm({ busy, onReopen }: { busy: boolean; onReopen: (reason: string) => void }) {
  const reasonId = useId();
  const errorId = useId();
  const [reason, setReason] = useState('');
  const [showError, setShowError] = useState(false);
  const invalid = reason.trim().length === 0;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (invalid) {
      setShowError(true);
      return;
    }
    onReopen(reason.trim());
  };

  return (
    <form onSubmit={submit} noValidate className="grid gap-4">
      <div className="grid gap-2">
        <Label htmlFor={reasonId}>Why reopen it?</Label>
        <Textarea
          id={reasonId}
          value={reason}
          onChange={(event) => {
            setReason(event.target.value);
            if (event.target.value.trim()) setShowError(false);
          }}
          maxLength={MAX_REVIEW_NOTES_LENGTH}
          required
          rows={3}
          placeholder="e.g. Approved by mistake: the birth date does not match."
          aria-invalid={showError && invalid ? true : undefined}
          aria-describedby={errorId}
          disabled={busy}
        />
        <p id={errorId} className="text-xs text-destructive-soft-foreground" role={showError && invalid ? 'alert' : undefined}>
          {showError && invalid ? 'Please give a reason: it is kept in the document’s history.' : null}
        </p>
      </div>
      <DialogFooter>
        <DialogClose asChild>
          <Button variant="outline" disabled={busy}>
            Cancel
          </Button>
        </DialogClose>
        <Button type="submit" disabled={busy}>
          {busy ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Undo2 aria-hidden="true" />}
          Reopen Document
        </Button>
      </DialogFooter>
    </form>
  );
}

/**
 * Asks why a verified or rejected document goes back under review; the reason is required and kept in its
 * history. Closing it returns focus to the control that opened it, or to `fallbackFocus` when that control is gone (a row's Reopen disappears once the document is under review again).
 */
export function ReopenDocumentDialog({
  target,
  busy,
  onOpenChange,
  onReopen,
  fallbackFocus,
}: {
  target: ReopenTarget | null;
  busy: boolean;
  onOpenChange: (open: boolean) => void;
  onReopen: (target: ReopenTarget, reason: string) => void;
  fallbackFocus?: () => HTMLElement | null;
}) {
  const returnFocus = useReturnFocus();
  return (
    <Dialog open={target !== null} onOpenChange={(next) => (busy && !next ? undefined : onOpenChange(next))}>
      <DialogContent
        data-testid="reopen-dialog"
        onOpenAutoFocus={returnFocus.onOpenAutoFocus}
        onCloseAutoFocus={(event) => {
          returnFocus.onCloseAutoFocus(event);
          if (event.defaultPrevented) return;
          const fallback = fallbackFocus?.();
          if (!fallback) return;
          event.preventDefault();
          fallback.focus();
        }}
      >
        {target ? (
          <>
            <DialogHeader>
              <DialogTitle>Reopen Document</DialogTitle>
              <DialogDescription>
                <span className="break-all">{target.fileName}</span> from {target.playerName} is {DOCUMENT_STATUS_LABELS[target.status]}. Reopening
                puts it back to Under Review, to be approved or rejected again.
              </DialogDescription>
            </DialogHeader>
            <ReopenForm key={target.id} busy={busy} onReopen={(reason) => onReopen(target, reason)} />
          </>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
