import { UserPlus } from 'lucide-react';
import { useId, useRef, useState, type ComponentProps, type FormEvent } from 'react';
import type { TDivision } from '../../../../contract';
import { Button } from '@/components/ui/button';
import { FormDialogFooter, FormField } from '@/components/form-field';
import { SeasonSelect } from '@/components/season-select';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { getErrorMessage, isApiError } from '@/lib/api-client';
import { lastFirst } from '@/lib/format';
import { currentSeason } from '@/lib/seasons';
import { useSeasons } from '@/lib/seasons-query';
import { toast } from '@/lib/toast-store';
import {
  ADD_PLAYER_DIVISIONS,
  EMPTY_ADD_PLAYER_FORM,
  firstInvalidField,
  serverAddPlayerErrors,
  validateAddPlayer,
  type AddPlayerFieldErrors,
  type AddPlayerFormValues,
  type TAddPlayerField,
} from '../add-player-form';
import { useCreatePlayer } from '../api';

const LABELS: Record<TAddPlayerField, string> = {
  firstName: 'First name',
  lastName: 'Last name',
  birthDate: 'Birth date',
  season: 'Season',
  division: 'Division',
  guardianName: 'Guardian name',
  guardianEmail: 'Guardian e-mail',
  guardianPhone: 'Guardian phone',
};

const REQUIRED = new Set<TAddPlayerField>(['firstName', 'lastName', 'birthDate', 'season', 'division']);

function AddPlayerForm({ onDone }: { onDone: () => void }) {
  const id = useId();
  const seasons = useSeasons();
  const createPlayer = useCreatePlayer();
  const [values, setValues] = useState<AddPlayerFormValues>(EMPTY_ADD_PLAYER_FORM);
  const [errors, setErrors] = useState<AddPlayerFieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);

  // The season defaults to the current one once the seasons are known.
  const season = values.season || (seasons.data ? (currentSeason(seasons.data.seasons)?.id ?? '') : '');
  const fieldId = (field: TAddPlayerField) => `${id}-${field}`;

  const focusField = (field: TAddPlayerField | undefined) => {
    if (!field) return;
    // After React has shown the error (aria-invalid) so the reader announces it with the field.
    requestAnimationFrame(() => formRef.current?.querySelector<HTMLElement>(`#${CSS.escape(fieldId(field))}`)?.focus());
  };

  const setValue = (field: TAddPlayerField, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    // A field's message goes once it is edited; it is checked again on submit.
    setErrors((current) => (current[field] ? { ...current, [field]: undefined } : current));
  };

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    const checked = validateAddPlayer({ ...values, season });
    if (!checked.ok) {
      setErrors(checked.errors);
      focusField(firstInvalidField(checked.errors));
      return;
    }
    setErrors({});
    createPlayer.mutate(checked.player, {
      onSuccess: ({ player }) => {
        toast({ title: 'Player added', description: `${lastFirst(player.firstName, player.lastName)} · ${player.playerId}` });
        onDone();
      },
      onError: (error) => {
        const fallback = getErrorMessage(error, 'The player could not be added. Please try again.');
        const { fields, message } = serverAddPlayerErrors(isApiError(error) ? error.body : undefined, fallback);
        setErrors(fields);
        setFormError(message);
        focusField(firstInvalidField(fields));
      },
    });
  }

  const text = (field: TAddPlayerField, props: ComponentProps<'input'> = {}) => (
    <FormField name={field} label={LABELS[field]} required={REQUIRED.has(field)} id={fieldId(field)} error={errors[field]}>
      {(control) => <Input {...control} {...props} value={values[field]} onChange={(event) => setValue(field, event.target.value)} />}
    </FormField>
  );

  const today = new Date().toISOString().slice(0, 10);
  return (
    <form ref={formRef} onSubmit={submit} noValidate className="flex flex-col gap-6" aria-describedby={formError ? `${id}-form-error` : undefined}>
      {formError ? (
        <p id={`${id}-form-error`} role="alert" className="rounded-md bg-destructive-soft px-3 py-2 text-sm break-words text-destructive-soft-foreground" data-testid="add-player-error">
          {formError}
        </p>
      ) : null}
      <fieldset className="grid gap-4 sm:grid-cols-2" disabled={createPlayer.isPending}>
        <legend className="sr-only">Player</legend>
        {text('firstName', { autoComplete: 'off' })}
        {text('lastName', { autoComplete: 'off' })}
        {text('birthDate', { type: 'date', min: '1990-01-01', max: today })}
        <FormField name="season" label={LABELS.season} required id={fieldId('season')} error={errors.season}>
          {(control) => <SeasonSelect {...control} value={season || undefined} onValueChange={(value) => setValue('season', value)} />}
        </FormField>
        <FormField name="division" label={LABELS.division} required id={fieldId('division')} error={errors.division}>
          {(control) => (
            <Select value={values.division} onValueChange={(value) => setValue('division', value)}>
              <SelectTrigger {...control}>
                <SelectValue placeholder="Select a division" />
              </SelectTrigger>
              <SelectContent>
                {ADD_PLAYER_DIVISIONS.map((division: TDivision) => (
                  <SelectItem key={division} value={division}>
                    {division}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          )}
        </FormField>
      </fieldset>
      <fieldset className="grid gap-4 sm:grid-cols-2" disabled={createPlayer.isPending}>
        <legend className="mb-3 text-sm font-semibold">Guardian (optional)</legend>
        {text('guardianName', { autoComplete: 'off' })}
        {text('guardianEmail', { type: 'email', autoComplete: 'off' })}
        {text('guardianPhone', { type: 'tel', autoComplete: 'off' })}
      </fieldset>
      <FormDialogFooter pending={createPlayer.isPending} icon={UserPlus} label="Add Player" pendingLabel="Adding…" />
    </form>
  );
}

/** Spec §2 'Add Player': POST /api/players, checked first with the contract's ZCreatePlayer. */
export function AddPlayerDialog() {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button>
          <UserPlus aria-hidden="true" />
          Add Player
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-xl" data-testid="add-player-dialog">
        <DialogHeader>
          <DialogTitle>Add Player</DialogTitle>
          <DialogDescription>Register a player for a season. Fields marked * are required.</DialogDescription>
        </DialogHeader>
        {/* Mounted only while open, so every opening starts from an empty form. */}
        {open ? <AddPlayerForm onDone={() => setOpen(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}
