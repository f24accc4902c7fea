import { CircleCheck, CircleX, LoaderCircle, PlugZap, Save, Server } from 'lucide-react';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import {
  MAILBOX_SECURITY,
  MAILBOX_SECURITY_LABELS,
  MAILBOX_SECURITY_PORTS,
  MAILBOX_SETTING_VARIABLES,
  ZMailboxSettingsInput,
  type TMailboxSecurity,
  type TMailboxSettings,
  type TMailboxSettingField,
  type TMailboxTestResult,
} from '../../../../contract';
import { FormError } from '@/components/form-field';
import { LabelledSelect } from '@/components/labelled-select';
import { LoadError } from '@/components/load-error';
import { LoadingState } from '@/components/loading-state';
import { PasswordInput } from '@/components/password-input';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { getErrorMessage } from '@/lib/api-client';
import { cn } from '@/lib/utils';
import { useMailboxSettings, useSaveMailboxSettings, useTestMailboxConnection } from '../api';

type Values = { host: string; port: string; security: TMailboxSecurity; user: string; password: string; folder: string };
type Errors = Partial<Record<TMailboxSettingField, string>>;

const valuesOf = (settings: TMailboxSettings): Values => ({
  host: settings.host ?? '',
  port: String(settings.port ?? MAILBOX_SECURITY_PORTS.tls),
  security: settings.security ?? 'tls',
  user: settings.user ?? '',
  password: '',
  folder: settings.folder ?? 'INBOX',
});

/** The form's values as the API takes them; an empty password keeps the saved one. */
function inputOf(values: Values) {
  return ZMailboxSettingsInput.safeParse({
    host: values.host,
    port: Number(values.port),
    security: values.security,
    user: values.user,
    folder: values.folder,
    ...(values.password === '' ? {} : { password: values.password }),
  });
}

const isField = (key: PropertyKey): key is TMailboxSettingField => typeof key === 'string' && key in MAILBOX_SETTING_VARIABLES;

function errorsOf(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>): Errors {
  const errors: Errors = {};
  for (const issue of issues) {
    const field = issue.path[0];
    if (field !== undefined && isField(field)) errors[field] ??= issue.message;
  }
  return errors;
}

