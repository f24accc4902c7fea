import { ArchiveRestore, CircleCheck, DatabaseBackup, LoaderCircle, TriangleAlert } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { ZBackupSchedule, type TBackupSchedule, type TBackupState } from '../../../../contract';
import { FormError, FormField } from '@/components/form-field';
import { IconCardTitle } from '@/components/icon-card-title';
import { LoadError } from '@/components/load-error';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { getErrorMessage, isApiError } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { usePermissions } from '@/lib/session-api';
import { toast } from '@/lib/toast-store';
import { useBackups, useRunBackup, useSaveBackupSchedule } from '../api';
import {
  BACKUP_DEFAULTS,
  BACKUPS_DESCRIPTION,
  BACKUPS_RESTORE_HINT,
  finishedText,
  hourLabel,
  HOURS,
  lastResultFigures,
  NO_BACKUP_YET,
  nextBackupText,
  PASSPHRASE_MISSING,
  runBlockedReason,
} from '../backups-text';

type Field = keyof TBackupSchedule;
type FieldErrors = Partial<Record<Field, string>>;
const FIELDS: readonly Field[] = ['folder', 'hour', 'keep'];

/** The field a refusal names ("schedule.folder", "folder"), if it names one of the form's. */
function fieldOf(path: string): Field | undefined {
  const last = path.split('.').pop();
  return FIELDS.find((field) => field === last);
}

