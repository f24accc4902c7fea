import { useQueryClient } from '@tanstack/react-query';
import { CalendarClock, LoaderCircle, Send, Settings2, Users } from 'lucide-react';
import { useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import {
  CHANNEL_LABELS,
  NOTIFICATION_CHANNELS,
  RECIPIENT_GROUP_LABELS,
  RECIPIENT_GROUPS,
  sendableByHand,
  type TDeliveryProblem,
  type TNotificationChannel,
  type TNotificationSend,
  type TRecipientGroup,
  type TRecipientPreview,
} from '../../../../contract';
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
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Switch } from '@/components/ui/switch';
import { Textarea } from '@/components/ui/textarea';
import { getErrorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { useSeasons } from '@/lib/seasons-query';
import { toast } from '@/lib/toast-store';
import { useReturnFocus } from '@/lib/use-return-focus';
import { fetchRecipientPreview, useNotificationTemplates, useRecipientPreview, useSendNotification } from '../api';
import {
  CUSTOM_MESSAGE,
  describeSendResult,
  emptySendForm,
  previewRequest,
  quickActionValues,
  sendChannel,
  validateSendForm,
  type QuickAction,
  type SendFormErrors,
  type SendFormField,
  type SendFormValues,
} from '../send-form';
import { useSettledValue } from '../use-settled-value';
import { MessagePreview } from './message-preview';
import { QuickActionsCard } from './quick-actions-card';
import { RemindersCard } from './reminders-card';

/** The preview waits this long after the last change of the form before asking the server. */
const PREVIEW_DEBOUNCE_MS = 400;

/** Where each delivery problem is fixed: the Notifications screen's Settings tab, or the Settings screen's switches. */
const FIX_PLACE: Record<TDeliveryProblem['reason'], { label: string; href: string }> = {
  no_mail_server: { label: 'Go to Notifications → Settings', href: '/notifications?tab=settings' },
  no_webhook: { label: 'Go to Notifications → Settings', href: '/notifications?tab=settings' },
  switched_off: { label: 'Go to Settings → Notifications', href: '/settings' },
  template_off: { label: 'Go to Notifications → Templates', href: '/notifications?tab=templates' },
  no_guardian_email: { label: 'Go to Players', href: '/players' },
};

/** Asks before a send whose messages cannot be delivered: go where it is fixed, or cancel. */
function UndeliverableDialog({ problem, onClose }: { problem: TDeliveryProblem | null; onClose: () => void }) {
  const [, navigate] = useLocation();
  const returnFocus = useReturnFocus();
  const place = problem ? FIX_PLACE[problem.reason] : undefined;
  return (
    <AlertDialog open={problem !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <AlertDialogContent data-testid="undeliverable-dialog" {...returnFocus}>
        <AlertDialogHeader>
          <AlertDialogTitle>{problem?.reason === 'no_mail_server' ? 'No mail server is set up' : 'These messages cannot be delivered'}</AlertDialogTitle>
          <AlertDialogDescription>
            {problem?.message} Nothing has been sent.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          {place ? (
            <Button
              onClick={() => {
                onClose();
                navigate(place.href);
              }}
            >
              <Settings2 aria-hidden="true" />
              {place.label}
            </Button>
          ) : null}
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

function Field({ id, label, error, hint, children }: { id: string; label: string; error?: string; hint?: ReactNode; children: ReactNode }) {
  return (
    <div className="flex min-w-0 flex-col gap-2">
      <Label htmlFor={id}>{label}</Label>
      {children}
      {hint && !error ? (
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-xs break-words text-destructive-soft-foreground" data-testid={`send-error-${id.split('-').at(-1) ?? ''}`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

function RecipientCount({
  request,
  preview,
  channel,
}: {
  request: TNotificationSend | null;
  preview: { data?: TRecipientPreview | undefined; isError: boolean; error: unknown };
  channel: TNotificationChannel;
}) {
  let text: ReactNode;
  if (request === null) text = 'Choose a template and recipients to see how many messages go out.';
  else if (preview.isError) text = <span className="text-destructive-soft-foreground">{getErrorMessage(preview.error)}</span>;
  else if (!preview.data) text = 'Counting recipients…';
  else if (channel !== 'email') text = `One message to the ${CHANNEL_LABELS[channel]} channel set on the Settings tab.`;
  else {
    const { count, withoutEmail, sample } = preview.data;
    text = (
      <>
        <strong data-testid="recipient-count">{count}</strong> {count === 1 ? 'recipient' : 'recipients'}
        {sample.length > 0 ? <span className="text-muted-foreground"> ({sample.join(', ')}{count > sample.length ? ', …' : ''})</span> : null}
        {withoutEmail > 0 ? (
          <span className="block text-muted-foreground">
            {withoutEmail} {withoutEmail === 1 ? 'player has' : 'players have'} no guardian e-mail and {withoutEmail === 1 ? 'is' : 'are'} left out.
          </span>
        ) : null}
      </>
    );
  }
  return (
    <div className="flex items-start gap-2 rounded-md bg-muted px-3 py-2 text-sm break-words" aria-live="polite" data-testid="recipient-preview">
      <Users className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
      <p className="min-w-0">{text}</p>
    </div>
  );
}

/** Send: a template or a custom message to a group or a list, now or later; quick actions fill the form in. */
export function SendTab({ onShowHistory }: { onShowHistory: () => void }) {
  const id = useId();
  const fieldId = (field: SendFormField) => `${id}-${field}`;
  const templates = useNotificationTemplates();
  const seasons = useSeasons();
  const send = useSendNotification();
  const [values, setValues] = useState<SendFormValues>(() => emptySendForm(new Date()));
  const [season, setSeason] = useState<string | undefined>(undefined);
  const [errors, setErrors] = useState<SendFormErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);

  // Templates only an automatic message can fill ('Document Rejected', 'File Not Accepted') are not offered here.
  const templateList = (templates.data?.templates ?? []).filter(sendableByHand);
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<TDeliveryProblem | null>(null);
  const [checking, setChecking] = useState(false);
  const currentSeason = seasons.data?.seasons.find((s) => s.isCurrent) ?? seasons.data?.seasons[0];
  const seasonId = season ?? currentSeason?.id;
  const channel = sendChannel(values, templateList);
  const custom = values.template === CUSTOM_MESSAGE;
  const settledPreview = useSettledValue(previewRequest(values, seasonId), PREVIEW_DEBOUNCE_MS);
  const preview = useRecipientPreview(settledPreview?.request ?? null);

  const set = <K extends SendFormField>(field: K, value: SendFormValues[K]) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => (current[field] ? { ...current, [field]: undefined } : current));
  };
  const control = (field: SendFormField) => ({
    id: fieldId(field),
    'aria-invalid': errors[field] !== undefined,
    'aria-describedby': errors[field] ? `${fieldId(field)}-error` : undefined,
  });

  const applyQuickAction = (action: QuickAction) => {
    setValues((current) => ({ ...current, ...quickActionValues(action, templateList, new Date()) }));
    setErrors({});
    setFormError(null);
    formRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
    requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>(`#${CSS.escape(fieldId('template'))}`)?.focus({ preventScroll: true }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const checked = validateSendForm(values, seasonId, new Date());
    if (!checked.ok) {
      setErrors(checked.errors);
      const first = Object.keys(checked.errors)[0];
      if (first) requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>(`#${CSS.escape(fieldId(first as SendFormField))}`)?.focus());
      return;
    }
    setErrors({});
    const scheduledFor = checked.request.scheduledAt ? `on ${formatDateTime(checked.request.scheduledAt)}` : undefined;
    // The server says first whether these messages can be delivered at all (a mail server, the channel's switch).
    setChecking(true);
    fetchRecipientPreview(queryClient, checked.request)
      .then((answer) => {
        if (answer.deliveryProblem) setProblem(answer.deliveryProblem);
        else sendNow(checked.request, scheduledFor);
      })
      .catch((error: unknown) => {
        const message = getErrorMessage(error, 'The notification could not be sent. Please try again.');
        setFormError(message);
        toast({ variant: 'destructive', title: 'Send Failed', description: message });
      })
      .finally(() => setChecking(false));
  };

  const sendNow = (request: TNotificationSend, scheduledFor: string | undefined) => {
    send.mutate(request, {
      onSuccess: (result) => {
        toast(describeSendResult(result, scheduledFor));
        setValues((current) => ({ ...current, schedule: false }));
      },
      onError: (error) => {
        const message = getErrorMessage(error, 'The notification could not be sent. Please try again.');
        setFormError(message);
        toast({ variant: 'destructive', title: 'Send Failed', description: message });
      },
    });
  };

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
      <Card>
        <CardHeader>
          <CardTitle>Send Notification</CardTitle>
          <CardDescription>One message per recipient, with its placeholders filled in from that family.</CardDescription>
        </CardHeader>
        <CardContent className="px-4 sm:px-6">
          <form ref={formRef} onSubmit={submit} noValidate className="flex scroll-mt-4 flex-col gap-5" data-testid="send-form">
            <FormError message={formError} testId="send-form-error" />
            <fieldset disabled={send.isPending} className="grid gap-4 sm:grid-cols-2">
              <legend className="sr-only">Message</legend>
              <Field id={fieldId('template')} label="Template" error={errors.template}>
                <Select value={values.template || undefined} onValueChange={(value) => set('template', value)}>
                  <SelectTrigger {...control('template')}>
                    <SelectValue placeholder={templates.isPending ? 'Loading templates…' : 'Choose a template'} />
                  </SelectTrigger>
                  <SelectContent>
                    {templateList.map((template) => (
                      <SelectItem key={template.id} value={template.id} disabled={!template.enabled}>
                        {template.name}
                        {template.type !== 'email' ? ` (${CHANNEL_LABELS[template.type]})` : ''}
                        {template.enabled ? '' : ' (off)'}
                      </SelectItem>
                    ))}
                    <SelectItem value={CUSTOM_MESSAGE}>Custom Message</SelectItem>
                  </SelectContent>
                </Select>
              </Field>
              <Field id={`${id}-season`} label="Season">
                <Select value={seasonId} onValueChange={setSeason} disabled={!seasons.data}>
                  <SelectTrigger id={`${id}-season`}>
                    <SelectValue placeholder={seasons.isPending ? 'Loading seasons…' : 'No seasons'} />
                  </SelectTrigger>
                  <SelectContent>
                    {(seasons.data?.seasons ?? []).map((s) => (
                      <SelectItem key={s.id} value={s.id}>
                        {s.name}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              </Field>
              {custom ? (
                <>
                  <Field id={fieldId('channel')} label="Send by" error={errors.channel}>
                    <Select value={values.channel} onValueChange={(value) => set('channel', NOTIFICATION_CHANNELS.find((c) => c === value) ?? 'email')}>
                      <SelectTrigger {...control('channel')}>
                        <SelectValue />
                      </SelectTrigger>
                      <SelectContent>
                        {NOTIFICATION_CHANNELS.map((c) => (
                          <SelectItem key={c} value={c}>
                            {CHANNEL_LABELS[c]}
                          </SelectItem>
                        ))}
                      </SelectContent>
                    </Select>
                  </Field>
                  <Field id={fieldId('subject')} label={channel === 'email' ? 'Subject' : 'Title'} error={errors.subject}>
                    <Input {...control('subject')} value={values.subject} onChange={(event) => set('subject', event.target.value)} maxLength={200} autoComplete="off" />
                  </Field>
                  <div className="sm:col-span-2">
                    <Field
                      id={fieldId('message')}
                      label="Message"
                      error={errors.message}
                      hint={
                        channel === 'email'
                          ? "Placeholders: {{guardianName}}, {{playerName}}, {{missingDocuments}}, {{uploadLink}} (the family's own upload page), {{season}}, {{deadline}} and the weekly figures (see Templates)."
                          : 'Placeholders: {{season}}, {{deadline}}, {{received}}, {{approved}}, {{rejected}}, {{pending}}.'
                      }
                    >
                      <Textarea {...control('message')} rows={6} value={values.message} onChange={(event) => set('message', event.target.value)} maxLength={10_000} />
                    </Field>
                  </div>
                </>
              ) : null}
              {channel === 'email' ? (
                <Field id={fieldId('recipients')} label="Recipients" error={errors.recipients}>
                  <Select value={values.recipients} onValueChange={(value) => set('recipients', RECIPIENT_GROUPS.find((g) => g === value) ?? 'all_parents')}>
                    <SelectTrigger {...control('recipients')}>
                      <SelectValue />
                    </SelectTrigger>
                    <SelectContent>
                      {RECIPIENT_GROUPS.map((group: TRecipientGroup) => (
                        <SelectItem key={group} value={group}>
                          {RECIPIENT_GROUP_LABELS[group]}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                </Field>
              ) : null}
              <Field id={fieldId('deadline')} label="Deadline" error={errors.deadline} hint="Fills {{deadline}}.">
                <Input {...control('deadline')} type="date" value={values.deadline} onChange={(event) => set('deadline', event.target.value)} />
              </Field>
              {channel === 'email' && values.recipients === 'custom' ? (
                <div className="sm:col-span-2">
                  <Field id={fieldId('customRecipients')} label="E-mail addresses" error={errors.customRecipients} hint="Separate addresses with commas or new lines.">
                    <Textarea
                      {...control('customRecipients')}
                      rows={3}
                      value={values.customRecipients}
                      onChange={(event) => set('customRecipients', event.target.value)}
                      placeholder={'parent@example.org, coach@example.org'}
                    />
                  </Field>
                </div>
              ) : null}
              <div className="flex flex-col gap-3 sm:col-span-2">
                <div className="flex items-center gap-3">
                  <Switch id={fieldId('schedule')} checked={values.schedule} onCheckedChange={(checked) => set('schedule', checked)} />
                  <Label htmlFor={fieldId('schedule')}>Schedule for later</Label>
                </div>
                {values.schedule ? (
                  <Field id={fieldId('scheduledAt')} label="Send at" error={errors.scheduledAt} hint="Sent by the server at that time, even if nobody has this page open.">
                    <Input {...control('scheduledAt')} type="datetime-local" value={values.scheduledAt} onChange={(event) => set('scheduledAt', event.target.value)} className="sm:max-w-64" />
                  </Field>
                ) : null}
              </div>
            </fieldset>
            <RecipientCount request={settledPreview?.request ?? null} preview={preview} channel={channel} />
            <MessagePreview
              preview={settledPreview?.withText ? preview.data?.message : undefined}
              loading={settledPreview?.withText === true && preview.isFetching && !preview.data}
              placeholder={
                settledPreview === null
                  ? 'Choose a template and recipients to see the message as a family will get it.'
                  : !settledPreview.withText
                    ? 'Write the subject and message to see them as a recipient will get them.'
                    : 'Nobody would get this message.'
              }
            />
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Button type="button" variant="outline" onClick={onShowHistory}>
                View History
              </Button>
              <Button type="submit" disabled={send.isPending || checking} data-testid="send-button">
                {send.isPending || checking ? (
                  <LoaderCircle className="animate-spin" aria-hidden="true" />
                ) : values.schedule ? (
                  <CalendarClock aria-hidden="true" />
                ) : (
                  <Send aria-hidden="true" />
                )}
                {values.schedule ? 'Schedule' : 'Send'}
              </Button>
            </div>
          </form>
        </CardContent>
      </Card>
      <div className="flex min-w-0 flex-col gap-6">
        <QuickActionsCard season={seasonId} onAction={applyQuickAction} />
        <RemindersCard season={seasonId} />
      </div>
      <UndeliverableDialog problem={problem} onClose={() => setProblem(null)} />
    </div>
  );
}
