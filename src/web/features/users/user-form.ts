import { DIVISIONS, ZCreateUser, ZUpdateUser, type TApiError, type TDivision, type TUpdateUser, type TUser, type TUserRole } from '../../../contract';

/** The Invite and Edit forms' fields, in the order they are shown (and focused when invalid). */
export const USER_FORM_FIELDS = ['email', 'firstName', 'lastName', 'role', 'divisions'] as const;
export type TUserFormField = (typeof USER_FORM_FIELDS)[number];
/** The fields typed or picked as text ('' when empty; the role select with no choice yet is ''). */
export type TUserTextField = Exclude<TUserFormField, 'divisions'>;
export type UserFormText = Record<TUserTextField, string>;
export type UserFieldErrors = Partial<Record<TUserFormField, string>>;

/** Divisions: every one (stored as an empty list), or the ones picked. */
export interface DivisionChoice {
  all: boolean;
  picked: readonly TDivision[];
}

export const EMPTY_USER_FORM: UserFormText = { email: '', firstName: '', lastName: '', role: '' };
export const ALL_DIVISIONS: DivisionChoice = { all: true, picked: [] };
export const PICK_DIVISIONS_MESSAGE = 'Pick at least one division, or choose All divisions.';

/** A form that passed the contract's checks: what POST /api/users takes, and what PATCH compares against. */
export interface CheckedUser {
  email: string;
  firstName: string;
  lastName: string;
  role: TUserRole;
  divisions: TDivision[];
}

export type UserFormValidation = { ok: true; user: CheckedUser } | { ok: false; errors: UserFieldErrors };

const isFormField = (value: string): value is TUserFormField => (USER_FORM_FIELDS as readonly string[]).includes(value);

/** The divisions to send: [] for all, else the picked ones in the league's order. */
export const divisionsOf = (choice: DivisionChoice): TDivision[] => (choice.all ? [] : DIVISIONS.filter((division) => choice.picked.includes(division)));

/** Checks the form with the contract's ZCreateUser (the server checks the same), one message per field. */
export function validateUserForm(text: UserFormText, divisions: DivisionChoice): UserFormValidation {
  const result = ZCreateUser.safeParse({
    email: text.email,
    firstName: text.firstName,
    lastName: text.lastName,
    // An empty select is a missing role, which the contract words as 'Role is required'.
    role: text.role === '' ? undefined : text.role,
    divisions: divisionsOf(divisions),
  });
  const errors: UserFieldErrors = {};
  if (!result.success) {
    for (const issue of result.error.issues) {
      const field = String(issue.path[0] ?? '');
      if (isFormField(field) && !errors[field]) errors[field] = issue.message;
    }
  }
  if (!divisions.all && divisions.picked.length === 0) errors.divisions = PICK_DIVISIONS_MESSAGE;
  if (result.success && Object.keys(errors).length === 0) return { ok: true, user: result.data };
  return { ok: false, errors };
}

/** The form filled from a user, for Edit. */
export function userFormFromUser(user: TUser): { text: UserFormText; divisions: DivisionChoice } {
  return {
    text: { email: user.email, firstName: user.firstName, lastName: user.lastName, role: user.role },
    divisions: user.divisions.length === 0 ? ALL_DIVISIONS : { all: false, picked: user.divisions },
  };
}

const sameDivisions = (a: readonly TDivision[], b: readonly TDivision[]): boolean =>
  a.length === b.length && a.every((division) => b.includes(division));

/** The PATCH body for what Edit changed (checked with ZUpdateUser); null when nothing changed. */
export function userChanges(user: TUser, checked: CheckedUser): TUpdateUser | null {
  const patch: TUpdateUser = {};
  if (checked.email !== user.email) patch.email = checked.email;
  if (checked.firstName !== user.firstName) patch.firstName = checked.firstName;
  if (checked.lastName !== user.lastName) patch.lastName = checked.lastName;
  if (checked.role !== user.role) patch.role = checked.role;
  if (!sameDivisions(checked.divisions, user.divisions)) patch.divisions = checked.divisions;
  const result = ZUpdateUser.safeParse(patch);
  return result.success ? result.data : null;
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
export const firstInvalidUserField = (errors: UserFieldErrors): TUserFormField | undefined =>
  USER_FORM_FIELDS.find((field) => errors[field] !== undefined);
