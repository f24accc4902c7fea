import { KeyRound, LoaderCircle, Save, Trash2, WandSparkles } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import type { TIntegrationPatch } from '../../../../contract';
import { CopyButton } from '@/components/copy-button';
import { FormError } from '@/components/form-field';
import { PasswordInput } from '@/components/password-input';
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
import { Label } from '@/components/ui/label';
import { getErrorMessage } from '@/lib/api-client';
import { useReturnFocus } from '@/lib/use-return-focus';
import { generateSecret } from '../integrations-text';

export type SealedValueSectionProps = {
  /** 'secret' or 'downloadKey': the field of the PATCH. */
  field: 'secret' | 'downloadKey';
  testId: string;
  title: string;
  /** What is in force now, in words. */
  summary: string;
  /** A value of the provider's own is set: offer Replace and Remove instead of Set. */
  isSet: boolean;
  setLabel: string;
  inputLabel: string;
  hint: string;
  /** Offers Generate (a random 32-character secret) and Copy. */
  generate?: boolean;
  problem: (value: string) => string | null;
  removeTitle: string;
  removeDescription: string;
  save: (patch: TIntegrationPatch) => Promise<unknown>;
  pending: boolean;
};

/**
 * A secret kept sealed on the server (a provider's own secret, its download key): what is in force, and Set,
 * Replace or Remove. The value goes in and never comes back; the outcome is announced in the section.
 */
export function SealedValueSection(props: SealedValueSectionProps) {
  const { field, testId, title, summary, isSet, setLabel, inputLabel, hint, generate = false, problem, save, pending } = props;
  const id = useId();
  const headingId = `${id}-heading`;
  const inputId = `${id}-input`;
  const [editing, setEditing] = useState(false);
  const [value, setValue] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const [confirming, setConfirming] = useState(false);
  const returnFocus = useReturnFocus();

  const run = async (patch: TIntegrationPatch, done: string) => {
    setFailure(null);
    setStatus('');
    try {
      await save(patch);
      setEditing(false);
      setValue('');
      setStatus(done);
    } catch (error) {
      setFailure(getErrorMessage(error, `The ${title.toLowerCase()} could not be saved. Please try again.`));
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = problem(value);
    setFieldError(found);
    if (found) return;
    void run({ [field]: value.trim() }, `${title} saved.`);
  };

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3" data-testid={testId}>
      <h4 id={headingId} className="flex items-center gap-2 text-sm font-semibold">
        <KeyRound className="size-4 text-muted-foreground" aria-hidden="true" />
        {title}
      </h4>
      <p className="text-sm break-words" data-testid={`${testId}-state`}>
        {summary}
      </p>
      {editing ? (
        <form onSubmit={submit} noValidate className="flex flex-col gap-3 rounded-md border p-3">
          <div className="flex flex-col gap-2">
            <Label htmlFor={inputId}>{inputLabel}</Label>
            <PasswordInput
              id={inputId}
              value={value}
              autoComplete="off"
              aria-invalid={fieldError !== null}
              aria-describedby={fieldError ? `${inputId}-error` : `${inputId}-hint`}
              onChange={(event) => {
                setValue(event.target.value);
                setFieldError(null);
              }}
              disabled={pending}
              className="sm:max-w-md"
            />
            {fieldError ? (
              <p id={`${inputId}-error`} className="text-xs break-words text-destructive-soft-foreground">
                {fieldError}
              </p>
            ) : (
              <p id={`${inputId}-hint`} className="text-xs text-muted-foreground">
                {hint}
              </p>
            )}
          </div>
          <div className="flex flex-wrap gap-2">
            {generate ? (
              <>
                <Button
                  type="button"
                  variant="outline"
                  size="sm"
                  onClick={() => {
                    setValue(generateSecret());
                    setFieldError(null);
                    setStatus('A new secret was generated. Copy it into the form builder, then save it here.');
                  }}
                  disabled={pending}
                >
                  <WandSparkles aria-hidden="true" />
                  Generate
                </Button>
                <CopyButton text={value} label="Copy secret" size="sm" disabled={value === ''} />
              </>
            ) : null}
            <Button type="submit" size="sm" disabled={pending}>
              {pending ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <Save aria-hidden="true" />}
              Save {title.toLowerCase()}
            </Button>
            <Button
              type="button"
              variant="ghost"
              size="sm"
              onClick={() => {
                setEditing(false);
                setValue('');
                setFieldError(null);
                setStatus('');
              }}
              disabled={pending}
            >
              Cancel
            </Button>
          </div>
        </form>
      ) : (
        <div className="flex flex-wrap gap-2">
          <Button
            variant="outline"
            size="sm"
            onClick={() => {
              setEditing(true);
              setStatus('');
              setFailure(null);
            }}
          >
            {isSet ? `Replace ${title.toLowerCase()}` : setLabel}
          </Button>
          {isSet ? (
            <Button variant="outline" size="sm" disabled={pending} onClick={() => setConfirming(true)}>
              <Trash2 aria-hidden="true" />
              Remove {title.toLowerCase()}
            </Button>
          ) : null}
          <AlertDialog open={confirming} onOpenChange={setConfirming}>
            <AlertDialogContent {...returnFocus}>
              <AlertDialogHeader>
                <AlertDialogTitle>{props.removeTitle}</AlertDialogTitle>
                <AlertDialogDescription>{props.removeDescription}</AlertDialogDescription>
              </AlertDialogHeader>
              <AlertDialogFooter>
                <AlertDialogCancel>Cancel</AlertDialogCancel>
                <Button
                  variant="destructive"
                  onClick={() => {
                    setConfirming(false);
                    void run({ [field]: null }, `${title} removed.`);
                  }}
                >
                  Remove
                </Button>
              </AlertDialogFooter>
            </AlertDialogContent>
          </AlertDialog>
        </div>
      )}
      <p role="status" className="text-sm text-success-soft-foreground empty:hidden" data-testid={`${testId}-status`}>
        {status}
      </p>
      <FormError message={failure} testId={`${testId}-error`} />
    </section>
  );
}
