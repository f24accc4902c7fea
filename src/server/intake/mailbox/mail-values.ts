/**
 * One value of a player field, read from the text a key or the subject gave it: names, divisions,
 * seasons, phone numbers, the guardian's name and the sender's address. A value that cannot be read
 * says why, in a sentence that quotes it safely.
 */
import { z } from 'zod';
import { DIVISIONS, type TDivision } from '../../../contract';

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };
export type PlayerName = { firstName: string; lastName: string };

const MAX_NAME_CHARACTERS = 100;
/** A word of a name in any script: letters and marks (Devanagari vowel signs …), apostrophes, hyphens, dots, joiners. */
export const NAME_WORD = /^[\p{L}\p{M}][\p{L}\p{M}'’.\-\u200C\u200D]*$/u;

/**
 * "Jane Doe" is first Jane, last Doe; every word after the first belongs to the last name ("Ana de la
 * Cruz" is Ana, "de la Cruz"). "Doe, Jane" is last, first. A trailing "(…)" or ", AA", " - Fall 2025"
 * qualifier is not part of the name. Names keep the case and script they were written in.
 */
export function parseName(raw: string): Parsed<PlayerName> {
  const value = stripQualifiers(raw)
    .rest.replace(/^["'“”‘’]+|["'“”‘’]+$/g, '')
    .trim()
    // The full stop that ends a sentence, not the one of "Jr." or an initial.
    .replace(/(\p{L}{3})\.$/u, '$1');
  const comma = value.split(',').map((part) => part.trim());
  if (comma.length > 2) return { ok: false, message: `Player name "${quote(raw)}" is not a first and last name` };
  const [first, last] =
    comma.length === 2 ? [comma[1] ?? '', comma[0] ?? ''] : [value.split(' ')[0] ?? '', value.split(' ').slice(1).join(' ')];
  return checkName(raw, first, last);
}

/** "First Name:" and "Last Name:" lines, when the mail gives the name that way. */
export function parseNameParts(first: string | undefined, last: string | undefined): Parsed<PlayerName> {
  if (!first) return { ok: false, message: 'No player first name found in the e-mail' };
  if (!last) return { ok: false, message: 'No player last name found in the e-mail' };
  return checkName(`${first} ${last}`, stripQualifiers(first).rest, stripQualifiers(last).rest);
}

function checkName(raw: string, firstName: string, lastName: string): Parsed<PlayerName> {
  if (firstName === '' || lastName === '') {
    return { ok: false, message: `Player name "${quote(raw)}" needs a first and a last name` };
  }
  const words = `${firstName} ${lastName}`.split(' ');
  if (!words.every((word) => NAME_WORD.test(word))) {
    return { ok: false, message: `Player name "${quote(raw)}" can only have letters, spaces, hyphens and apostrophes` };
  }
  if (firstName.length > MAX_NAME_CHARACTERS || lastName.length > MAX_NAME_CHARACTERS) {
    return { ok: false, message: `Player name "${quote(raw)}" is longer than ${MAX_NAME_CHARACTERS} characters` };
  }
  return { ok: true, value: { firstName, lastName } };
}

const DIVISION_WORDS: ReadonlyMap<string, TDivision> = new Map<string, TDivision>([
  ...DIVISIONS.map((division) => [division.toLowerCase(), division] as const),
  ['triplea', 'AAA'],
  ['doublea', 'AA'],
  ['singlea', 'A'],
  ['peewees', 'Peewee'],
]);

/** One of DIVISIONS in any case, spacing or hyphenation ("aa", "Pee-Wee", "Double A", "AA Division"). */
export function parseDivision(raw: string): Parsed<TDivision> {
  const key = raw
    .replace(/\([^)]*\)/g, ' ')
    .toLowerCase()
    .replace(/\bdiv(ision)?\b\.?/g, ' ')
    .replace(/[\s.'’-]+/g, '');
  const division = DIVISION_WORDS.get(key);
  if (division) return { ok: true, value: division };
  return { ok: false, message: `Division "${quote(raw)}" is not one of ${DIVISIONS.join(', ')}` };
}

/** 'Fall Ball 2025', 'fall 2025', '2025 Fall', 'Autumn 2025' → 'fall-2025', as season ids are spelled. */
const SEASON_NAME = /^(?:(spring|summer|fall|autumn|winter)(?:\s+ball)?\s*[-–]?\s*(\d{4})|(\d{4})\s*[-–]?\s*(spring|summer|fall|autumn|winter)(?:\s+ball)?)$/i;

/**
 * A year (that year's latest season), a season id, or a season's name, as ZFormFields takes them;
 * "current" or "this season" is the current season (null), as is no season at all.
 */
export function parseSeason(raw: string): Parsed<string | null> {
  const value = raw.trim().toLowerCase().replace(/\s+/g, ' ');
  if (/^(?:the )?(?:current|this)(?: season)?$/.test(value)) return { ok: true, value: null };
  if (/^\d{4}$/.test(value) || /^[a-z]+-\d{4}$/.test(value)) return { ok: true, value };
  const named = SEASON_NAME.exec(value);
  if (named) {
    const kind = (named[1] ?? named[4] ?? '').replace('autumn', 'fall');
    return { ok: true, value: `${kind}-${named[2] ?? named[3] ?? ''}` };
  }
  return { ok: false, message: `Season "${quote(raw)}" is not a year (2025) or a season such as Fall Ball 2025` };
}

/** A phone number as ZFormFields takes it; a label in parentheses ("(cell)") or after the number is dropped. */
export function parsePhone(raw: string): string | null {
  const value = raw
    .replace(/\([^)]*\p{L}[^)]*\)/gu, ' ')
    .replace(/[\p{L}:]+\.?\s*$/u, '')
    .replace(/\s+/g, ' ')
    .trim();
  const digits = value.replace(/\D/g, '').length;
  return /^[+0-9 ().-]{5,40}$/.test(value) && digits >= 7 ? value : null;
}

/** The guardian's name as written, without an address in angle brackets; too long or an address only is no name. */
export function parseGuardianName(raw: string): string | null {
  const value = raw.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ').trim();
  return value !== '' && value.length <= 200 && /\p{L}/u.test(value) && !value.includes('@') ? value : null;
}

/** The sender's address when it is one ZFormFields would accept; mailparser gives it bare. */
export function parseSenderAddress(raw: string | null): string | null {
  const address = (/<([^>]*)>/.exec(raw ?? '')?.[1] ?? raw ?? '').trim();
  return z.email().safeParse(address).success ? address : null;
}

/**
 * Division, season and date qualifiers written after a name: "Jane Doe (AA)", "Jane Doe, AA",
 * "Jane Doe - Fall 2025". Returns the name part and the qualifiers, which the subject reads too.
 */
export function stripQualifiers(raw: string): { rest: string; qualifiers: string[] } {
  const qualifiers: string[] = [];
  let rest = raw.replace(/\s+/g, ' ').trim();
  for (;;) {
    const bracket = /\s*\(([^()]*)\)\s*$/.exec(rest);
    if (bracket) {
      qualifiers.unshift(bracket[1]?.trim() ?? '');
      rest = rest.slice(0, bracket.index).trim();
      continue;
    }
    const tail = /(?:\s*,|\s+[-–—|])\s*([^,\-–—|]+)$/.exec(rest);
    if (tail?.[1] && isQualifier(tail[1])) {
      qualifiers.unshift(tail[1].trim());
      rest = rest.slice(0, tail.index).trim();
      continue;
    }
    return { rest: rest.replace(/[\s,;:!]+$/, ''), qualifiers };
  }
}

function isQualifier(text: string): boolean {
  return parseDivision(text).ok || SEASON_NAME.test(text.trim()) || /\d/.test(text);
}

/** A value echoed in a message: printable and short. */
export function quote(value: string): string {
  const printable = value.replace(/[\p{Cc}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069"]/gu, '').trim();
  return printable.length > 60 ? `${printable.slice(0, 60)}…` : printable;
}
