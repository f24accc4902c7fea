import { Send, UserPlus } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import type { TUserCreated } from '../../../../contract';
import { FormDialogFooter, FormError } from '@/components/form-field';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { getErrorMessage, isApiError } from '@/lib/api-client';
import { toast } from '@/lib/toast-store';
import { useFieldForm } from '@/lib/use-field-form';
import { useCreateUser } from '../api';
import { userFullName } from '../user-display';
import {
  ALL_DIVISIONS,
  EMPTY_USER_FORM,
  firstInvalidUserField,
  serverUserErrors,
  USER_FORM_FIELDS,
  validateUserForm,
  type DivisionChoice,
  type TUserFormField,
} from '../user-form';
import { InvitationLinkPanel } from './invitation-link-panel';
import { focusUserField, UserFields } from './user-fields';

function InviteUserForm({ onInvited }: { onInvited: (created: TUserCreated) => void }) {
  const createUser = useCreateUser();
  const { id, values, errors, setErrors, formError, setFormError, formRef, fieldId, setValue } = useFieldForm<TUserFormField>({
    ...EMPTY_USER_FORM,
    divisions: '',
  });
  const [divisions, setDivisions] = useState<DivisionChoice>(ALL_DIVISIONS);
  const focusField = (field: TUserFormField | undefined) => field && focusUserField(formRef.current, fieldId(field));

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
    createUser.mutate(checked.user, {
      onSuccess: onInvited,
      onError: (error) => {
        const fallback = getErrorMessage(error, 'The user could not be invited. Please try again.');
        const { fields, message } = serverUserErrors(isApiError(error) ? error.body : undefined, USER_FORM_FIELDS, fallback);
        setErrors(fields);
        setFormError(message);
        focusField(firstInvalidUserField(fields));
        toast({ variant: 'destructive', title: 'User not invited', description: message ?? fallback });
      },
    });
  }

  return (
    <form ref={formRef} onSubmit={submit} noValidate className="flex flex-col gap-6" aria-describedby={formError ? `${id}-form-error` : undefined}>
      <FormError message={formError} id={`${id}-form-error`} testId="invite-user-error" />
      <UserFields
        legend="New user"
        disabled={createUser.isPending}
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
      <FormDialogFooter pending={createUser.isPending} icon={Send} label="Send Invitation" pendingLabel="Inviting…" />
    </form>
  );
}

/**
 * Invite User: e-mail, names, role and divisions (POST /api/users, checked first with ZCreateUser); then the
 * invitation link, to copy, and whether it was e-mailed.
 */
export function InviteUserDialog() {
  const [open, setOpen] = useState(false);
  const [created, setCreated] = useState<TUserCreated | null>(null);

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setCreated(null);
      }}
    >
      <DialogTrigger asChild>
        <Button>
          <UserPlus aria-hidden="true" />
          Invite User
        </Button>
      </DialogTrigger>
      <DialogContent className="max-w-lg" data-testid="invite-user-dialog">
        <DialogHeader>
          <DialogTitle>{created ? 'Invitation ready' : 'Invite User'}</DialogTitle>
          <DialogDescription>
            {created
              ? `${userFullName(created.user)} chooses a password with this link, then signs in with their e-mail.`
              : 'They get a link to choose their password. Their account is pending until they do. All fields are required.'}
          </DialogDescription>
        </DialogHeader>
        {!open ? null : created ? (
          <InvitationLinkPanel
            heading={`Invitation for ${created.user.email}`}
            email={created.user.email}
            invitation={created.invitation}
            emailed={created.emailed}
          />
        ) : (
          <InviteUserForm
            onInvited={(result) => {
              setCreated(result);
              toast({ title: 'User invited', description: `${userFullName(result.user)} (${result.user.email}) was invited.` });
            }}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}
