import { CircleCheck, FileDown, KeyRound, LoaderCircle, TriangleAlert } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { MASTER_KEY_CONFIRM_LENGTH, type TMasterKeyBackup } from '../../../../contract';
import { FormError } from '@/components/form-field';
import { IconCardTitle } from '@/components/icon-card-title';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { getErrorMessage, isApiError } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { usePermissions } from '@/lib/session-api';
import { toast } from '@/lib/toast-store';
import { useReturnFocus } from '@/lib/use-return-focus';
import { useConfirmMasterKey, useDownloadRecoverySheet, useMasterKeyBackup } from '../api';
import { MASTER_KEY_DESCRIPTION, MASTER_KEY_DOWNLOAD_WARNING, MASTER_KEY_STATE_LABELS, masterKeyStatusText } from '../master-key-text';

const BADGE_VARIANTS = { not_downloaded: 'destructive', awaiting_confirmation: 'warning', backed_up: 'success' } as const;

/** Download recovery sheet, after a warning that it is given once. */
function DownloadSheet() {
  const download = useDownloadRecoverySheet();
  const [open, setOpen] = useState(false);
  // Opened by a plain button: focus goes back to it when the dialog closes.
  const returnFocus = useReturnFocus();

  const start = () => {
    setOpen(false);
    download.mutate(undefined, {
      onSuccess: () => toast({ title: 'Recovery sheet downloaded', description: 'Print it, then type the first characters of the key below.' }),
      onError: (error) =>
        toast({ title: 'Recovery sheet not downloaded', description: getErrorMessage(error, 'The sheet could not be downloaded. Please try again.'), variant: 'destructive' }),
    });
  };

  return (
    <>
      <Button type="button" onClick={() => setOpen(true)} disabled={download.isPending} aria-busy={download.isPending} className="w-full sm:w-fit" data-testid="master-key-download">
        {download.isPending ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <FileDown aria-hidden="true" />}
        Download recovery sheet
      </Button>
      <AlertDialog open={open} onOpenChange={setOpen}>
        <AlertDialogContent data-testid="master-key-download-dialog" {...returnFocus}>
          <AlertDialogHeader>
            <AlertDialogTitle>Download the recovery sheet?</AlertDialogTitle>
            <AlertDialogDescription>{MASTER_KEY_DOWNLOAD_WARNING}</AlertDialogDescription>
          </AlertDialogHeader>
          <AlertDialogFooter>
            <AlertDialogCancel>Cancel</AlertDialogCancel>
            <Button type="button" onClick={start}>
              Download it now
            </Button>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </>
  );
}

/** The first characters of the key, typed from the printed sheet; only a match marks the key as backed up. */
function ConfirmSheet() {
  const id = useId();
  const confirm = useConfirmMasterKey();
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    confirm.mutate(
      { characters: typed },
      {
        onSuccess: () => toast({ title: 'Master key backed up', description: 'Keep the sheet locked away, apart from the backups.' }),
        // A refused entry says what is wrong with it in the field's own words, without the request's prefix.
        onError: (failure) =>
          setError((isApiError(failure) ? failure.body?.details?.[0]?.message : undefined) ?? getErrorMessage(failure, 'The characters could not be checked. Please try again.')),
      },
    );
  };

  return (
    <form onSubmit={submit} className="flex flex-col gap-2" data-testid="master-key-confirm">
      <Label htmlFor={`${id}-characters`}>First {MASTER_KEY_CONFIRM_LENGTH} characters of the key, as printed on the sheet</Label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Input
          id={`${id}-characters`}
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          autoComplete="off"
          autoCapitalize="off"
          autoCorrect="off"
          spellCheck={false}
          maxLength={MASTER_KEY_CONFIRM_LENGTH + 4}
          aria-invalid={error !== null}
          aria-describedby={error ? `${id}-hint ${id}-error` : `${id}-hint`}
          className="font-mono sm:max-w-48"
          data-testid="master-key-characters"
        />
        <Button type="submit" disabled={confirm.isPending || typed.trim() === ''} aria-busy={confirm.isPending} className="w-full sm:w-fit">
          {confirm.isPending ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : null}
          Confirm
        </Button>
      </div>
      <p id={`${id}-hint`} className="text-sm text-muted-foreground">
        Capital and small letters differ; the spaces between groups do not count.
      </p>
      <FormError id={`${id}-error`} message={error} testId="master-key-error" />
    </form>
  );
}

function MasterKeyState({ backup }: { backup: TMasterKeyBackup }) {
  const Icon = backup.state === 'backed_up' ? CircleCheck : TriangleAlert;
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-2">
        <div className="flex flex-wrap items-center gap-2">
          <Badge variant={BADGE_VARIANTS[backup.state]} data-testid="master-key-state">
            <Icon aria-hidden="true" />
            {MASTER_KEY_STATE_LABELS[backup.state]}
          </Badge>
          <span className="text-xs text-muted-foreground">Key check {backup.keyCheck}</span>
        </div>
        <p className="text-sm" data-testid="master-key-status">
          {masterKeyStatusText(backup, formatDateTime)}
        </p>
      </div>
      {backup.state === 'not_downloaded' ? (
        <div className="flex flex-col gap-2">
          <DownloadSheet />
          <p className="text-sm text-muted-foreground">
            A one-page PDF to print: the key, a QR code of it, and how to restore the documents with it. It can be downloaded once.
          </p>
        </div>
      ) : null}
      {backup.state === 'awaiting_confirmation' ? <ConfirmSheet /> : null}
      {backup.state === 'backed_up' ? (
        <p className="text-sm text-muted-foreground">
          The sheet is not shown again. If it is lost, ask whoever runs the server to replace the key (npm run rotate-key); the new key gets a sheet of its own.
        </p>
      ) : null}
    </div>
  );
}

/** Settings → Security → Master key (admins): has the key been backed up, its one-time recovery sheet, and the confirmation. */
export function MasterKeyCard() {
  const { can } = usePermissions();
  const canManage = can('settings.manage');
  const backup = useMasterKeyBackup(canManage);
  if (!canManage) return null;

  return (
    <Card data-testid="master-key">
      <CardHeader>
        <IconCardTitle icon={KeyRound}>Master key</IconCardTitle>
        <CardDescription>{MASTER_KEY_DESCRIPTION}</CardDescription>
      </CardHeader>
      <CardContent>
        {backup.isError ? (
          <FormError message={`Unable to load the master key’s state: ${getErrorMessage(backup.error)}`} />
        ) : backup.data ? (
          <MasterKeyState backup={backup.data} />
        ) : (
          <p className="text-sm text-muted-foreground">Loading…</p>
        )}
      </CardContent>
    </Card>
  );
}
