/** The words a value is shown with to a role the server hides it from. */
export const HIDDEN_FOR_ROLE_TEXT = 'Hidden — admins only';

/**
 * A value as a read-only screen shows it: the value, or the words saying it is hidden from this role. The
 * server leaves secrets out (absent or null) for roles that cannot configure them; an empty text is a value
 * that is simply not set, shown as `emptyText`.
 */
export function shownOrHidden(value: string | number | null | undefined, emptyText = 'Not set'): string {
  if (value === null || value === undefined) return HIDDEN_FOR_ROLE_TEXT;
  const text = String(value).trim();
  return text === '' ? emptyText : text;
}

/** A switch's position as words. */
export const onOffText = (on: boolean): string => (on ? 'On' : 'Off');
