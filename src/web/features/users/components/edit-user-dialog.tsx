import { Save } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { USER_ROLES, USER_STATUSES, type TUser } from '../../../../contract';
import { FormDialogFooter, FormError } from '@/components/form-field';
import { LabelledSelect } from '@/components/labelled-select';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { getErrorMessage, isApiError } from '@/lib/api-client';
import { toast } from '@/lib/toast-store';
import { useReturnFocus } from '@/lib/use-return-focus';
import { useUpdateUser } from '../api';
import { USER_ROLE_LABELS, USER_STATUS_LABELS, userFullName } from '../user-display';
import { userChanges, type EditUserValues } from '../user-form';

function EditUserForm({ user, onDone }: { user: TUser; onDone: () => void }) {
  const id = useId();
  const updateUser = useUpdateUser();
  const [values, setValues] = useState<EditUserValues>({ role: user.role, status: user.status });
  const [formError, setFormError] = useState<string | null>(null);
  const patch = userChanges(user, values);
  const name = userFullName(user);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!patch) return onDone();
    setFormError(null);
    updateUser.mutate(
      { id: user.id, patch },
      {
        onSuccess: ({ user: saved }) => {
          toast({ title: 'User updated', description: `${name} is now ${USER_ROLE_LABELS[saved.role]}, ${USER_STATUS_LABELS[saved.status].toLowerCase()}.` });
          onDone();
        },
        onError: (error) => {
          const message = getErrorMessage(error, 'The user could not be changed. Please try again.');
          toast({ variant: 'destructive', title: 'User not updated', description: message });
          // Gone meanwhile: nothing left to edit (the list refreshes without it).
          if (isApiError(error) && error.status === 404) onDone();
          else setFormError(message);
        },
      },
    );
  }

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-6">
      <FormError message={formError} />
      <fieldset className="grid gap-4 sm:grid-cols-2" disabled={updateUser.isPending}>
        <legend className="sr-only">Access of {name}</legend>
        <LabelledSelect
          id={`${id}-role`}
          label="Role"
          value={values.role}
          options={USER_ROLES}
          labels={USER_ROLE_LABELS}
          onChange={(role) => setValues((current) => ({ ...current, role }))}
        />
        <LabelledSelect
          id={`${id}-status`}
          label="Status"
          value={values.status}
          options={USER_STATUSES}
          labels={USER_STATUS_LABELS}
          onChange={(status) => setValues((current) => ({ ...current, status }))}
        />
      </fieldset>
      <FormDialogFooter pending={updateUser.isPending} disabled={!patch} icon={Save} label="Save Changes" />
    </form>
  );
}

/** Changes a user's role and status (PATCH /api/users/{id} with only what changed). */
export function EditUserDialog({ user, onOpenChange }: { user: TUser | null; onOpenChange: (open: boolean) => void }) {
  // Opened from a row's button, not a DialogTrigger: focus goes back to that button on close.
  const returnFocus = useReturnFocus();
  return (
    <Dialog open={user !== null} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-md" data-testid="edit-user-dialog" {...returnFocus}>
        {user ? (
          <>
            <DialogHeader>
              <DialogTitle>Edit User</DialogTitle>
              <DialogDescription>
                Change the role and status of {userFullName(user)}.
                <span className="mt-1 block break-words">{user.email}</span>
              </DialogDescription>
            </DialogHeader>
            <EditUserForm key={user.id} user={user} onDone={() => onOpenChange(false)} />
          </>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
