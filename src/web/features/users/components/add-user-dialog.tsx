import { UserPlus } from 'lucide-react';
import type { ComponentProps, FormEvent } from 'react';
import { MAX_USER_EMAIL_LENGTH, MAX_USER_NAME_LENGTH, USER_ROLES } from '../../../../contract';
import { FormDialog } from '@/components/form-dialog';
import { FormDialogFooter, FormError, FormField } from '@/components/form-field';
import { Input } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { getErrorMessage, isApiError } from '@/lib/api-client';
import { toast } from '@/lib/toast-store';
import { useFieldForm } from '@/lib/use-field-form';
import { useCreateUser } from '../api';
import { USER_ROLE_LABELS, userFullName } from '../user-display';
import {
  ADD_USER_FIELDS,
  EMPTY_ADD_USER_FORM,
  firstInvalidAddUserField,
  serverUserErrors,
  validateAddUser,
  type TAddUserField,
} from '../user-form';

const LABELS: Record<TAddUserField, string> = { email: 'E-mail', firstName: 'First name', lastName: 'Last name', role: 'Role' };

function AddUserForm({ onDone }: { onDone: () => void }) {
  const createUser = useCreateUser();
  const { id, values, errors, setErrors, formError, setFormError, formRef, fieldId, focusField, setValue } =
    useFieldForm<TAddUserField>(EMPTY_ADD_USER_FORM);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    const checked = validateAddUser(values);
    if (!checked.ok) {
      setErrors(checked.errors);
      focusField(firstInvalidAddUserField(checked.errors));
      return;
    }
    setErrors({});
    createUser.mutate(checked.user, {
      onSuccess: ({ user }) => {
        toast({ title: 'User added', description: `${userFullName(user)} (${user.email}) was added as ${USER_ROLE_LABELS[user.role]}.` });
        onDone();
      },
      onError: (error) => {
        const fallback = getErrorMessage(error, 'The user could not be added. Please try again.');
        const { fields, message } = serverUserErrors(isApiError(error) ? error.body : undefined, ADD_USER_FIELDS, fallback);
        setErrors(fields);
        setFormError(message);
        focusField(firstInvalidAddUserField(fields));
        toast({ variant: 'destructive', title: 'User not added', description: message ?? fallback });
      },
    });
  }

  const text = (field: TAddUserField, props: ComponentProps<'input'>) => (
    <FormField name={field} label={LABELS[field]} required id={fieldId(field)} error={errors[field]}>
      {(control) => <Input {...control} {...props} value={values[field]} onChange={(event) => setValue(field, event.target.value)} />}
    </FormField>
  );

  return (
    <form ref={formRef} onSubmit={submit} noValidate className="flex flex-col gap-6" aria-describedby={formError ? `${id}-form-error` : undefined}>
      <FormError message={formError} id={`${id}-form-error`} testId="add-user-error" />
      <fieldset className="grid gap-4 sm:grid-cols-2" disabled={createUser.isPending}>
        <legend className="sr-only">User</legend>
        <div className="sm:col-span-2">{text('email', { type: 'email', autoComplete: 'off', spellCheck: false, maxLength: MAX_USER_EMAIL_LENGTH, placeholder: 'name@example.org' })}</div>
        {text('firstName', { autoComplete: 'off', maxLength: MAX_USER_NAME_LENGTH })}
        {text('lastName', { autoComplete: 'off', maxLength: MAX_USER_NAME_LENGTH })}
        <FormField name="role" label={LABELS.role} required id={fieldId('role')} error={errors.role}>
          {(control) => (
            <Select value={values.role} onValueChange={(value) => setValue('role', value)}>
              <SelectTrigger {...control}>
                <SelectValue placeholder="Select a role" />
              </SelectTrigger>
              <SelectContent>
                {USER_ROLES.map((role) => (
                  <SelectItem key={role} value={role}>
                    {USER_ROLE_LABELS[role]}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          )}
        </FormField>
      </fieldset>
      <FormDialogFooter pending={createUser.isPending} icon={UserPlus} label="Create User" pendingLabel="Creating…" />
    </form>
  );
}

/** Add User: e-mail, first name, last name and role; POST /api/users, checked first with ZCreateUser. */
export function AddUserDialog() {
  return (
    <FormDialog
      icon={UserPlus}
      title="Add User"
      description="Give a member of staff an account. New users start as active. All fields are required."
      className="max-w-lg"
      testId="add-user-dialog"
    >
      {(close) => <AddUserForm onDone={close} />}
    </FormDialog>
  );
}
