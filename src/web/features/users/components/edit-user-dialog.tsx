import { Save } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import type { TUser } from '../../../../contract';
import { FormDialogFooter, FormError } from '@/components/form-field';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { getErrorMessage, isApiError } from '@/lib/api-client';
import { toast } from '@/lib/toast-store';
import { useFieldForm } from '@/lib/use-field-form';
import { useReturnFocus } from '@/lib/use-return-focus';
import { useUpdateUser } from '../api';
import { userFullName } from '../user-display';
import {
  firstInvalidUserField,
  serverUserErrors,
  USER_FORM_FIELDS,
  userChanges,
  userFormFromUser,
  validateUserForm,
  type DivisionChoice,
  type TUserFormField,
} from '../user-form';
import { focusUserField, UserFields } from './user-fields';

function EditUserForm({ user, onDone }: { user: TUser; onDone: () => void }) {
  const updateUser = useUpdateUser();
  const [initial] = useState(() => userFormFromUser(user));
  const { id, values, errors, setErrors, formError, setFormError, formRef, fieldId, setValue } = useFieldForm<TUserFormField>({
    ...initial.text,
    divisions: '',
  });
  const [divisions, setDivisions] = useState<DivisionChoice>(initial.divisions);
  const focusField = (field: TUserFormField | undefined) => field && focusUserField(formRef.current, fieldId(field));
  const name = userFullName(user);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    const checked = validateUserForm(values, divisions);
    if (!checked.ok) {
      setErrors(checked.errors);
      focusField(firstInvalidUserField(checked.errors));
      return;
    }
    setErrors({});
    const patch = userChanges(user, checked.user);
    if (!patch) return onDone();
    updateUser.mutate(
      { id: user.id, patch },
      {
        onSuccess: ({ user: saved }) => {
          toast({ title: 'User updated', description: `${userFullName(saved)} was saved.` });
          onDone();
        },
        onError: (error) => {
          const fallback = getErrorMessage(error, 'The user could not be changed. Please try again.');
          toast({ variant: 'destructive', title: 'User not updated', description: fallback });
          // Gone meanwhile: nothing left to edit (the list refreshes without it).
          if (isApiError(error) && error.status === 404) return onDone();
          const { fields, message } = serverUserErrors(isApiError(error) ? error.body : undefined, USER_FORM_FIELDS, fallback);
          setErrors(fields);
          setFormError(message);
          focusField(firstInvalidUserField(fields));
        },
      },
    );
  }

  return (
    <form ref={formRef} onSubmit={submit} noValidate className="flex flex-col gap-6" aria-describedby={formError ? `${id}-form-error` : undefined}>
      <FormError message={formError} id={`${id}-form-error`} />
      <UserFields
        legend={name}
        disabled={updateUser.isPending}
        values={values}
        errors={errors}
        fieldId={fieldId}
        onTextChange={setValue}
        divisions={divisions}
        onDivisionsChange={(choice) => {
          setDivisions(choice);
          setErrors((current) => ({ ...current, divisions: undefined }));
        }}
      />
      <FormDialogFooter pending={updateUser.isPending} icon={Save} label="Save Changes" pendingLabel="Saving…" />
    </form>
  );
}

/** Changes a user's e-mail, names, role and divisions (PATCH /api/users/{id} with only what changed). */
export function EditUserDialog({ user, onOpenChange }: { user: TUser | null; onOpenChange: (open: boolean) => void }) {
  // Opened from a row's menu, not a DialogTrigger: focus goes back to the menu's button on close.
  const returnFocus = useReturnFocus();
  return (
    <Dialog open={user !== null} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-lg" data-testid="edit-user-dialog" {...returnFocus}>
        {user ? (
          <>
            <DialogHeader>
              <DialogTitle>Edit User</DialogTitle>
              <DialogDescription>
                Change the e-mail, name, role and divisions of {userFullName(user)}.
              </DialogDescription>
            </DialogHeader>
            <EditUserForm key={user.id} user={user} onDone={() => onOpenChange(false)} />
          </>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
