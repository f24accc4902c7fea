import { CheckCircle2, LoaderCircle, Save, Send, XCircle } from 'lucide-react';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'wouter';
import { CHANNEL_LABELS, type TNotificationChannel, type TNotificationSettings, type TNotificationTestResult } from '../../../../contract';
import { FormError } from '@/components/form-field';
import { LoadError } from '@/components/load-error';
import { LoadingState } from '@/components/loading-state';
import { ReadOnlyNote } from '@/components/read-only-note';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { getErrorMessage } from '@/lib/api-client';
import { usePermissions } from '@/lib/session-api';
import { toast } from '@/lib/toast-store';
import { useNotificationSettings, useSaveNotificationSettings, useSendTestNotification } from '../api';
import { mailServerSummary, webhookSummary, type ShownNotificationSettings, type SummaryRow } from '../settings-summary';
import { settingsFormValues, validateSettingsForm, type SettingsErrors, type SettingsField, type SettingsFormValues } from '../settings-form';

const MASK = '••••••••';

function SwitchState({ on, channel }: { on: boolean; channel: TNotificationChannel }) {
  return (
    <p className="text-sm text-muted-foreground" data-testid={`switch-state-${channel}`}>
      {CHANNEL_LABELS[channel]} notifications are <strong className={on ? 'text-success-soft-foreground' : 'text-foreground'}>{on ? 'on' : 'off'}</strong> in{' '}
      <Link href="/settings" className="underline underline-offset-4">
        System Settings
      </Link>
      .
    </p>
  );
}

/** 'Send test' for one channel: one real message through the saved settings, and what came of it. */
function TestButton({ channel, to, disabled }: { channel: TNotificationChannel; to?: string; disabled?: boolean }) {
  const test = useSendTestNotification();
  const [result, setResult] = useState<TNotificationTestResult | null>(null);
  const run = () => {
    setResult(null);
    test.mutate(
      { channel, ...(to ? { to } : {}) },
      {
        onSuccess: (answer) => {
          setResult(answer);
          toast(answer.ok ? { title: 'Test Message Sent', description: answer.message } : { variant: 'destructive', title: 'Test Failed', description: answer.message });
        },
        onError: (error) => {
          const message = getErrorMessage(error, 'The test could not be sent.');
          setResult({ ok: false, message });
          toast({ variant: 'destructive', title: 'Test Failed', description: message });
        },
      },
    );
  };
  return (
    <div className="flex flex-col gap-2">
      <Button type="button" variant="outline" size="sm" className="w-fit" onClick={run} disabled={disabled || test.isPending} data-testid={`test-${channel}`}>
        {test.isPending ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Send aria-hidden="true" />}
        Send test
      </Button>
      {result ? (
        <p
          role="status"
          className={`flex items-start gap-1.5 text-sm break-words ${result.ok ? 'text-success-soft-foreground' : 'text-destructive-soft-foreground'}`}
          data-testid={`test-result-${channel}`}
        >
          {result.ok ? <CheckCircle2 className="mt-0.5 size-4 shrink-0" aria-hidden="true" /> : <XCircle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />}
          {result.message}
        </p>
      ) : null}
    </div>
  );
}

function Field({ id, label, error, hint, children }: { id: string; label: string; error?: string; hint?: ReactNode; children: ReactNode }) {
  return (
    <div className="flex min-w-0 flex-col gap-2">
      <Label htmlFor={id}>{label}</Label>
      {children}
      {error ? (
        <p id={`${id}-error`} className="text-xs break-words text-destructive-soft-foreground">
          {error}
        </p>
      ) : hint ? (
        <p className="text-xs text-muted-foreground">{hint}</p>
      ) : null}
    </div>
  );
}

