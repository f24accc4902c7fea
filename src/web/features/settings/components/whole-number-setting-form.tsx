import { useState, type FormEvent, type ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { isApiError } from '@/lib/api-client';
import { useSystemSettings } from '@/lib/system-settings-query';
import { cn } from '@/lib/utils';
import { useUpdateSettings } from '../api';
import type { WholeNumberInput, WholeNumberSetting } from '../settings-text';

type WholeNumberSettingFormProps = {
  setting: WholeNumberSetting;
  /** The field's id; its hint and error take it as a prefix. */
  id: string;
  label: string;
  hint: ReactNode;
  min: number;
  max: number;
  /** The field checked with the contract's rule, in the words the form shows. */
  parse: (input: string) => WholeNumberInput;
  /** How a limit the server names is said: `${errorName} ${message}.` */
  errorName: string;
  testId: string;
  className?: string;
};

/**
 * One whole-number System Setting (session timeout, upload link days) with its own Save: checked here with the
 * contract's rule, and again by the server, whose words take the field's error when it refuses.
 */
export function WholeNumberSettingForm({ setting, id, label, hint, min, max, parse, errorName, testId, className }: WholeNumberSettingFormProps) {
  const settings = useSystemSettings();
  const update = useUpdateSettings();
  const saved = settings.data?.[setting];
  // Undefined until the user types: the field then shows the saved value.
  const [draft, setDraft] = useState<string | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const value = draft ?? (saved === undefined ? '' : String(saved));
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const unchanged = draft === undefined || draft.trim() === String(saved);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = parse(value);
    if (!parsed.ok) {
      setError(parsed.message);
      return;
    }
    setError(undefined);
    update.mutate(
      { [setting]: parsed.value },
      {
        onSuccess: () => setDraft(undefined),
        onError: (failure) => {
          const detail = isApiError(failure) ? failure.body?.details?.find((d) => d.path.endsWith(setting)) : undefined;
          if (detail) setError(`${errorName} ${detail.message}.`);
        },
      },
    );
  };

  return (
    <form noValidate onSubmit={submit} data-testid={testId} className={cn('flex flex-col gap-2', className)}>
      <Label htmlFor={id}>{label}</Label>
      <p id={hintId} className="text-sm text-muted-foreground">
        {hint}
      </p>
      <div className="flex flex-wrap items-start gap-2">
        <Input
          id={id}
          type="number"
          inputMode="numeric"
          min={min}
          max={max}
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
        <p id={errorId} role="alert" className="text-sm text-destructive-soft-foreground" data-testid={errorId}>
          {error}
        </p>
      ) : null}
    </form>
  );
}
