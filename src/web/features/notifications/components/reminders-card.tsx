import { BellRing, LoaderCircle } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import type { TReminderSchedule } from '../../../../contract';
import { FormError } from '@/components/form-field';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { getErrorMessage } from '@/lib/api-client';
import { usePermissions } from '@/lib/session-api';
import { toast } from '@/lib/toast-store';
import { useReminderSchedule, useSaveReminderSchedule } from '../api';
import { AFTER_REJECTION_LIMITS, BEFORE_DEADLINE_LIMITS, daysText, describeNextReminder, parseDays } from '../reminders-form';

type Values = { enabled: boolean; before: string; after: string };
const valuesOf = (schedule: TReminderSchedule): Values => ({ enabled: schedule.enabled, before: daysText(schedule.daysBeforeDeadline), after: daysText(schedule.daysAfterRejection) });

function ReminderForm({ schedule, canEdit }: { schedule: TReminderSchedule; canEdit: boolean }) {
  const id = useId();
  const save = useSaveReminderSchedule();
  const [values, setValues] = useState<Values>(() => valuesOf(schedule));
  const [errors, setErrors] = useState<{ before?: string; after?: string }>({});
  const [formError, setFormError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const before = parseDays(values.before, 'Days before the deadline', BEFORE_DEADLINE_LIMITS);
    const after = parseDays(values.after, 'Days after a rejection', AFTER_REJECTION_LIMITS);
    const next = { before: 'error' in before ? before.error : undefined, after: 'error' in after ? after.error : undefined };
    setErrors(next);
    if ('error' in before || 'error' in after) return;
    save.mutate(
      { season: schedule.season.id, enabled: values.enabled, daysBeforeDeadline: before.days, daysAfterRejection: after.days },
      {
        onSuccess: (saved) => {
          setValues(valuesOf(saved));
          toast({ title: 'Reminders Saved', description: describeNextReminder(saved) });
        },
        onError: (error) => {
          const message = getErrorMessage(error, 'The reminders could not be saved. Please try again.');
          setFormError(message);
        },
      },
    );
  };
  const field = (key: 'before' | 'after', label: string, hint: string) => (
    <div className="flex min-w-0 flex-col gap-2">
      <Label htmlFor={`${id}-${key}`}>{label}</Label>
      <Input
        id={`${id}-${key}`}
        inputMode="numeric"
        value={values[key]}
        onChange={(event) => {
          const text = event.target.value;
          setValues((current) => ({ ...current, [key]: text }));
          setErrors((current) => ({ ...current, [key]: undefined }));
        }}
        aria-invalid={errors[key] !== undefined}
        aria-describedby={`${id}-${key}-note`}
        data-testid={`reminders-${key}`}
      />
      <p id={`${id}-${key}-note`} className={errors[key] ? 'text-xs break-words text-destructive-soft-foreground' : 'text-xs text-muted-foreground'}>
        {errors[key] ?? hint}
      </p>
    </div>
  );

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4" aria-label="Automatic reminders">
      <fieldset disabled={!canEdit || save.isPending} className="flex flex-col gap-4">
        <div className="flex items-center gap-3">
          <Switch id={`${id}-enabled`} checked={values.enabled} onCheckedChange={(enabled) => setValues((current) => ({ ...current, enabled }))} data-testid="reminders-enabled" />
          <Label htmlFor={`${id}-enabled`}>Send automatic reminders</Label>
        </div>
        {field('before', 'Days before the deadline', 'Whole days, separated by commas, e.g. 14, 7, 2.')}
        {field('after', 'Days after a rejection', 'While the document is still missing, e.g. 3.')}
      </fieldset>
      <FormError message={formError} testId="reminders-error" />
      <p role="status" className="text-sm" data-testid="reminders-next">
        {describeNextReminder(schedule)}
      </p>
      {canEdit ? (
        <Button type="submit" className="w-full sm:w-fit" disabled={save.isPending}>
          {save.isPending ? <LoaderCircle aria-hidden="true" className="animate-spin" /> : null}
          {save.isPending ? 'Saving…' : 'Save'}
        </Button>
      ) : (
        <p className="text-xs text-muted-foreground">Only people who may configure notifications change these.</p>
      )}
    </form>
  );
}

/**
 * The chosen season's automatic reminders: on or off, the days before the deadline and after a rejection, and
 * when the next go out. One message a family a day at most, from 09:00 UTC, with each player's upload link.
 */
export function RemindersCard({ season }: { season: string | undefined }) {
  const schedule = useReminderSchedule(season);
  const { can } = usePermissions();
  return (
    <Card className="h-fit" data-testid="reminders-card">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <BellRing aria-hidden="true" className="size-4" />
          Automatic reminders
        </CardTitle>
        <CardDescription>
          {schedule.data ? `${schedule.data.season.name}: ` : ''}families still missing documents get one e-mail a day at most, from 9:00 UTC, with their upload link.
        </CardDescription>
      </CardHeader>
      <CardContent className="px-4 sm:px-6">
        {schedule.isError ? (
          <p role="alert" className="text-sm text-destructive-soft-foreground">
            Reminders unavailable: {getErrorMessage(schedule.error)}
          </p>
        ) : schedule.data ? (
          <ReminderForm key={schedule.data.season.id} schedule={schedule.data} canEdit={can('notifications.configure')} />
        ) : (
          <Skeleton className="h-40 w-full" aria-label="Loading reminders" />
        )}
      </CardContent>
    </Card>
  );
}