function SettingsForm({ settings }: { settings: TNotificationSettings }) {
  const id = useId();
  const save = useSaveNotificationSettings();
  const [values, setValues] = useState<SettingsFormValues>(() => settingsFormValues(settings));
  const [errors, setErrors] = useState<SettingsErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [testTo, setTestTo] = useState('');
  const fieldId = (field: SettingsField) => `${id}-${field}`;
  const control = (field: SettingsField) => ({
    id: fieldId(field),
    'aria-invalid': errors[field] !== undefined,
    'aria-describedby': errors[field] ? `${fieldId(field)}-error` : undefined,
  });
  const set = <K extends keyof SettingsFormValues>(field: K, value: SettingsFormValues[K]) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFormError(null);
    const checked = validateSettingsForm(values);
    if (!checked.ok) {
      setErrors(checked.errors);
      return;
    }
    save.mutate(checked.update, {
      onSuccess: (saved) => {
        setValues(settingsFormValues(saved));
        setErrors({});
        toast({ title: 'Settings Saved', description: 'Notification settings were saved. Passwords and webhook addresses are stored encrypted.' });
      },
      onError: (error) => {
        const message = getErrorMessage(error, 'The settings could not be saved. Please try again.');
        setFormError(message);
        toast({ variant: 'destructive', title: 'Settings Not Saved', description: message });
      },
    });
  };

  const webhook = (channel: 'slack' | 'teams', state: TNotificationSettings['slackWebhook'], removeField: 'removeSlack' | 'removeTeams') => (
    <div className="flex flex-col gap-3">
      <Field
        id={fieldId(channel)}
        label={`${CHANNEL_LABELS[channel]} webhook address`}
        error={errors[channel]}
        hint={state.set ? `Saved (${state.hint ?? MASK}). Leave empty to keep it.` : 'An https:// incoming-webhook address.'}
      >
        <Input
          {...control(channel)}
          type="url"
          inputMode="url"
          autoComplete="off"
          placeholder={state.set ? (state.hint ?? MASK) : channel === 'slack' ? 'https://hooks.slack.com/services/…' : 'https://….webhook.office.com/…'}
          value={values[channel]}
          disabled={values[removeField]}
          onChange={(event) => set(channel, event.target.value)}
          data-testid={`${channel}-webhook`}
        />
      </Field>
      {state.set ? (
        <div className="flex items-center gap-2">
          <Checkbox id={`${id}-${removeField}`} checked={values[removeField]} onCheckedChange={(checked) => set(removeField, checked === true)} />
          <Label htmlFor={`${id}-${removeField}`} className="text-sm font-normal">
            Remove the saved address
          </Label>
        </div>
      ) : null}
      <SwitchState on={settings.switches[channel]} channel={channel} />
      <TestButton channel={channel} disabled={!state.set} />
    </div>
  );

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-6" data-testid="settings-form">
      <FormError message={formError} testId="settings-error" />
      <Card>
        <CardHeader>
          <CardTitle>Mail Server</CardTitle>
          <CardDescription>
            {settings.email.source === 'environment'
              ? 'E-mail goes through the server set by SMTP_URL. A server saved here takes its place.'
              : settings.email.source === 'settings'
                ? 'E-mail goes through the server below.'
                : 'No mail server yet: e-mail notifications fail until one is saved here (or SMTP_URL is set).'}
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4 px-4 sm:px-6">
          <fieldset disabled={save.isPending} className="grid gap-4 sm:grid-cols-2">
            <legend className="sr-only">Mail server</legend>
            <Field id={fieldId('host')} label="Host" error={errors.host} hint="Empty = use SMTP_URL from the server's settings.">
              <Input {...control('host')} value={values.host} onChange={(event) => set('host', event.target.value)} placeholder="smtp.example.org" autoComplete="off" />
            </Field>
            <Field id={fieldId('port')} label="Port" error={errors.port}>
              <Input {...control('port')} inputMode="numeric" value={values.port} onChange={(event) => set('port', event.target.value)} />
            </Field>
            <div className="flex items-center gap-3 sm:col-span-2">
              <Switch id={`${id}-secure`} checked={values.secure} onCheckedChange={(checked) => set('secure', checked)} />
              <Label htmlFor={`${id}-secure`}>TLS from the start (port 465); off uses STARTTLS when offered</Label>
            </div>
            <Field id={fieldId('username')} label="Username" error={errors.username}>
              <Input {...control('username')} value={values.username} onChange={(event) => set('username', event.target.value)} autoComplete="off" />
            </Field>
            <Field
              id={fieldId('password')}
              label="Password"
              error={errors.password}
              hint={settings.email.passwordSet ? 'A password is saved. Leave empty to keep it while the server and user stay the same.' : 'No password saved.'}
            >
              <Input
                {...control('password')}
                type="password"
                autoComplete="new-password"
                placeholder={settings.email.passwordSet ? MASK : ''}
                value={values.password}
                disabled={values.removePassword}
                onChange={(event) => set('password', event.target.value)}
                data-testid="smtp-password"
              />
            </Field>
            {settings.email.passwordSet ? (
              <div className="flex items-center gap-2 sm:col-span-2">
                <Checkbox id={`${id}-remove-password`} checked={values.removePassword} onCheckedChange={(checked) => set('removePassword', checked === true)} />
                <Label htmlFor={`${id}-remove-password`} className="text-sm font-normal">
                  Remove the saved password
                </Label>
              </div>
            ) : null}
            <div className="sm:col-span-2">
              <Field id={fieldId('from')} label="From address" error={errors.from}>
                <Input {...control('from')} value={values.from} onChange={(event) => set('from', event.target.value)} placeholder="League Registrations <registrations@example.org>" />
              </Field>
            </div>
          </fieldset>
          <SwitchState on={settings.switches.email} channel="email" />
          <div className="flex flex-col gap-2 rounded-md border p-3">
            <Label htmlFor={`${id}-test-to`}>Send a test e-mail to</Label>
            <div className="flex flex-col gap-2 sm:flex-row sm:items-start">
              <Input id={`${id}-test-to`} type="email" value={testTo} onChange={(event) => setTestTo(event.target.value)} placeholder="you@example.org" className="sm:max-w-72" />
              <TestButton channel="email" to={testTo.trim()} disabled={testTo.trim() === ''} />
            </div>
            <p className="text-xs text-muted-foreground">Tests use the saved settings: save first.</p>
          </div>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Team Chat</CardTitle>
          <CardDescription>Incoming-webhook addresses; messages sent to Slack or Teams are posted there.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-6 px-4 sm:px-6 md:grid-cols-2">
          {webhook('slack', settings.slackWebhook, 'removeSlack')}
          {webhook('teams', settings.teamsWebhook, 'removeTeams')}
        </CardContent>
      </Card>
      <div className="flex justify-end">
        <Button type="submit" disabled={save.isPending} data-testid="save-settings">
          {save.isPending ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Save aria-hidden="true" />}
          Save Settings
        </Button>
      </div>
    </form>
  );
}

