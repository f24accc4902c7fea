import { FileArchive, LoaderCircle, Trash2 } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import type { TErasedPlayer } from '../../../../contract';
import { FormError } from '@/components/form-field';
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
import { saveBlobAs } from '@/lib/download';
import { toast } from '@/lib/toast-store';
import { useReturnFocus } from '@/lib/use-return-focus';
import { fetchPlayerExport, useErasePlayer } from '../api';
import { confirmsName, exportProgressText } from '../family-data';

/** What an erasure removes, in words for the person about to confirm it. */
const ERASED_THINGS = [
  'every document and its stored file, and the text read from it',
  'the registrations of every season, and the player in every list and report',
  'the details sent with the registration form or by e-mail',
  'upload links and the messages sent to the family',
];

/**
 * Erase, after the player's full name is typed: the button stays off until it matches (case and accents aside),
 * and the server checks it again. While it runs the dialog cannot be closed; an error stays in the dialog.
 */
function ErasePlayerDialog({
  open,
  playerId,
  playerName,
  onOpenChange,
  onErased,
}: {
  open: boolean;
  playerId: string;
  playerName: string;
  onOpenChange: (open: boolean) => void;
  onErased: (result: TErasedPlayer) => void;
}) {
  const erase = useErasePlayer();
  const [typed, setTyped] = useState('');
  const inputId = useId();
  const hintId = useId();
  const errorId = useId();
  const returnFocus = useReturnFocus();
  const busy = erase.isPending;
  const matches = confirmsName(typed, playerName);
  const failure = erase.isError ? getErrorMessage(erase.error, 'The player could not be erased. Nothing was removed; try again.') : null;

  const close = (next: boolean) => {
    if (busy && !next) return;
    if (!next) {
      setTyped('');
      erase.reset();
    }
    onOpenChange(next);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!matches || busy) return;
    erase.mutate({ playerId, confirmName: typed }, { onSuccess: (result) => onErased(result) });
  };

  return (
    <AlertDialog open={open} onOpenChange={close}>
      <AlertDialogContent data-testid="erase-player-dialog" {...returnFocus}>
        <form onSubmit={submit} className="flex min-w-0 flex-col gap-4">
          <AlertDialogHeader>
            <AlertDialogTitle className="break-words">Erase {playerName}?</AlertDialogTitle>
            <AlertDialogDescription asChild>
              <div className="flex flex-col gap-2 text-sm text-muted-foreground">
                <p>This removes everything Clearbase holds about {playerName}, in every season:</p>
                <ul className="list-disc pl-5">
                  {ERASED_THINGS.map((thing) => (
                    <li key={thing}>{thing}</li>
                  ))}
                </ul>
                <p>
                  The activity history keeps only that a player was erased, by whom and when, without the name. <strong className="text-foreground">This cannot be undone.</strong> If the
                  family asked for a copy, use Export data first.
                </p>
              </div>
            </AlertDialogDescription>
          </AlertDialogHeader>
          <div className="flex min-w-0 flex-col gap-2">
            <Label htmlFor={inputId} className="block leading-snug">
              Type <span className="font-semibold break-words">{playerName}</span> to confirm
            </Label>
            <Input
              id={inputId}
              value={typed}
              onChange={(event) => setTyped(event.target.value)}
              autoComplete="off"
              autoCapitalize="off"
              spellCheck={false}
              disabled={busy}
              aria-describedby={failure ? `${hintId} ${errorId}` : hintId}
              aria-invalid={failure !== null}
              data-testid="erase-confirm-name"
            />
            <p id={hintId} className="text-xs text-muted-foreground" aria-live="polite">
              {typed.trim() === '' ? 'The Erase button works once the name is typed.' : matches ? 'The name matches.' : 'Not the name yet.'}
            </p>
          </div>
          <FormError id={errorId} message={failure} testId="erase-player-error" />
          <AlertDialogFooter>
            <AlertDialogCancel disabled={busy}>Cancel</AlertDialogCancel>
            <Button type="submit" variant="destructive" disabled={!matches || busy} data-testid="erase-player-confirm">
              {busy ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Trash2 aria-hidden="true" />}
              {busy ? 'Erasing…' : 'Erase player'}
            </Button>
          </AlertDialogFooter>
        </form>
      </AlertDialogContent>
    </AlertDialog>
  );
}

/**
 * For admins (players.privacy): a copy of everything held about the player, as a ZIP for the family, and the
 * player's erasure behind a typed confirmation. `onErased` leaves the player's page; the player is gone.
 */
export function FamilyDataSection({ playerId, playerName, onErased }: { playerId: string; playerName: string; onErased: (result: TErasedPlayer) => void }) {
  const [received, setReceived] = useState<number | null>(null);
  const [erasing, setErasing] = useState(false);
  const exporting = received !== null;

  const exportData = async () => {
    setReceived(0);
    try {
      const file = await fetchPlayerExport(playerId, setReceived);
      saveBlobAs(file.blob, file.fileName ?? `clearbase-${playerId}.zip`);
      toast({ title: 'Export ready', description: `Everything held about ${playerName} was saved as a ZIP file. Hand it to the family only.` });
    } catch (error) {
      toast({ variant: 'destructive', title: 'Export failed', description: getErrorMessage(error, 'The export could not be made. Please try again.') });
    } finally {
      setReceived(null);
    }
  };

  return (
    <div className="flex min-w-0 flex-col gap-3" data-testid="family-data">
      <p className="text-sm text-muted-foreground">
        When a family asks, give them a copy of everything kept about {playerName} (documents, records and history), or erase it all.
      </p>
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" size="sm" onClick={() => void exportData()} disabled={exporting} data-testid="export-player-data">
          {exporting ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <FileArchive aria-hidden="true" />}
          {exporting ? 'Exporting…' : 'Export data'}
        </Button>
        <Button variant="destructive" size="sm" onClick={() => setErasing(true)} aria-haspopup="dialog" data-testid="erase-player">
          <Trash2 aria-hidden="true" />
          Erase player…
        </Button>
      </div>
      <p className="text-xs text-muted-foreground" role="status" aria-live="polite" data-testid="export-progress">
        {exporting ? `Export: ${exportProgressText(received)}` : ''}
      </p>
      <ErasePlayerDialog
        open={erasing}
        playerId={playerId}
        playerName={playerName}
        onOpenChange={setErasing}
        onErased={(result) => {
          setErasing(false);
          onErased(result);
        }}
      />
    </div>
  );
}
