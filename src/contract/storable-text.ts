import { z } from 'zod';

/**
 * Text PostgreSQL cannot keep in a text or jsonb column: the NUL character (refused outright) and a lone
 * UTF-16 surrogate (half of a character, which has no UTF-8 form; a JSON string can still spell it as
 * "\ud800"). In `u` mode `\p{Cs}` matches only a surrogate that is not part of a pair.
 */
const NUL = '\u0000';
const LONE_SURROGATE = /\p{Cs}/u;
const LONE_SURROGATES = /\p{Cs}/gu;

export const UNSTORABLE_TEXT_MESSAGE = 'contains characters that cannot be stored (a NUL byte or a broken character)';
export const UNSTORABLE_NAME_MESSAGE = 'has a field name that contains characters that cannot be stored (a NUL byte or a broken character)';

/** Where bad text sits: `path` is the value's place; `inName` says the bad text is a field name inside it. */
export type UnstorableText = { path: Array<string | number>; inName: boolean };

export function isStorableText(text: string): boolean {
  return !text.includes(NUL) && !LONE_SURROGATE.test(text);
}

/**
 * The first string (or object key) in `value` that the database cannot store, depth first in document order,
 * or undefined when every string is fine. Walks plain objects and arrays with its own stack, so a deeply
 * nested body cannot exhaust the call stack.
 */
export function findUnstorableText(value: unknown): UnstorableText | undefined {
  // Each entry points at its parent's path instead of copying it, so deep nesting costs no more than wide.
  type Place = { key: string | number; parent: Place } | null;
  type Entry = { value: unknown; place: Place };
  const pathOf = (place: Place): Array<string | number> => {
    const path: Array<string | number> = [];
    for (let at = place; at !== null; at = at.parent) path.push(at.key);
    return path.reverse();
  };
  const stack: Entry[] = [{ value, place: null }];
  while (stack.length > 0) {
    const { value: current, place } = stack.pop() as Entry;
    if (typeof current === 'string') {
      if (!isStorableText(current)) return { path: pathOf(place), inName: false };
      continue;
    }
    if (typeof current !== 'object' || current === null) continue;
    const children: Entry[] = [];
    if (Array.isArray(current)) {
      current.forEach((item: unknown, index) => children.push({ value: item, place: { key: index, parent: place } }));
    } else {
      for (const [key, item] of Object.entries(current)) {
        if (!isStorableText(key)) return { path: pathOf(place), inName: true };
        children.push({ value: item, place: { key, parent: place } });
      }
    }
    // Pushed last-first, so the first child is looked at first; one by one, as a spread of a long array could overflow.
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i] as Entry);
  }
  return undefined;
}

/**
 * The text with NUL characters removed and each lone surrogate replaced by U+FFFD, the mark for a
 * character that could not be read. For text nobody can be asked to send again (an e-mail's headers).
 */
export function toStorableText(text: string): string {
  return text.replaceAll(NUL, '').replace(LONE_SURROGATES, '\uFFFD');
}

/**
 * `schema`, refusing first any input holding text the database cannot store, with one issue at that field.
 * The check runs before the schema, so a field the schema would transform or drop is judged as sent.
 */
export function refuseUnstorableText<T extends z.core.$ZodType>(schema: T) {
  return z
    .unknown()
    .superRefine((value, context) => {
      const found = findUnstorableText(value);
      if (!found) return;
      context.addIssue({
        code: 'custom',
        path: found.path,
        message: found.inName ? UNSTORABLE_NAME_MESSAGE : UNSTORABLE_TEXT_MESSAGE,
        input: value,
      });
    })
    .pipe(schema);
}