/** One line of read-only settings: its name, then its value as text. */
function SummaryLine({ label, value, testId }: SummaryRow) {
  return (
    <div className="flex min-w-0 flex-col gap-0.5 sm:flex-row sm:gap-4">
      <dt className="text-sm text-muted-foreground sm:w-44 sm:shrink-0">{label}</dt>
      <dd className="min-w-0 text-sm font-medium break-words" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

/**
 * The settings as text, for a role that cannot configure notifications: no fields, no tests, no Save. Values the
 * server leaves out for such a role (the mail server's host and user, the secrets' hints) say they are hidden.
 */
function ReadOnlySettings({ settings }: { settings: TNotificationSettings }) {
  const shown: ShownNotificationSettings = settings;
  return (
    <div className="flex flex-col gap-6" data-testid="settings-read-only">
      <ReadOnlyNote>Only an admin can change the mail server and the chat webhooks, or send test messages.</ReadOnlyNote>
      <Card>
        <CardHeader>
          <CardTitle>Mail Server</CardTitle>
          <CardDescription>Where e-mail notifications are sent from.</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4 px-4 sm:px-6">
          <dl className="flex flex-col gap-3">
            {mailServerSummary(shown).map((row) => (
              <SummaryLine key={row.testId} {...row} />
            ))}
          </dl>
          <SwitchState on={settings.switches.email} channel="email" />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Team Chat</CardTitle>
          <CardDescription>Incoming-webhook addresses; messages sent to Slack or Teams are posted there.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-6 px-4 sm:px-6 md:grid-cols-2">
          {(['slack', 'teams'] as const).map((channel) => (
            <div key={channel} className="flex flex-col gap-3">
              <dl>
                <SummaryLine
                  label={`${CHANNEL_LABELS[channel]} webhook`}
                  value={webhookSummary(channel === 'slack' ? shown.slackWebhook : shown.teamsWebhook)}
                  testId={`${channel}-webhook-state`}
                />
              </dl>
              <SwitchState on={settings.switches[channel]} channel={channel} />
            </div>
          ))}
        </CardContent>
      </Card>
    </div>
  );
}

/**
 * Settings: the mail server and the chat webhooks; secrets go in, never come back out. A role that cannot
 * configure them reads them as text.
 */
export function SettingsTab() {
  const settings = useNotificationSettings();
  const { can } = usePermissions();
  if (settings.isPending) {
    return (
      <LoadingState label="Loading notification settings…" className="flex flex-col gap-4">
        <Skeleton className="h-72 w-full" />
        <Skeleton className="h-48 w-full" />
      </LoadingState>
    );
  }
  if (settings.isError) {
    return (
      <LoadError
        variant="banner"
        title="Unable to load the notification settings."
        detail={getErrorMessage(settings.error)}
        onRetry={() => void settings.refetch()}
      />
    );
  }
  return can('notifications.configure') ? <SettingsForm settings={settings.data} /> : <ReadOnlySettings settings={settings.data} />;
}
