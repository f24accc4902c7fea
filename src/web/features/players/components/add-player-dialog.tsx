import { UserPlus } from 'lucide-react';
import type { ComponentProps, FormEvent } from 'react';
import type { TDivision } from '../../../../contract';
import { FormDialog } from '@/components/form-dialog';
import { FormDialogFooter, FormError, FormField } from '@/components/form-field';
import { SeasonSelect } from '@/components/season-select';
import { Input } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { getErrorMessage, isApiError } from '@/lib/api-client';
import { lastFirst } from '@/lib/format';
import { currentSeason } from '@/lib/seasons';
import { useSeasons } from '@/lib/seasons-query';
import { toast } from '@/lib/toast-store';
import { useFieldForm } from '@/lib/use-field-form';
import {
  ADD_PLAYER_DIVISIONS,
  EMPTY_ADD_PLAYER_FORM,
  firstInvalidField,
  serverAddPlayerErrors,
  validateAddPlayer,
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
  const seasons = useSeasons();
  const createPlayer = useCreatePlayer();
  const { id, values, errors, setErrors, formError, setFormError, formRef, fieldId, focusField, setValue } =
    useFieldForm<TAddPlayerField>(EMPTY_ADD_PLAYER_FORM);

  // The season defaults to the current one once the seasons are known.
  const season = values.season || (seasons.data ? (currentSeason(seasons.data.seasons)?.id ?? '') : '');

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
      <FormError message={formError} id={`${id}-form-error`} testId="add-player-error" />
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

/** Add Player: POST /api/players, checked first with the contract's ZCreatePlayer. */
export function AddPlayerDialog() {
  return (
    <FormDialog
      icon={UserPlus}
      title="Add Player"
      description="Register a player for a season. Fields marked * are required."
      className="max-w-xl"
      testId="add-player-dialog"
    >
      {(close) => <AddPlayerForm onDone={close} />}
    </FormDialog>
  );
}
