import { ZCreateUser, ZUpdateUser, type TApiError, type TCreateUser, type TUpdateUser, type TUser } from '../../../contract';

/** The Add User form's fields, in the order they are shown (and focused when invalid). */
export const ADD_USER_FIELDS = ['email', 'firstName', 'lastName', 'role'] as const;
export type TAddUserField = (typeof ADD_USER_FIELDS)[number];

/** What the inputs hold: text, '' when empty (the role select with no choice yet is ''). */
export type AddUserFormValues = Record<TAddUserField, string>;
export type AddUserFieldErrors = Partial<Record<TAddUserField, string>>;

export const EMPTY_ADD_USER_FORM: AddUserFormValues = { email: '', firstName: '', lastName: '', role: '' };

const isAddUserField = (value: string): value is TAddUserField => (ADD_USER_FIELDS as readonly string[]).includes(value);

export type AddUserValidation = { ok: true; user: TCreateUser } | { ok: false; errors: AddUserFieldErrors };

/** Checks the form with the contract's ZCreateUser (the server checks the same), one message per field. */
export function validateAddUser(values: AddUserFormValues): AddUserValidation {
  const result = ZCreateUser.safeParse({
    email: values.email,
    firstName: values.firstName,
    lastName: values.lastName,
    // An empty select is a missing role, which the contract words as 'Role is required'.
    role: values.role === '' ? undefined : values.role,
  });
  if (result.success) return { ok: true, user: result.data };
  const errors: AddUserFieldErrors = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? '');
    if (isAddUserField(field) && !errors[field]) errors[field] = issue.message;
  }
  return { ok: false, errors };
}

/**
 * A refused POST or PATCH /api/users as a form shows it: each detail next to its field (`details[].path`
 * is 'body.email', 'email'…), so a 409 on a taken e-mail lands on the e-mail field; whatever has no field
 * becomes one form message.
 */
export function serverUserErrors<F extends string>(
  body: TApiError | undefined,
  fields: readonly F[],
  fallback: string,
): { fields: Partial<Record<F, string>>; message: string | null } {
  const placed: Partial<Record<F, string>> = {};
  const unplaced: string[] = [];
  const isField = (value: string): value is F => (fields as readonly string[]).includes(value);
  for (const detail of body?.details ?? []) {
    const field = detail.path.split(/[./]/).reverse().find(isField);
    if (field && !placed[field]) placed[field] = detail.message;
    else if (!field) unplaced.push(detail.path ? `${detail.path}: ${detail.message}` : detail.message);
  }
  if (Object.keys(placed).length > 0 && unplaced.length === 0) return { fields: placed, message: null };
  const message = body?.message ?? fallback;
  return { fields: placed, message: unplaced.length > 0 ? `${message} (${unplaced.join('; ')})` : message };
}

/** The first field with an error, in form order: where focus goes after a failed submit. */
export const firstInvalidAddUserField = (errors: AddUserFieldErrors): TAddUserField | undefined =>
  ADD_USER_FIELDS.find((field) => errors[field] !== undefined);

/** The edit dialog's choices. */
export type EditUserValues = Pick<TUser, 'role' | 'status'>;

/** The PATCH body for what the edit dialog changed, checked with ZUpdateUser; null when nothing changed. */
export function userChanges(user: EditUserValues, values: EditUserValues): TUpdateUser | null {
  const patch: TUpdateUser = {};
  if (values.role !== user.role) patch.role = values.role;
  if (values.status !== user.status) patch.status = values.status;
  const result = ZUpdateUser.safeParse(patch);
  return result.success ? result.data : null;
}
