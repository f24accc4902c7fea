/** What the subject line of an e-mail says about the player, read only from clear patterns. */
import { isWholeDate } from './mail-dates';
import { hasKnownKey, readKeyValues, type Field, type FoundValues } from './mail-key-values';
import { cleanText } from './mail-text';
import { NAME_WORD, parseDivision, stripQualifiers } from './mail-values';

/** Enough for any subject a parent writes; past that, reading costs time and finds nothing. */
const MAX_SUBJECT_CHARACTERS = 1_000;

/** Reply and forward prefixes in the languages parents' mail programs use, and "[External]"-style tags. */
const SUBJECT_PREFIX = /^(?:\s*(?:(?:re|fwd?|aw|wg|sv|vs|tr|rv|enc|antw|r)(?:\[\d+\])?\s*[:：]|\[[^\]]{0,30}\]))+\s*/i;

/** Words that say a subject is about registration documents; a name is only read next to one of them. */
const ANCHOR =
  /\b(?:registration|register(?:ing|ed)?|sign[- ]?ups?|enrol(?:l)?ments?|documents?|docs|forms?|paperwork|papers|files|attachments?|birth cert(?:ificate)?s?|certificates?|medical|physicals?|waivers?|residency|proof of (?:residence|residency|address))\b/i;

/** Title-case words that are not names, so "Registration - Payment Issue" gives no player. */
const NOT_NAME_WORDS = new Set(
  (
    'a an and are at about all by for from here hi hello dear in is it of on or our my his her their the this that to with you your ' +
    'son daughter child children kid kids boy girl player players team teams coach league club baseball softball tryout tryouts ' +
    'payment payments fee fees issue issues question questions help update updated info information request reminder schedule ' +
    'confirmation receipt invoice missing new urgent important please thanks thank attached copy copies scan scanned scans photo ' +
    'photos picture pictures image images page pages signed complete completed final follow up season spring summer fall autumn ' +
    'winter ball division practice game games uniform jersey refund proof address birth certificate'
  ).split(' '),
);
/** Lowercase words inside a name ("Ana de la Cruz", "Jan van der Berg"). */
const NAME_PARTICLES = new Set(['van', 'von', 'der', 'den', 'de', 'del', 'della', 'da', 'di', 'du', 'dos', 'das', 'la', 'le', 'bin', 'al', 'el', 'ter', 'ten']);

/**
 * A name in a subject must look like one: two to four words of letters, each starting with a capital in
 * scripts that have capitals (CJK and Arabic have none), no digits, none of NOT_NAME_WORDS. "Doe, Jane"
 * counts as two words.
 */
function isNameLike(text: string): boolean {
  const words = text.replace(/\s*,\s*/, ' ').split(' ');
  if (words.length < 2 || words.length > 4) return false;
  return words.every((word, position) => {
    if (!NAME_WORD.test(word)) return false;
    const folded = word.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
    if (NOT_NAME_WORDS.has(folded.replace(/['’]s$/, ''))) return false;
    const initial = word[0] ?? '';
    const cased = initial.toUpperCase() !== initial.toLowerCase();
    return !cased || initial === initial.toUpperCase() || (position > 0 && NAME_PARTICLES.has(word));
  });
}

/**
 * What the subject says. `Key: value` pairs first ("Player: Jane Doe, DOB: 2015-03-02"), then, when they
 * name no player, only these clear patterns, each needing a registration or document word (ANCHOR) and a
 * name-like player (isNameLike):
 * - "… for Jane Doe": "Documents for Jane Doe", "Birth certificate for Jane Doe (AA)";
 * - "Jane Doe's …": "Jane Doe's birth certificate";
 * - parts split by " - ", " | " or ": ", one of them anchored and exactly one a name:
 *   "Registration - Jane Doe - AA", "Jane Doe | Medical form", "Registration: Doe, Jane".
 * Two name-like parts ("Eagles Travel - Jane Doe - Registration") are no answer. With a pattern, a part
 * or qualifier that is a division or a date is read too ("Registration - Jane Doe - AA - 03/02/2015").
 * Anywhere in the subject: "(AA)", "AA Division", "Division AA" and a season's name ("Fall Ball 2025").
 */
export function readSubject(subject: string | null): FoundValues {
  const text = bareSubject(subject).trim();
  const parts = text.split(/\s+[-–—|]\s+|\s*\|\s*/).map((part) => part.trim()).filter((part) => part !== '');
  const found = readKeyValues(parts.join('\n'));
  const add = (field: Field, value: string) => {
    if (!found[field]) found[field] = [value];
  };

  const unkeyed = parts.filter((part) => !hasKnownKey(part)).flatMap((part) => part.split(/[:：]\s+/));
  const qualifiers = unkeyed.flatMap((part) => (parseDivision(part).ok || isWholeDate(part) ? [part] : []));
  if (!found.name && !found.firstName && !found.lastName) {
    const anchored = unkeyed.some((part) => ANCHOR.test(part));
    const names = new Map<string, string[]>();
    for (const part of unkeyed) {
      const forName = /^(.+)\s+for\s+(.+)$/i.exec(part);
      const possessive = /^(.+?)['’]s\s+(.+)$/.exec(part);
      const candidate =
        forName?.[1] && forName[2] && ANCHOR.test(forName[1]) ? forName[2]
        : possessive?.[1] && possessive[2] && ANCHOR.test(possessive[2]) ? possessive[1]
        : anchored && !ANCHOR.test(part) ? part
        : null;
      if (candidate === null) continue;
      const stripped = stripQualifiers(candidate);
      if (isNameLike(stripped.rest)) names.set(stripped.rest, stripped.qualifiers);
    }
    const [only, ...others] = [...names];
    if (!only || others.length > 0) return withSubjectPhrases(text, found, add);
    add('name', only[0]);
    qualifiers.push(...only[1]);
  }
  for (const qualifier of qualifiers) {
    if (parseDivision(qualifier).ok) add('division', qualifier);
    else if (isWholeDate(qualifier)) add('birthDate', qualifier);
  }
  return withSubjectPhrases(text, found, add);
}

/** "(AA)", "AA Division", "Division AA" and a season's name, wherever they are in the subject. */
function withSubjectPhrases(text: string, found: FoundValues, add: (field: Field, value: string) => void): FoundValues {
  const division = /\(\s*([a-z]{1,4}|pee[\s-]?wees?)\s*\)|\b(aaa|aa|a|test|pee[\s-]?wees?)\s+division\b|\bdivision\s+(aaa|aa|a|test|pee[\s-]?wees?)\b/i.exec(text);
  const divisionText = division?.[1] ?? division?.[2] ?? division?.[3];
  // "a division" is an article, not the A division.
  if (divisionText && divisionText !== 'a' && parseDivision(divisionText).ok) add('division', divisionText);
  const season = /\b(?:(?:spring|summer|fall|autumn|winter)(?:\s+ball)?\s*[-–]?\s*\d{4}|\d{4}\s+(?:spring|summer|fall|autumn|winter)(?:\s+ball)?)\b/i.exec(text);
  if (season) add('season', season[0]);
  return found;
}

/** The subject as one line of clean text, without Re:/Fwd: prefixes and tags. */
export function bareSubject(subject: string | null): string {
  return cleanText((subject ?? '').slice(0, MAX_SUBJECT_CHARACTERS)).replace(/\s+/g, ' ').replace(SUBJECT_PREFIX, '');
}
