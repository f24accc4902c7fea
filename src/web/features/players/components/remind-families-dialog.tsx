import { LoaderCircle, Mail } from 'lucide-react';
import { useState } from 'react';
import type { TNotificationSend } from '../../../../contract';
import { LabelledNativeSelect } from '@/components/labelled-native-select';
import { LoadError } from '@/components/load-error';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { getErrorMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast-store';
import { useNotificationTemplates, useRecipientPreview, useSendNotification } from '@/features/notifications';
import type { PlayerFilters } from '../player-filters';
import { defaultReminderTemplate, describeReach, playersListFilter, reminderTemplates } from '../remind-families';

interface RemindFamiliesDialogProps {
  /** The list's filters: the reminder goes to the guardians of every player they keep, on every page. */
  filters: Omit<PlayerFilters, 'page'>;
  /** The list's season id, as the list answered it. */
  season: string | undefined;
  /** No player in the list: nobody to remind. */
  disabled: boolean;
}

/** 'Remind these families': a chosen template (the missing-documents reminder first) to the guardians of the list. */
export function RemindFamiliesDialog({ filters, season, disabled }: RemindFamiliesDialogProps) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button variant="outline" disabled={disabled} data-testid="remind-families">
          <Mail aria-hidden="true" />
          Remind these families
        </Button>
      </DialogTrigger>
      <DialogContent className="sm:max-w-lg" data-testid="remind-families-dialog">
        <DialogHeader>
          <DialogTitle>Remind these families</DialogTitle>
          <DialogDescription>
            One e-mail for each player in this list (every page of it), to the guardian on file, with the player&apos;s own missing
            documents.
          </DialogDescription>
        </DialogHeader>
        {open ? <RemindForm filters={filters} season={season} onDone={() => setOpen(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function RemindForm({ filters, season, onDone }: { filters: Omit<PlayerFilters, 'page'>; season: string | undefined; onDone: () => void }) {
  const templates = useNotificationTemplates();
  const usable = reminderTemplates(templates.data?.templates ?? []);
  const [chosen, setChosen] = useState<string | null>(null);
  const templateId = chosen ?? defaultReminderTemplate(usable)?.id ?? null;
  const request: TNotificationSend | null =
    templateId === null ? null : { templateId, recipients: 'players_list', playersList: playersListFilter(filters, season) };
  const preview = useRecipientPreview(request);
  const send = useSendNotification();

  if (templates.isError) {
    return <LoadError title="Unable to load the templates" detail={getErrorMessage(templates.error)} onRetry={() => void templates.refetch()} />;
  }
  if (templates.data && usable.length === 0) {
    return <p className="text-sm">No e-mail template is turned on. Turn one on in Notifications → Templates to remind families.</p>;
  }

  const reach = preview.data;
  const canSend = request !== null && reach !== undefined && reach.count > 0 && !preview.isPlaceholderData && !send.isPending;

  async function submit(): Promise<void> {
    if (!request) return;
    try {
      const result = await send.mutateAsync(request);
      const failed = result.failed > 0 ? `, ${result.failed} could not be sent (see Notifications → History)` : '';
      toast({
        title: 'Reminders sent',
        description: `${result.sent} ${result.sent === 1 ? 'e-mail' : 'e-mails'} sent${failed}.`,
        variant: result.failed > 0 && result.sent === 0 ? 'destructive' : 'default',
      });
      onDone();
    } catch (error) {
      toast({ title: 'Reminders not sent', description: getErrorMessage(error, 'The reminders could not be sent.'), variant: 'destructive' });
    }
  }

  return (
    <div className="flex flex-col gap-4">
      {usable.length > 0 && templateId !== null ? (
        <LabelledNativeSelect
          label="Template"
          value={templateId}
          options={usable.map((template) => template.id)}
          labels={Object.fromEntries(usable.map((template) => [template.id, template.name]))}
          onChange={setChosen}
        />
      ) : (
        <p className="text-sm text-muted-foreground">Loading templates…</p>
      )}
      <div className="rounded-md border bg-muted/40 p-3 text-sm" aria-live="polite" data-testid="remind-reach">
        {preview.isError ? (
          <span className="text-destructive">{getErrorMessage(preview.error)}</span>
        ) : reach ? (
          <>
            <p className="font-medium">{describeReach(reach)}</p>
            <p className="mt-1 text-muted-foreground">
              {reach.count === 0
                ? 'Nobody would get this reminder.'
                : `Their guardians get ${reach.count === 1 ? 'this reminder' : `${reach.count.toLocaleString('en-US')} reminders, one per player`}${
                    reach.withoutEmail > 0 ? '; players without a guardian e-mail are left out' : ''
                  }.`}
            </p>
          </>
        ) : (
          <span className="text-muted-foreground">Counting the guardians…</span>
        )}
      </div>
      <DialogFooter>
        <Button variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button onClick={() => void submit()} disabled={!canSend} data-testid="remind-send">
          {send.isPending ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Mail aria-hidden="true" />}
          {send.isPending ? 'Sending…' : reach && reach.count > 0 ? `Send ${reach.count.toLocaleString('en-US')} ${reach.count === 1 ? 'e-mail' : 'e-mails'}` : 'Send'}
        </Button>
      </DialogFooter>
    </div>
  );
}