/** Folder, hour and number kept, checked here with the contract's rules and again by the server; "Turn off" stops the nightly backup. */
function ScheduleForm({ schedule }: { schedule: TBackupSchedule | null }) {
  const id = useId();
  const save = useSaveBackupSchedule();
  const initial = schedule ?? BACKUP_DEFAULTS;
  const [folder, setFolder] = useState(initial.folder);
  const [hour, setHour] = useState(initial.hour);
  const [keep, setKeep] = useState(String(initial.keep));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);

  const send = (next: TBackupSchedule | null) => {
    setFormError(null);
    save.mutate(
      { schedule: next },
      {
        onSuccess: () =>
          toast({
            title: next ? 'Backups saved' : 'Nightly backup turned off',
            description: next ? `Every night at ${hourLabel(next.hour)} into ${next.folder}, the newest ${next.keep} kept.` : 'Backups already made stay in their folder.',
          }),
        onError: (failure) => {
          const details = (isApiError(failure) ? failure.body?.details : undefined) ?? [];
          const named: FieldErrors = {};
          for (const detail of details) {
            const field = fieldOf(detail.path);
            if (field && !named[field]) named[field] = detail.message;
          }
          setErrors(named);
          if (Object.keys(named).length === 0) setFormError(getErrorMessage(failure, 'The backup settings could not be saved. Please try again.'));
        },
      },
    );
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = ZBackupSchedule.safeParse({ folder, hour, keep: keep.trim() === '' ? undefined : Number(keep) });
    if (!parsed.success) {
      const named: FieldErrors = {};
      for (const issue of parsed.error.issues) {
        const field = fieldOf(issue.path.join('.'));
        if (field && !named[field]) named[field] = issue.message;
      }
      setErrors(named);
      setFormError(null);
      return;
    }
    setErrors({});
    send(parsed.data);
  };

  return (
    <form noValidate onSubmit={submit} className="flex flex-col gap-3" data-testid="backups-form" aria-busy={save.isPending}>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-[minmax(0,1fr)_8rem_8rem]">
        <FormField name="folder" label="Folder on the server" required id={`${id}-folder`} error={errors.folder}>
          {(control) => (
            <Input
              {...control}
              value={folder}
              onChange={(event) => setFolder(event.target.value)}
              placeholder="/mnt/backup/clearbase"
              autoComplete="off"
              spellCheck={false}
              className="font-mono"
              data-testid="backups-folder"
            />
          )}
        </FormField>
        <FormField name="hour" label="Hour (server time)" required id={`${id}-hour`} error={errors.hour}>
          {(control) => (
            <Select value={String(hour)} onValueChange={(value) => setHour(Number(value))}>
              <SelectTrigger {...control} data-testid="backups-hour">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {HOURS.map((h) => (
                  <SelectItem key={h} value={String(h)}>
                    {hourLabel(h)}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          )}
        </FormField>
        <FormField name="keep" label="Backups kept" required id={`${id}-keep`} error={errors.keep}>
          {(control) => (
            <Input
              {...control}
              type="number"
              inputMode="numeric"
              min={1}
              max={365}
              step={1}
              value={keep}
              onChange={(event) => setKeep(event.target.value)}
              data-testid="backups-keep"
            />
          )}
        </FormField>
      </div>
      <p className="text-sm text-muted-foreground">
        A full path, or a folder in an S3 bucket such as <span className="font-mono break-words">s3://league-backups/clearbase</span> (reached with the
        server&rsquo;s S3 settings). Only the newest backups are kept; older ones are removed from the folder.
      </p>
      <FormError message={formError} testId="backups-form-error" />
      <div className="flex flex-col gap-2 sm:flex-row">
        <Button type="submit" disabled={save.isPending} className="w-full sm:w-fit" data-testid="backups-save">
          {save.isPending ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : null}
          Save
        </Button>
        {schedule ? (
          <Button type="button" variant="outline" disabled={save.isPending} onClick={() => send(null)} className="w-full sm:w-fit" data-testid="backups-turn-off">
            Turn off
          </Button>
        ) : null}
      </div>
    </form>
  );
}

/** The last backup's result and when the next one starts. */
function LastResult({ state }: { state: TBackupState }) {
  const last = state.last;
  const figures = last ? lastResultFigures(last) : null;
  return (
    <div className="flex flex-col gap-2 text-sm" data-testid="backups-last">
      {last ? (
        <>
          <div className="flex flex-wrap items-center gap-2">
            <Badge variant={last.ok ? 'success' : 'destructive'} data-testid="backups-last-state">
              {last.ok ? <CircleCheck aria-hidden="true" /> : <TriangleAlert aria-hidden="true" />}
              {last.ok ? 'Backed up' : 'Failed'}
            </Badge>
            <span data-testid="backups-last-at">{formatDateTime(last.at)}</span>
          </div>
          <p className="break-words" data-testid="backups-last-message">
            {last.message}
          </p>
          {last.file || figures ? (
            <p className="min-w-0 text-muted-foreground" data-testid="backups-last-file">
              {last.file ? <span className="font-mono text-xs break-all">{last.file}</span> : null}
              {last.file && figures ? ' · ' : null}
              {figures ? <span data-testid="backups-last-size">{figures}</span> : null}
            </p>
          ) : null}
        </>
      ) : (
        <p data-testid="backups-last-message">{NO_BACKUP_YET}</p>
      )}
      <p className="text-muted-foreground" data-testid="backups-next">
        {nextBackupText(state, formatDateTime)}
      </p>
    </div>
  );
}

/** "Back up now", why it cannot be used when it cannot, and, in a live region, progress and how it ended. */
function RunNow({ state }: { state: TBackupState }) {
  const id = useId();
  const run = useRunBackup();
  const [said, setSaid] = useState('');
  // A backup seen running here: its end is said in words once the state reads as ended.
  const watching = useRef(state.running);
  const blocked = runBlockedReason(state);
  const busy = state.running || run.isPending;

  useEffect(() => {
    if (state.running) {
      watching.current = true;
    } else if (watching.current) {
      watching.current = false;
      setSaid(finishedText(state.last));
    }
  }, [state.running, state.last]);

  const start = () => {
    setSaid('');
    run.mutate(undefined, {
      onSuccess: () => {
        watching.current = true;
      },
      onError: (failure) => setSaid(getErrorMessage(failure, 'The backup could not be started. Please try again.')),
    });
  };

  return (
    <div className="flex flex-col gap-2">
      <Button
        type="button"
        variant="secondary"
        onClick={start}
        disabled={busy || blocked !== null}
        aria-describedby={blocked && !state.running ? `${id}-reason` : undefined}
        className="w-full sm:w-fit"
        data-testid="backups-run"
      >
        {busy ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <ArchiveRestore aria-hidden="true" />}
        {state.running ? 'Backing up…' : 'Back up now'}
      </Button>
      {blocked && !state.running ? (
        <p id={`${id}-reason`} className="text-sm text-muted-foreground" data-testid="backups-run-reason">
          {blocked}
        </p>
      ) : null}
      <p role="status" aria-live="polite" className="text-sm empty:hidden" data-testid="backups-run-status">
        {state.running ? 'Backing up… This can take a few minutes; the page can be left open or closed.' : said}
      </p>
    </div>
  );
}

/** Settings → System → Backups (admins): the nightly encrypted backup's folder, hour and number kept, its last result, and "Back up now". */
export function BackupsCard() {
  const { can } = usePermissions();
  const canManage = can('settings.manage');
  const backups = useBackups(canManage);
  if (!canManage) return null;
  const state = backups.data;

  return (
    <Card data-testid="backups-card">
      <CardHeader>
        <IconCardTitle icon={DatabaseBackup}>Backups</IconCardTitle>
        <CardDescription>{BACKUPS_DESCRIPTION}</CardDescription>
        <CardDescription>{BACKUPS_RESTORE_HINT}</CardDescription>
      </CardHeader>
      <CardContent>
        {backups.isError ? (
          <LoadError title="Unable to load backups" detail={getErrorMessage(backups.error)} onRetry={() => void backups.refetch()} retrying={backups.isFetching} />
        ) : state ? (
          <div className="flex flex-col gap-6">
            {state.passphraseSet ? null : (
              <p className="flex gap-2 rounded-md bg-warning-soft px-3 py-2 text-sm text-warning-soft-foreground" data-testid="backups-no-passphrase">
                <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
                <span className="min-w-0 break-words">{PASSPHRASE_MISSING}</span>
              </p>
            )}
            {/* Keyed by what is saved: the form starts again from it after a save or another admin's change. */}
            <ScheduleForm key={JSON.stringify(state.schedule)} schedule={state.schedule} />
            <section aria-labelledby="backups-last-heading" className="flex flex-col gap-3 border-t pt-4">
              <h3 id="backups-last-heading" className="text-sm font-medium">
                Last backup
              </h3>
              <LastResult state={state} />
              <RunNow state={state} />
            </section>
          </div>
        ) : (
          <p className="text-sm text-muted-foreground">Loading…</p>
        )}
      </CardContent>
    </Card>
  );
}
