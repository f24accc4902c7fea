import { DIVISIONS, ZCreatePlayer, type TApiError, type TCreatePlayer, type TDivision } from '../../../contract';

/** The Add Player form's fields, in the order they are shown (and focused when invalid). */
export const ADD_PLAYER_FIELDS = [
  'firstName',
  'lastName',
  'birthDate',
  'season',
  'division',
  'guardianName',
  'guardianEmail',
  'guardianPhone',
] as const;
export type TAddPlayerField = (typeof ADD_PLAYER_FIELDS)[number];

/** What the inputs hold: text, '' when empty (a select with no choice yet is ''). */
export type AddPlayerFormValues = Record<TAddPlayerField, string>;
export type AddPlayerFieldErrors = Partial<Record<TAddPlayerField, string>>;

export const EMPTY_ADD_PLAYER_FORM: AddPlayerFormValues = {
  firstName: '',
  lastName: '',
  birthDate: '',
  season: '',
  division: '',
  guardianName: '',
  guardianEmail: '',
  guardianPhone: '',
};

/** The divisions a player can be registered in: the filter's three, plus TEST and Peewee. */
export const ADD_PLAYER_DIVISIONS: readonly TDivision[] = DIVISIONS;

/** Messages for an empty required choice, which the contract words as a bad value rather than a missing one. */
const REQUIRED_MESSAGES: Partial<Record<TAddPlayerField, string>> = {
  birthDate: 'Birth date is required',
  division: 'Division is required',
};

const isAddPlayerField = (value: string): value is TAddPlayerField => (ADD_PLAYER_FIELDS as readonly string[]).includes(value);

export type AddPlayerValidation = { ok: true; player: TCreatePlayer } | { ok: false; errors: AddPlayerFieldErrors };

/** Checks the form with the contract's own schema (the server checks the same), one message per field. */
export function validateAddPlayer(values: AddPlayerFormValues): AddPlayerValidation {
  const optional = (value: string) => (value.trim() === '' ? undefined : value);
  const result = ZCreatePlayer.safeParse({
    firstName: values.firstName,
    lastName: values.lastName,
    birthDate: values.birthDate,
    season: values.season,
    division: values.division,
    guardianName: optional(values.guardianName),
    guardianEmail: optional(values.guardianEmail),
    guardianPhone: optional(values.guardianPhone),
  });
  if (result.success) return { ok: true, player: result.data };
  const errors: AddPlayerFieldErrors = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? '');
    if (!isAddPlayerField(field) || errors[field]) continue;
    const required = REQUIRED_MESSAGES[field];
    errors[field] = required && values[field].trim() === '' ? required : issue.message;
  }
  return { ok: false, errors };
}

/**
 * A rejected POST /api/players as the form shows it: field messages next to their fields
 * (`details[].path` may be 'firstName' or 'body.firstName'), anything else as one form message.
 */
export function serverAddPlayerErrors(body: TApiError | undefined, fallback: string): { fields: AddPlayerFieldErrors; message: string | null } {
  const fields: AddPlayerFieldErrors = {};
  const unplaced: string[] = [];
  for (const detail of body?.details ?? []) {
    const field = detail.path.split(/[./]/).reverse().find(isAddPlayerField);
    if (field && !fields[field]) fields[field] = detail.message;
    else if (!field) unplaced.push(detail.path ? `${detail.path}: ${detail.message}` : detail.message);
  }
  const placed = Object.keys(fields).length > 0;
  if (placed && unplaced.length === 0) return { fields, message: null };
  const message = body?.message ?? fallback;
  return { fields, message: unplaced.length > 0 ? `${message} (${unplaced.join('; ')})` : message };
}

/** The first field with an error, in form order: where focus goes after a failed submit. */
export const firstInvalidField = (errors: AddPlayerFieldErrors): TAddPlayerField | undefined =>
  ADD_PLAYER_FIELDS.find((field) => errors[field] !== undefined);
