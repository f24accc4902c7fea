import { CalendarPlus, LoaderCircle, Save } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import type { TDivision, TNewSeason, TSeason } from '../../../../contract';
import { FormDialogFooter, FormError } from '@/components/form-field';
import { Button } from '@/components/ui/button';
import { getErrorMessage, isApiError } from '@/lib/api-client';
import { toast } from '@/lib/toast-store';
import { useFieldForm } from '@/lib/use-field-form';
import { useCreateSeason, useUpdateSeason } from '../api';
import {
  firstInvalidSeasonField,
  followKindAndYear,
  seasonChanges,
  serverSeasonErrors,
  SUGGESTED_FIELDS,
  validateSeasonForm,
  type SeasonFormText,
  type TSeasonFormField,
  type TSeasonTextField,
  type TSuggestedField,
} from '../season-form';
import { focusSeasonField, SeasonFields } from './season-fields';

const isSuggested = (field: TSeasonTextField): field is TSuggestedField => (SUGGESTED_FIELDS as readonly string[]).includes(field);

/**
 * The state of a season form: the text fields, the divisions, a message per field and one for the form. In a
 * new season the name and dates follow the kind and year until the person types their own.
 */
function useSeasonForm(initial: { text: SeasonFormText; divisions: TDivision[] }, follow: boolean) {
  const { id, values, errors, setErrors, formError, setFormError, formRef, fieldId, setValue } = useFieldForm<TSeasonFormField>({ ...initial.text, divisions: '' });
  const [divisions, setDivisions] = useState<TDivision[]>(initial.divisions);
  const [typed, setTyped] = useState<ReadonlySet<TSuggestedField>>(new Set());
  const focusField = (field: TSeasonFormField | undefined) => field && focusSeasonField(formRef.current, fieldId(field));

  const onTextChange = (field: TSeasonTextField, value: string) => {
    setValue(field, value);
    if (isSuggested(field)) setTyped((current) => new Set(current).add(field));
    if (follow && (field === 'kind' || field === 'year')) {
      const text = followKindAndYear({ ...values, [field]: value }, typed);
      for (const suggested of SUGGESTED_FIELDS) if (text[suggested] !== values[suggested]) setValue(suggested, text[suggested]);
    }
  };
  const onDivisionsChange = (next: TDivision[]) => {
    setDivisions(next);
    setErrors((current) => ({ ...current, divisions: undefined }));
  };

  /** The checked season, or undefined after showing what is wrong. */
  const check = (): TNewSeason | undefined => {
    setFormError(null);
    const checked = validateSeasonForm(values, divisions);
    if (!checked.ok) {
      setErrors(checked.errors);
      focusField(firstInvalidSeasonField(checked.errors));
      return undefined;
    }
    setErrors({});
    return checked.season;
  };

  const showRefusal = (error: unknown, fallback: string) => {
    const { fields, message } = serverSeasonErrors(isApiError(error) ? error.body : undefined, getErrorMessage(error, fallback));
    setErrors(fields);
    setFormError(message);
    focusField(firstInvalidSeasonField(fields));
  };

  return { id, formRef, formError, values, errors, fieldId, divisions, onTextChange, onDivisionsChange, check, showRefusal };
}

/**
 * The 'New season' form: in the dialog of Settings → Seasons, and as the first-run step (`variant: 'page'`,
 * one wide button). `initial` is the season most likely to come next.
 */
export function NewSeasonForm({
  initial,
  onDone,
  variant = 'dialog',
}: {
  initial: { text: SeasonFormText; divisions: TDivision[] };
  onDone: (season: TSeason) => void;
  variant?: 'dialog' | 'page';
}) {
  const create = useCreateSeason();
  const { id, formRef, formError, values, errors, fieldId, divisions, onTextChange, onDivisionsChange, check, showRefusal } = useSeasonForm(initial, true);
  const pending = create.isPending;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const season = check();
    if (!season) return;
    create.mutate(season, {
      onSuccess: ({ season: created }) => {
        toast({
          title: 'Season created',
          description: created.isCurrent ? `${created.name} is the current season.` : `${created.name} was added.`,
        });
        onDone(created);
      },
      onError: (error) => showRefusal(error, 'The season could not be created. Please try again.'),
    });
  }

  return (
    <form
      ref={formRef}
      onSubmit={submit}
      noValidate
      className="flex flex-col gap-6"
      aria-describedby={formError ? `${id}-form-error` : undefined}
      data-testid="new-season-form"
    >
      <FormError message={formError} id={`${id}-form-error`} testId="season-form-error" />
      <SeasonFields
        legend="New season"
        disabled={pending}
        values={values}
        errors={errors}
        fieldId={fieldId}
        onTextChange={onTextChange}
        divisions={divisions}
        onDivisionsChange={onDivisionsChange}
      />
      {variant === 'dialog' ? (
        <FormDialogFooter pending={pending} icon={CalendarPlus} label="Create season" pendingLabel="Creating…" />
      ) : (
        <Button type="submit" className="w-full" disabled={pending}>
          {pending ? <LoaderCircle className="animate-spin" aria-hidden="true" /> : <CalendarPlus aria-hidden="true" />}
          {pending ? 'Creating…' : 'Create season'}
        </Button>
      )}
    </form>
  );
}

/** Edit season: the same fields, sending only what changed (PATCH /api/seasons/{id}). */
export function EditSeasonForm({ season, initial, onDone }: { season: TSeason; initial: { text: SeasonFormText; divisions: TDivision[] }; onDone: () => void }) {
  const update = useUpdateSeason();
  const { id, formRef, formError, values, errors, fieldId, divisions, onTextChange, onDivisionsChange, check, showRefusal } = useSeasonForm(initial, false);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const checked = check();
    if (!checked) return;
    const patch = seasonChanges(season, checked);
    if (!patch) return onDone();
    update.mutate(
      { id: season.id, patch },
      {
        onSuccess: ({ season: saved }) => {
          toast({ title: 'Season saved', description: `${saved.name} was saved.` });
          onDone();
        },
        onError: (error) => {
          // Gone meanwhile: nothing left to edit.
          if (isApiError(error) && error.status === 404) {
            toast({ variant: 'destructive', title: 'Season not saved', description: getErrorMessage(error) });
            return onDone();
          }
          showRefusal(error, 'The season could not be saved. Please try again.');
        },
      },
    );
  }

  return (
    <form
      ref={formRef}
      onSubmit={submit}
      noValidate
      className="flex flex-col gap-6"
      aria-describedby={formError ? `${id}-form-error` : undefined}
      data-testid="edit-season-form"
    >
      <FormError message={formError} id={`${id}-form-error`} testId="season-form-error" />
      <SeasonFields
        legend={season.name}
        disabled={update.isPending}
        values={values}
        errors={errors}
        fieldId={fieldId}
        onTextChange={onTextChange}
        divisions={divisions}
        onDivisionsChange={onDivisionsChange}
      />
      <FormDialogFooter pending={update.isPending} icon={Save} label="Save changes" pendingLabel="Saving…" />
    </form>
  );
}
