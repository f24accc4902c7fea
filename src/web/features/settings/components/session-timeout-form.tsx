import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { isApiError } from '@/lib/api-client';
import { useSystemSettings } from '@/lib/system-settings-query';
import { useUpdateSettings } from '../api';
import { parseSessionTimeout, SESSION_TIMEOUT_HINT } from '../settings-text';

/** Idle minutes before the server ends a session; checked here with the contract's rule, and again by the server. */
export function SessionTimeoutForm() {
  const settings = useSystemSettings();
  const update = useUpdateSettings();
  const saved = settings.data?.sessionTimeoutMinutes;
  // Empty until the user types: the field then shows the saved value.
  const [draft, setDraft] = useState<string | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const value = draft ?? (saved === undefined ? '' : String(saved));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parseSessionTimeout(value);
    if (!parsed.ok) {
      setError(parsed.message);
      return;
    }
    setError(undefined);
    update.mutate(
      { sessionTimeoutMinutes: parsed.minutes },
      {
        onSuccess: () => setDraft(undefined),
        onError: (failure) => {
          const detail = isApiError(failure) ? failure.body?.details?.find((d) => d.path.endsWith('sessionTimeoutMinutes')) : undefined;
          if (detail) setError(`Session timeout ${detail.message}.`);
        },
      },
    );
  };

  const errorId = 'session-timeout-error';
  const hintId = 'session-timeout-hint';
  const unchanged = draft === undefined || draft.trim() === String(saved);

  return (
    <form noValidate onSubmit={submit} data-testid="session-timeout-form" className="flex flex-col gap-2 pt-4">
      <Label htmlFor="session-timeout">Session timeout (minutes)</Label>
      <p id={hintId} className="text-sm text-muted-foreground">
        Staff are signed out after this many minutes without using Clearbase. {SESSION_TIMEOUT_HINT}
      </p>
      <div className="flex flex-wrap items-start gap-2">
        <Input
          id="session-timeout"
          type="number"
          inputMode="numeric"
          min={5}
          max={1440}
          step={1}
          className="w-32"
          value={value}
          disabled={!settings.data}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${hintId} ${errorId}` : hintId}
          onChange={(event) => {
            setDraft(event.target.value);
            setError(undefined);
          }}
        />
        <Button type="submit" disabled={!settings.data || update.isPending || unchanged}>
          {update.isPending ? 'Saving...' : 'Save'}
        </Button>
      </div>
      {error ? (
        <p id={errorId} role="alert" className="text-sm text-destructive-soft-foreground">
          {error}
        </p>
      ) : null}
    </form>
  );
}
