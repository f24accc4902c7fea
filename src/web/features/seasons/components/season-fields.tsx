import type { ComponentProps } from 'react';
import { DIVISIONS, MAX_SEASON_NAME_LENGTH, SEASON_KINDS, type TDivision } from '../../../../contract';
import { FormField } from '@/components/form-field';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';
import type { SeasonFieldErrors, SeasonFormText, TSeasonFormField, TSeasonTextField } from '../season-form';

const LABELS: Record<TSeasonFormField, string> = {
  kind: 'Kind',
  year: 'Year',
  name: 'Name',
  startsOn: 'Starts on',
  endsOn: 'Ends on',
  registrationDeadline: 'Registration deadline',
  divisions: 'Divisions',
};

/** What a division is for, where it is not obvious. */
const DIVISION_NOTES: Partial<Record<TDivision, string>> = { TEST: 'TEST (staff test submissions)' };

/**
 * Focuses a field after a failed submit: the input itself, or for a group (kind, divisions) its first control
 * that takes focus (the checked radio button, or the first).
 */
export function focusSeasonField(form: HTMLFormElement | null, id: string): void {
  requestAnimationFrame(() => {
    const element = form?.querySelector<HTMLElement>(`#${CSS.escape(id)}`);
    if (!element) return;
    const target = element.matches('input, button, select, textarea')
      ? element
      : element.querySelector<HTMLElement>('[role="radio"][data-state="checked"], [role="radio"], [role="checkbox"], input, button');
    target?.focus();
  });
}

function ErrorText({ id, name, error }: { id: string; name: string; error: string | undefined }) {
  if (!error) return null;
  return (
    <p id={id} className="text-xs break-words text-destructive-soft-foreground" data-testid={`error-${name}`}>
      {error}
    </p>
  );
}

function Required() {
  return (
    <span className="text-destructive-soft-foreground" aria-hidden="true">
      *
    </span>
  );
}

/** Kind, year, name, the three dates and the divisions: the fields of New season, Edit season and the first-run step. */
export function SeasonFields({
  legend,
  disabled,
  values,
  errors,
  fieldId,
  onTextChange,
  divisions,
  onDivisionsChange,
}: {
  /** Names the group for screen readers ('New season', or the season's name). */
  legend: string;
  /** While the form is being sent. */
  disabled: boolean;
  values: SeasonFormText;
  errors: SeasonFieldErrors;
  fieldId: (field: TSeasonFormField) => string;
  onTextChange: (field: TSeasonTextField, value: string) => void;
  divisions: readonly TDivision[];
  onDivisionsChange: (divisions: TDivision[]) => void;
}) {
  const text = (field: Exclude<TSeasonTextField, 'kind'>, props: ComponentProps<'input'>, hint?: string) => (
    <FormField name={field} label={LABELS[field]} required id={fieldId(field)} error={errors[field]}>
      {(control) => (
        <>
          <Input
            {...control}
            aria-describedby={[control['aria-describedby'], hint ? `${fieldId(field)}-hint` : undefined].filter(Boolean).join(' ') || undefined}
            {...props}
            value={values[field]}
            onChange={(event) => onTextChange(field, event.target.value)}
          />
          {hint ? (
            <p id={`${fieldId(field)}-hint`} className="text-xs text-muted-foreground">
              {hint}
            </p>
          ) : null}
        </>
      )}
    </FormField>
  );
  const kindId = fieldId('kind');
  const divisionsId = fieldId('divisions');
  const toggle = (division: TDivision, checked: boolean) =>
    onDivisionsChange(DIVISIONS.filter((d) => (d === division ? checked : divisions.includes(d))));

  return (
    <fieldset className="grid min-w-0 gap-4 sm:grid-cols-2" disabled={disabled}>
      <legend className="sr-only">{legend}</legend>
      <div className="flex min-w-0 flex-col gap-2">
        <span id={`${kindId}-label`} className="flex items-center gap-2 text-sm leading-none font-medium">
          {LABELS.kind}
          <Required />
        </span>
        <RadioGroup
          id={kindId}
          value={values.kind}
          onValueChange={(kind) => onTextChange('kind', kind)}
          aria-labelledby={`${kindId}-label`}
          aria-required
          aria-invalid={errors.kind !== undefined}
          aria-describedby={errors.kind ? `${kindId}-error` : undefined}
          className="flex min-h-9 flex-wrap items-center gap-x-5 gap-y-2"
        >
          {SEASON_KINDS.map((kind) => (
            <Label key={kind} className="font-normal">
              <RadioGroupItem value={kind} />
              {kind}
            </Label>
          ))}
        </RadioGroup>
        <ErrorText id={`${kindId}-error`} name="kind" error={errors.kind} />
      </div>
      {text('year', { inputMode: 'numeric', autoComplete: 'off', maxLength: 4, className: 'sm:max-w-32' })}
      <div className="sm:col-span-2">
        {text('name', { autoComplete: 'off', maxLength: MAX_SEASON_NAME_LENGTH }, 'What every screen and every message to families calls it.')}
      </div>
      {text('startsOn', { type: 'date' })}
      {text('endsOn', { type: 'date' })}
      <div className="sm:col-span-2">
        {text('registrationDeadline', { type: 'date', className: 'sm:max-w-[calc(50%-0.5rem)]' }, 'The last day families are asked to register by; on or before the end date.')}
      </div>
      <fieldset className="flex min-w-0 flex-col gap-2 sm:col-span-2" aria-describedby={errors.divisions ? `${divisionsId}-error` : `${divisionsId}-hint`}>
        <legend className="mb-2 flex items-center gap-2 text-sm leading-none font-medium">
          {LABELS.divisions}
          <Required />
        </legend>
        <p id={`${divisionsId}-hint`} className="text-xs text-muted-foreground">
          The divisions families can register for this season. A division with players cannot be removed.
        </p>
        <div id={divisionsId} role="group" aria-label="Divisions offered" className="flex flex-wrap gap-x-5 gap-y-3 rounded-md border p-3" data-testid="season-divisions">
          {DIVISIONS.map((division) => (
            <Label key={division} className="font-normal">
              <Checkbox checked={divisions.includes(division)} onCheckedChange={(checked) => toggle(division, checked === true)} aria-invalid={errors.divisions !== undefined} />
              {DIVISION_NOTES[division] ?? division}
            </Label>
          ))}
        </div>
        <ErrorText id={`${divisionsId}-error`} name="divisions" error={errors.divisions} />
      </fieldset>
    </fieldset>
  );
}