/** One field: its label, its control, the variable that sets it on the server (when one does) and its error. */
function Field({
  id,
  name,
  label,
  variable,
  error,
  hint,
  className,
  children,
}: {
  id: string;
  name: TMailboxSettingField;
  label: string;
  variable: string | undefined;
  error: string | undefined;
  hint?: string;
  className?: string;
  children: (describedBy: string | undefined) => ReactNode;
}) {
  const noteId = `${id}-note`;
  const errorId = `${id}-error`;
  const note = variable ? `Set on the server by ${variable}` : hint;
  const describedBy = [note ? noteId : undefined, error ? errorId : undefined].filter(Boolean).join(' ') || undefined;
  return (
    <div className={cn('flex min-w-0 flex-col gap-2', className)}>
      <Label htmlFor={id}>{label}</Label>
      {children(describedBy)}
      {note ? (
        <p id={noteId} className={cn('text-xs', variable ? 'font-medium text-warning-soft-foreground' : 'text-muted-foreground')} data-testid={variable ? `env-note-${name}` : undefined}>
          {note}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="text-xs break-words text-destructive-soft-foreground" data-testid={`mailbox-error-${name}`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

function TestResult({ result }: { result: TMailboxTestResult }) {
  const ok = result.outcome === 'connected';
  const Icon = ok ? CircleCheck : CircleX;
  return (
    <span
      className={cn(
        'flex items-start gap-2 rounded-md px-3 py-2 text-sm break-words',
        ok ? 'bg-success-soft text-success-soft-foreground' : 'bg-destructive-soft text-destructive-soft-foreground',
      )}
      data-testid="mailbox-test-result"
      data-outcome={result.outcome}
    >
      <Icon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      {result.message}
    </span>
  );
}

function SettingsForm({ settings }: { settings: TMailboxSettings }) {
  const id = useId();
  const fieldId = (field: TMailboxSettingField) => `${id}-${field}`;
  const [values, setValues] = useState<Values>(() => valuesOf(settings));
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saved, setSaved] = useState('');
  const save = useSaveMailboxSettings();
  const test = useTestMailboxConnection();
  const fromEnvironment = settings.source === 'environment';
  const variable = (field: TMailboxSettingField) => settings.variables?.[field];
  const busy = save.isPending || test.isPending;

  const set = <K extends keyof Values>(field: K, value: Values[K]) => {
    setValues((before) => ({ ...before, [field]: value }));
    setErrors((before) => ({ ...before, [field]: undefined }));
    setSaved('');
  };
  const chooseSecurity = (security: TMailboxSecurity) => {
    // The port follows the security while it is the usual port of the one chosen before.
    const usual = String(MAILBOX_SECURITY_PORTS[values.security]);
    set('security', security);
    if (values.port === usual || values.port === '') set('port', String(MAILBOX_SECURITY_PORTS[security]));
  };

  const runTest = () => {
    setFailure(null);
    if (fromEnvironment) {
      test.mutate({});
      return;
    }
    const parsed = inputOf(values);
    if (!parsed.success) {
      // A password left empty is the saved one, so the rest may still be tested.
      setErrors(errorsOf(parsed.error.issues));
      return;
    }
    test.mutate(parsed.data, { onError: (error) => setFailure(getErrorMessage(error)) });
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    setSaved('');
    const parsed = inputOf(values);
    const found: Errors = parsed.success ? {} : errorsOf(parsed.error.issues);
    if (!settings.passwordSet && values.password === '') found.password = 'Enter the password';
    setErrors(found);
    if (!parsed.success || Object.keys(found).length > 0) return;
    save.mutate(parsed.data, {
      onSuccess: () => {
        setValues((before) => ({ ...before, password: '' }));
        setSaved('Mailbox saved. Clearbase uses it from now on.');
      },
      onError: (error) => setFailure(getErrorMessage(error, 'The mailbox could not be saved. Please try again.')),
    });
  };

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-4" aria-label="Mailbox settings" data-testid="mailbox-settings">
      {fromEnvironment ? (
        <p className="rounded-md bg-warning-soft px-3 py-2 text-sm text-warning-soft-foreground" data-testid="mailbox-env-note">
          This mailbox is set on the server by the IMAP_* variables, so it cannot be changed here: change it there. Test connection still tries it.
        </p>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <Field id={fieldId('host')} name="host" label="Mail server" variable={variable('host')} error={errors.host} hint="The IMAP server your mail provider names">
          {(describedBy) => (
            <Input
              id={fieldId('host')}
              value={values.host}
              onChange={(event) => set('host', event.target.value)}
              placeholder="imap.example.org"
              autoComplete="off"
              spellCheck={false}
              autoCapitalize="none"
              disabled={fromEnvironment}
              aria-invalid={errors.host !== undefined}
              aria-describedby={describedBy}
            />
          )}
        </Field>
        <Field id={fieldId('port')} name="port" label="Port" variable={variable('port')} error={errors.port}>
          {(describedBy) => (
            <Input
              id={fieldId('port')}
              inputMode="numeric"
              value={values.port}
              onChange={(event) => set('port', event.target.value)}
              disabled={fromEnvironment}
              aria-invalid={errors.port !== undefined}
              aria-describedby={describedBy}
            />
          )}
        </Field>
      </div>
      {fromEnvironment ? (
        <Field id={fieldId('security')} name="security" label="Security" variable={variable('security')} error={undefined}>
          {(describedBy) => <Input id={fieldId('security')} value={MAILBOX_SECURITY_LABELS[values.security]} disabled aria-describedby={describedBy} />}
        </Field>
      ) : (
        <LabelledSelect
          id={fieldId('security')}
          label="Security"
          value={values.security}
          options={MAILBOX_SECURITY}
          labels={MAILBOX_SECURITY_LABELS}
          onChange={chooseSecurity}
          className="flex min-w-0 flex-col gap-2 sm:max-w-xs"
        />
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id={fieldId('user')} name="user" label="User name" variable={variable('user')} error={errors.user} hint="Usually the mailbox’s full e-mail address">
          {(describedBy) => (
            <Input
              id={fieldId('user')}
              value={values.user}
              onChange={(event) => set('user', event.target.value)}
              autoComplete="off"
              spellCheck={false}
              autoCapitalize="none"
              disabled={fromEnvironment}
              aria-invalid={errors.user !== undefined}
              aria-describedby={describedBy}
            />
          )}
        </Field>
        <Field
          id={fieldId('password')}
          name="password"
          label="Password or app password"
          variable={variable('password')}
          error={errors.password}
          hint={settings.passwordSet ? 'Set. Leave empty to keep it while the server, port, user name and security stay the same.' : 'Not set. Where the provider asks for two-step sign-in, make an app password there and use it here.'}
        >
          {(describedBy) => (
            <PasswordInput
              id={fieldId('password')}
              value={values.password}
              onChange={(event) => set('password', event.target.value)}
              placeholder={settings.passwordSet ? '••••••••' : undefined}
              autoComplete="new-password"
              disabled={fromEnvironment}
              aria-invalid={errors.password !== undefined}
              aria-describedby={describedBy}
            />
          )}
        </Field>
      </div>
      <Field id={fieldId('folder')} name="folder" label="Folder" variable={variable('folder')} error={errors.folder} hint="Where parents’ e-mails arrive; INBOX unless you made a folder for them" className="sm:max-w-xs">
        {(describedBy) => (
          <Input
            id={fieldId('folder')}
            value={values.folder}
            onChange={(event) => set('folder', event.target.value)}
            autoComplete="off"
            disabled={fromEnvironment}
            aria-invalid={errors.folder !== undefined}
            aria-describedby={describedBy}
          />
        )}
      </Field>
      <div className="flex flex-wrap gap-2">
        <Button type="button" variant="outline" size="sm" onClick={runTest} disabled={busy}>
          {test.isPending ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <PlugZap aria-hidden="true" />}
          Test connection
        </Button>
        {fromEnvironment ? null : (
          <Button type="submit" size="sm" disabled={busy}>
            {save.isPending ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Save aria-hidden="true" />}
            Save mailbox
          </Button>
        )}
      </div>
      <p role="status" className="flex flex-col gap-2 empty:hidden">
        {test.isPending ? <span className="text-sm text-muted-foreground">Connecting to the mail server…</span> : test.data ? <TestResult result={test.data} /> : null}
        {saved ? (
          <span className="text-sm text-success-soft-foreground" data-testid="mailbox-saved">
            {saved}
          </span>
        ) : null}
      </p>
      <FormError message={failure} testId="mailbox-settings-error" />
    </form>
  );
}

/** Settings → Integrations: the mailbox Clearbase reads (server, port, security, user, password, folder) and Test connection. */
export function MailboxSettingsSection() {
  const settings = useMailboxSettings();
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4">
      <h3 id={headingId} className="flex items-center gap-2 text-sm font-semibold">
        <Server className="size-4 text-muted-foreground" aria-hidden="true" />
        Mailbox connection
      </h3>
      {settings.isPending ? (
        <LoadingState label="Loading the mailbox settings" className="flex flex-col gap-3">
          <Skeleton className="h-9 w-full" />
          <Skeleton className="h-9 w-full" />
        </LoadingState>
      ) : settings.isError ? (
        <LoadError
          title="Unable to load the mailbox settings."
          detail={getErrorMessage(settings.error)}
          onRetry={() => void settings.refetch()}
          retrying={settings.isFetching}
        />
      ) : (
        <SettingsForm settings={settings.data} />
      )}
    </section>
  );
}
