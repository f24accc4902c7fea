import type { ComponentProps } from 'react';
import { DIVISIONS, MAX_USER_EMAIL_LENGTH, MAX_USER_NAME_LENGTH, type TDivision, type TUserRole } from '../../../../contract';
import { FormField } from '@/components/form-field';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { RadioCard, RadioGroup, RadioGroupItem } from '@/components/ui/radio-group';
import { ALL_DIVISIONS_LABEL, ROLE_DESCRIPTIONS, ROLE_LABELS } from '@/lib/access-text';
import type { DivisionChoice, TUserFormField, TUserTextField, UserFieldErrors, UserFormText } from '../user-form';

/** From the fewest rights to the most, so each line can say what the role adds. */
const ROLES_IN_ORDER: readonly TUserRole[] = ['viewer', 'moderator', 'admin'];

const LABELS: Record<TUserTextField, string> = { email: 'E-mail', firstName: 'First name', lastName: 'Last name', role: 'Role' };

/**
 * Focuses a field after a failed submit: the input itself, or for a group (role, divisions) its first control
 * that takes focus (the checked radio button, or the first).
 */
export function focusUserField(form: HTMLFormElement | null, id: string): void {
  requestAnimationFrame(() => {
    const element = form?.querySelector<HTMLElement>(`#${CSS.escape(id)}`);
    if (!element) return;
    const target = element.matches('input, button, select, textarea')
      ? element
      : element.querySelector<HTMLElement>('[role="radio"][tabindex="0"], [role="radio"], input, button');
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

/** The role as three choices, each with a line on what it may do. */
function RoleField({ id, value, error, onChange }: { id: string; value: string; error: string | undefined; onChange: (role: string) => void }) {
  return (
    <div className="flex flex-col gap-2">
      <span id={`${id}-label`} className="flex items-center gap-2 text-sm leading-none font-medium">
        {LABELS.role}
        <span className="text-destructive-soft-foreground" aria-hidden="true">
          *
        </span>
      </span>
      <RadioGroup
        id={id}
        value={value}
        onValueChange={onChange}
        aria-labelledby={`${id}-label`}
        aria-required
        aria-invalid={error !== undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className="gap-2"
      >
        {ROLES_IN_ORDER.map((role) => (
          <RadioCard key={role} id={`${id}-${role}`} value={role} label={ROLE_LABELS[role]} description={ROLE_DESCRIPTIONS[role]} />
        ))}
      </RadioGroup>
      <ErrorText id={`${id}-error`} name="role" error={error} />
    </div>
  );
}

/** All divisions, or only the ones ticked. */
function DivisionsField({ id, value, error, onChange }: { id: string; value: DivisionChoice; error: string | undefined; onChange: (choice: DivisionChoice) => void }) {
  const toggle = (division: TDivision, checked: boolean) =>
    onChange({ all: false, picked: checked ? [...value.picked, division] : value.picked.filter((picked) => picked !== division) });
  return (
    <fieldset className="flex min-w-0 flex-col gap-2" aria-describedby={error ? `${id}-error` : `${id}-hint`}>
      <legend className="mb-2 text-sm leading-none font-medium">Divisions</legend>
      <p id={`${id}-hint`} className="text-xs text-muted-foreground">
        Limit what they see (lists, reports, files and live updates) to some divisions, or let them see all.
      </p>
      <RadioGroup
        id={id}
        value={value.all ? 'all' : 'some'}
        onValueChange={(next) => onChange(next === 'all' ? { all: true, picked: [] } : { all: false, picked: value.picked })}
        aria-label="Divisions"
        className="flex flex-wrap gap-x-6 gap-y-2"
      >
        <Label className="font-normal">
          <RadioGroupItem value="all" />
          {ALL_DIVISIONS_LABEL}
        </Label>
        <Label className="font-normal">
          <RadioGroupItem value="some" />
          Only some divisions
        </Label>
      </RadioGroup>
      {value.all ? null : (
        <div role="group" aria-label="Divisions to include" className="flex flex-wrap gap-x-5 gap-y-2 rounded-md border p-3" data-testid="division-checkboxes">
          {DIVISIONS.map((division) => (
            <Label key={division} className="font-normal">
              <Checkbox checked={value.picked.includes(division)} onCheckedChange={(checked) => toggle(division, checked === true)} />
              {division}
            </Label>
          ))}
        </div>
      )}
      <ErrorText id={`${id}-error`} name="divisions" error={error} />
    </fieldset>
  );
}

/** E-mail, names, role and divisions: the fields of Invite User and Edit User. */
export function UserFields({
  legend,
  disabled,
  values,
  errors,
  fieldId,
  onTextChange,
  divisions,
  onDivisionsChange,
}: {
  /** Names the group for screen readers ('New user', or the person's name). */
  legend: string;
  /** While the form is being sent. */
  disabled: boolean;
  values: UserFormText;
  errors: UserFieldErrors;
  fieldId: (field: TUserFormField) => string;
  onTextChange: (field: TUserTextField, value: string) => void;
  divisions: DivisionChoice;
  onDivisionsChange: (choice: DivisionChoice) => void;
}) {
  const text = (field: Exclude<TUserTextField, 'role'>, props: ComponentProps<'input'>) => (
    <FormField name={field} label={LABELS[field]} required id={fieldId(field)} error={errors[field]}>
      {(control) => <Input {...control} {...props} value={values[field]} onChange={(event) => onTextChange(field, event.target.value)} />}
    </FormField>
  );
  return (
    <fieldset className="grid gap-4 sm:grid-cols-2" disabled={disabled}>
      <legend className="sr-only">{legend}</legend>
      <div className="sm:col-span-2">
        {text('email', { type: 'email', autoComplete: 'off', spellCheck: false, maxLength: MAX_USER_EMAIL_LENGTH, placeholder: 'name@example.org' })}
      </div>
      {text('firstName', { autoComplete: 'off', maxLength: MAX_USER_NAME_LENGTH })}
      {text('lastName', { autoComplete: 'off', maxLength: MAX_USER_NAME_LENGTH })}
      <div className="sm:col-span-2">
        <RoleField id={fieldId('role')} value={values.role} error={errors.role} onChange={(role) => onTextChange('role', role)} />
      </div>
      <div className="sm:col-span-2">
        <DivisionsField id={fieldId('divisions')} value={divisions} error={errors.divisions} onChange={onDivisionsChange} />
      </div>
    </fieldset>
  );
}
