import type { TDocType, TExtracted } from '../../contract';
import { editDistance, findDates, type FoundDate } from './dates';

/**
 * The facts a reviewer checks, found in a document's text: which of the four documents it is, the child's name,
 * the date of birth and the date the document bears. Text comes from a PDF's own layer or from OCR of a scan or a
 * photo, so labels may be garbled by a letter, and a value may sit beside its label or on the line below (forms
 * and tables). Each fact is null unless it is found where a label says it is: a missing fact raises no check, a
 * wrong one raises a false one.
 */
export function extractFacts(read: { text: string; confidence: number | null }): TExtracted {
  const lines = read.text.split(/\r?\n/).map(toLine);
  const docType = detectContentType(read.text);
  return {
    docType,
    fullName: findChildName(lines, docType),
    dateOfBirth: findLabeledDate(lines, DOB_LABELS),
    documentDate: findDocumentDate(lines, docType),
    confidence: read.confidence,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The type, from the words the document uses.

type Cue = { phrase: string; weight: number };

/**
 * Phrases each document uses, weighted by how surely they name it. A document mentions others ("emergency
 * medical treatment" in a waiver, "parent/guardian signature" on a medical form), so the type is the one with
 * clearly the most weight, not merely the first found.
 */
const TYPE_CUES: Record<TDocType, readonly Cue[]> = {
  birth_certificate: [
    { phrase: 'certificate of live birth', weight: 6 },
    { phrase: 'certificate of birth', weight: 5 },
    { phrase: 'birth certificate', weight: 5 },
    { phrase: 'live birth', weight: 2 },
    { phrase: 'registrar', weight: 2 },
    { phrase: 'place of birth', weight: 3 },
    { phrase: 'time of birth', weight: 3 },
    { phrase: 'maiden name', weight: 3 },
    { phrase: 'vital records', weight: 3 },
    { phrase: 'vital statistics', weight: 3 },
    { phrase: 'state file number', weight: 3 },
    { phrase: 'certified copy', weight: 2 },
    { phrase: 'county of birth', weight: 3 },
    { phrase: 'father', weight: 1 },
    { phrase: 'mother', weight: 1 },
  ],
  medical: [
    { phrase: 'physical examination', weight: 5 },
    { phrase: 'pre participation', weight: 5 },
    { phrase: 'preparticipation', weight: 5 },
    { phrase: 'sports physical', weight: 5 },
    { phrase: 'physician', weight: 2 },
    { phrase: 'medical', weight: 2 },
    { phrase: 'immunization', weight: 3 },
    { phrase: 'examination date', weight: 3 },
    { phrase: 'date of exam', weight: 3 },
    { phrase: 'cleared for', weight: 3 },
    { phrase: 'blood pressure', weight: 3 },
    { phrase: 'pulse', weight: 2 },
    { phrase: 'height', weight: 1 },
    { phrase: 'weight', weight: 1 },
    { phrase: 'vision', weight: 1 },
    { phrase: 'allergies', weight: 1 },
    { phrase: 'health care provider', weight: 3 },
    { phrase: 'examiner', weight: 2 },
    { phrase: 'patient', weight: 2 },
    { phrase: 'clinic', weight: 1 },
  ],
  residency: [
    { phrase: 'utility', weight: 3 },
    { phrase: 'statement date', weight: 3 },
    { phrase: 'service address', weight: 4 },
    { phrase: 'account number', weight: 2 },
    { phrase: 'amount due', weight: 3 },
    { phrase: 'due date', weight: 2 },
    { phrase: 'billing', weight: 2 },
    { phrase: 'lease', weight: 3 },
    { phrase: 'landlord', weight: 3 },
    { phrase: 'tenant', weight: 3 },
    { phrase: 'bank statement', weight: 5 },
    { phrase: 'proof of residence', weight: 5 },
    { phrase: 'proof of residency', weight: 5 },
    { phrase: 'proof of address', weight: 5 },
    { phrase: 'resides at', weight: 4 },
    { phrase: 'residence', weight: 1 },
    { phrase: 'enrollment', weight: 2 },
    { phrase: 'enrolled', weight: 2 },
    { phrase: 'kwh', weight: 3 },
    { phrase: 'electric', weight: 2 },
    { phrase: 'balance', weight: 1 },
    { phrase: 'customer', weight: 1 },
    { phrase: 'mailing address', weight: 1 },
  ],
  waiver: [
    { phrase: 'waiver', weight: 5 },
    { phrase: 'release of liability', weight: 5 },
    { phrase: 'liability', weight: 2 },
    { phrase: 'assumption of risk', weight: 5 },
    { phrase: 'hold harmless', weight: 5 },
    { phrase: 'indemnify', weight: 3 },
    { phrase: 'waive', weight: 3 },
    { phrase: 'guardian signature', weight: 1 },
    { phrase: 'risks', weight: 1 },
    { phrase: 'injury', weight: 1 },
    { phrase: 'release', weight: 1 },
  ],
};

/** No more than this many occurrences of one phrase count: a repeated footer is not more evidence. */
const MAX_CUE_COUNT = 2;
/** The winner needs this much weight, and this many times its runner-up's. */
const MIN_TYPE_SCORE = 5;
const MIN_TYPE_LEAD = 1.6;

/** The type the content clearly says, or null when it says none or two about equally. */
export function detectContentType(text: string): TDocType | null {
  const words = ` ${toKey(text)} `;
  const scores = (Object.keys(TYPE_CUES) as TDocType[]).map((docType) => {
    let score = 0;
    for (const cue of TYPE_CUES[docType]) {
      const count = countOccurrences(words, ` ${cue.phrase} `);
      score += Math.min(count, MAX_CUE_COUNT) * cue.weight;
    }
    return { docType, score };
  });
  scores.sort((a, b) => b.score - a.score);
  const [first, second] = scores;
  if (!first || first.score < MIN_TYPE_SCORE) return null;
  if (second && first.score < second.score * MIN_TYPE_LEAD) return null;
  return first.docType;
}

function countOccurrences(haystack: string, needle: string): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length - 1)) count += 1;
  return count;
}

// ---------------------------------------------------------------------------------------------------------------
// Lines, words and labels.

type Word = { key: string; start: number; end: number };
type Line = { text: string; words: Word[] };

/** Lowercase ASCII letters and digits in words: accents, apostrophes and punctuation do not matter to a label. */
function toKey(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/['’`]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

function toLine(text: string): Line {
  const words: Word[] = [];
  for (const match of text.matchAll(/[\p{L}\p{N}'’`]+/gu)) {
    const key = toKey(match[0]);
    if (key) words.push({ key: key.replace(/ /g, ''), start: match.index, end: match.index + match[0].length });
  }
  return { text, words };
}

/** A label: its words as toKey writes them; `generic` labels count only where no specific one was found. */
type Label = { words: string[]; generic?: true };
type LabelHit = { label: Label; line: number; start: number; end: number; firstWord: number };

const label = (phrase: string, generic?: true): Label => ({ words: phrase.split(' '), ...(generic ? { generic } : {}) });

/**
 * Whether the words starting at `at` spell the label, allowing OCR one slip in a label of five letters or more
 * (two in one of twelve or more), and two of its words run together.
 */
function matchLabelAt(words: Word[], at: number, wanted: Label): number {
  const target = wanted.words.join('');
  const slips = target.length >= 12 ? 2 : target.length >= 5 ? 1 : 0;
  for (const span of [wanted.words.length, wanted.words.length - 1, wanted.words.length + 1]) {
    if (span < 1 || at + span > words.length) continue;
    const joined = words
      .slice(at, at + span)
      .map((w) => w.key)
      .join('');
    if (Math.abs(joined.length - target.length) > slips) continue;
    if (joined === target || (slips > 0 && editDistance(joined, target) <= slips)) return span;
  }
  return 0;
}

function findLabels(lines: Line[], labels: readonly Label[]): LabelHit[] {
  const hits: LabelHit[] = [];
  lines.forEach((line, lineIndex) => {
    for (let at = 0; at < line.words.length; at += 1) {
      for (const wanted of labels) {
        const span = matchLabelAt(line.words, at, wanted);
        if (span === 0) continue;
        const first = line.words[at];
        const last = line.words[at + span - 1];
        if (first && last) hits.push({ label: wanted, line: lineIndex, start: first.start, end: last.end, firstWord: at });
        at += span - 1;
        break;
      }
    }
  });
  return hits;
}

/** The words just before a hit on its line, as keys. */
function wordsBefore(line: Line, hit: LabelHit, count: number): string[] {
  return line.words.slice(Math.max(0, hit.firstWord - count), hit.firstWord).map((w) => w.key);
}

// ---------------------------------------------------------------------------------------------------------------
// Dates beside or below a label.

const DOB_LABELS: readonly Label[] = [
  label('date of birth of child'),
  label('childs date of birth'),
  label('date of birth'),
  label('birth date'),
  label('birthdate'),
  label('dob'),
  label('d o b'),
  label('born on'),
  label('born'),
];

/** Another person's date of birth (the mother's on a birth certificate, a guardian's on a waiver). */
const OTHER_PEOPLE = new Set(['mother', 'mothers', 'father', 'fathers', 'parent', 'parents', 'guardian', 'guardians', 'physician', 'physicians', 'examiner', 'doctor', 'doctors', 'spouse', 'tenant', 'tenants', 'landlord', 'landlords']);

/** Every date label of every kind, so one label's value stops where the next label starts. */
const DOCUMENT_DATE_LABELS: Record<TDocType, readonly Label[]> = {
  medical: [
    label('date of examination'),
    label('examination date'),
    label('date of exam'),
    label('exam date'),
    label('date of physical'),
    label('physical date'),
    label('date of evaluation'),
  ],
  residency: [
    label('statement date'),
    label('bill date'),
    label('billing date'),
    label('date issued'),
    label('issue date'),
    label('date of issue'),
    label('letter date'),
    label('date', true),
  ],
  waiver: [label('date signed'), label('signed on'), label('date of signature'), label('date', true)],
  birth_certificate: [
    label('date issued'),
    label('issue date'),
    label('date of issue'),
    label('date filed'),
    label('date registered'),
    label('date of registration'),
  ],
};

/** Words before a bare "Date" that make it another date: a bill's due date, a service period's end. */
const NOT_THE_DOCUMENT_DATE = new Set(['due', 'start', 'end', 'service', 'expiration', 'expiry', 'read', 'payment', 'move', 'birth', 'lease', 'from', 'to']);

const ALL_DATE_LABELS: readonly Label[] = [...DOB_LABELS, ...Object.values(DOCUMENT_DATE_LABELS).flat()];

function findDocumentDate(lines: Line[], docType: TDocType | null): string | null {
  if (!docType) return null;
  const labeled = findLabeledDate(lines, DOCUMENT_DATE_LABELS[docType]);
  if (labeled || docType !== 'residency') return labeled;
  // A letter is dated at its head, on a line of its own.
  for (const line of lines.slice(0, 15)) {
    const dates = findDates(line.text);
    const [only] = dates;
    if (dates.length === 1 && only && line.text.trim().length <= only.end - only.index + 4) return only.iso;
  }
  return null;
}

function findLabeledDate(lines: Line[], labels: readonly Label[]): string | null {
  const hits = findLabels(lines, labels).filter((hit) => {
    const line = lines[hit.line];
    if (!line) return false;
    // Only the word just before: in a row of headings, the one before that belongs to the previous column.
    const before = wordsBefore(line, hit, 1);
    if (before.some((word) => OTHER_PEOPLE.has(word))) return false;
    if (hit.label.generic && before.some((word) => NOT_THE_DOCUMENT_DATE.has(word))) return false;
    const next = line.words[hit.firstWord + hit.label.words.length];
    // "Date of birth" is not a bare "Date".
    if (hit.label.generic && next && ['of', 'due', 'range'].includes(next.key)) return false;
    return true;
  });
  const ordered = [...hits.filter((hit) => !hit.label.generic), ...hits.filter((hit) => hit.label.generic)];
  const dateLabelsByLine = new Map<number, LabelHit[]>();
  for (const hit of ordered) {
    const found = dateAfterLabel(lines, hit, dateLabelsByLine);
    if (found) return found;
  }
  return null;
}

/**
 * The date beside the label (before the next label on that line), else the one below it: in a row of labels
 * over a row of values, the value in the same place as the label is in its row.
 */
function dateAfterLabel(lines: Line[], hit: LabelHit, cache: Map<number, LabelHit[]>): string | null {
  const line = lines[hit.line];
  if (!line) return null;
  let rowLabels = cache.get(hit.line);
  if (!rowLabels) {
    rowLabels = findLabels([line], ALL_DATE_LABELS).sort((a, b) => a.start - b.start);
    cache.set(hit.line, rowLabels);
  }
  const nextLabel = rowLabels.find((other) => other.start >= hit.end);
  const beside = line.text.slice(hit.end, nextLabel?.start ?? line.text.length);
  const besideDate = findDates(beside)[0];
  // "Date of birth (mm/dd/yyyy): 12/09/2014": a hint may stand between label and value, not a sentence.
  if (besideDate) return beside.slice(0, besideDate.index).replace(/[^\p{L}\p{N}]/gu, '').length <= 40 ? besideDate.iso : null;
  // Below only when nothing but other column headings sits beside the label; "State file number 2014-0012345"
  // is a value, and the date two lines down is another field's.
  if (/\d/.test(beside) || beside.split(/\s+/).filter((word) => /\p{L}/u.test(word)).length > 4) return null;
  const rank = rowLabels.filter((other) => other.end <= hit.start).length;
  for (const below of lines.slice(hit.line + 1, hit.line + 3)) {
    if (below.text.trim() === '') continue;
    const dates: FoundDate[] = findDates(below.text);
    if (dates.length === 0) continue;
    return (dates[rank] ?? (rank === 0 ? dates[0] : undefined))?.iso ?? null;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------------------------
// The child's name.

const CHILD_NAME_LABELS: readonly Label[] = [
  label('full name of child'),
  label('childs full name'),
  label('name of child'),
  label('childs name'),
  label('child name'),
  label('name of participant'),
  label('participants name'),
  label('participant name'),
  label('participant'),
  label('name of player'),
  label('players name'),
  label('player name'),
  label('name of patient'),
  label('patients name'),
  label('patient name'),
  label('name of student'),
  label('students name'),
  label('student name'),
  label('athletes name'),
  label('athlete name'),
  label('full name', true),
  label('name', true),
];

/** Labels of other people's names, so a child's name is never read from them. */
const OTHER_NAME_WORDS = new Set([
  ...OTHER_PEOPLE,
  'maiden',
  'printed',
  'print',
  'registrar',
  'account',
  'customer',
  'holder',
  'witness',
  'signer',
  'clinic',
  'practice',
  'school',
  'league',
  'team',
  'emergency',
  'contact',
  'insurance',
  'provider',
]);

/** Words that end a name: the next label, a sex or a column heading read into the same line. */
const NOT_NAME_WORDS = new Set([
  'date', 'dob', 'sex', 'male', 'female', 'age', 'grade', 'birth', 'born', 'signature', 'signed', 'address', 'phone',
  'place', 'time', 'county', 'city', 'state', 'weight', 'height', 'gender', 'mother', 'father', 'parent', 'guardian',
  'the', 'and', 'of', 'is', 'was', 'has', 'at', 'on', 'in', 'for', 'who', 'team', 'division', 'name', 'id', 'number',
  'agreement', 'form', 'waiver', 'release', 'information', 'consent', 'section', 'certificate', 'record', 'history',
  'medical', 'physical', 'examination', 'exam', 'league', 'club', 'program', 'statement', 'account', 'signature',
  'print', 'printed', 'sign', 'here', 'initials', 'none', 'yes', 'no', 'first', 'last', 'middle', 'mr', 'mrs', 'ms',
]);

/** Particles that stay lowercase inside a name. */
const NAME_PARTICLES = new Set(['de', 'da', 'del', 'della', 'der', 'den', 'van', 'von', 'dos', 'das', 'du', 'le', 'la', 'y', 'bin', 'al', 'di']);

function findChildName(lines: Line[], docType: TDocType | null): string | null {
  const hits = findLabels(lines, CHILD_NAME_LABELS).filter((hit) => {
    const line = lines[hit.line];
    if (!line) return false;
    const before = wordsBefore(line, hit, 1);
    if (before.some((word) => OTHER_NAME_WORDS.has(word))) return false;
    // A bare "Name" is a label only where a field starts: at the start of a line, or after "Full"/"Legal".
    if (hit.label.generic && hit.firstWord > 0 && !['full', 'legal'].includes(before.at(-1) ?? '')) return false;
    return true;
  });
  // A residency proof names the parent who holds the account or the lease; only a school's letter names the child.
  const usable = docType === 'residency' ? hits.filter((hit) => hit.label.words.some((word) => word.startsWith('student'))) : hits;
  const ordered = [...usable.filter((hit) => !hit.label.generic), ...usable.filter((hit) => hit.label.generic)];
  for (const hit of ordered) {
    const line = lines[hit.line];
    if (!line) continue;
    const rowLabels = findLabels([line], ALL_FIELD_LABELS).sort((a, b) => a.start - b.start);
    const nextLabel = rowLabels.find((other) => other.start >= hit.end);
    const besideText = line.text.slice(hit.end, nextLabel?.start ?? line.text.length);
    const beside = readName(besideText);
    if (beside) return beside;
    // The label heads a column or a box: the name is on the line below, in the same place in its row.
    if (besideText.replace(/[^\p{L}\p{N}]/gu, '').length > 3) continue;
    const rank = rowLabels.filter((other) => other.end <= hit.start).length;
    const below = lines.slice(hit.line + 1, hit.line + 3).find((candidate) => candidate.text.trim() !== '');
    const name = below ? readNameInColumn(below.text, rank) : null;
    if (name) return name;
  }
  return null;
}

/** Every field's label, with the column headings a form puts beside them, so a row of headings can be counted. */
const ALL_FIELD_LABELS: readonly Label[] = [
  ...ALL_DATE_LABELS,
  ...CHILD_NAME_LABELS,
  ...['sex', 'gender', 'state file number', 'file number', 'time of birth', 'place of birth', 'mothers maiden name', 'mothers name', 'fathers name', 'height', 'weight', 'division', 'team', 'grade', 'age'].map((phrase) => label(phrase)),
];

/** Values a column before the name's may hold, that are not a name: a sex, a yes or no. */
const SHORT_VALUES = new Set(['male', 'female', 'm', 'f', 'x', 'yes', 'no']);

/**
 * The name in the `rank`-th column of a row of values: the columns before it must hold values that are plainly
 * not names (numbers, dates, a sex), else the columns cannot be told apart and no name is read.
 */
function readNameInColumn(text: string, rank: number): string | null {
  if (rank === 0) return readName(text);
  const tokens = text.trim().split(/\s+/);
  for (let at = 1; at < tokens.length; at += 1) {
    const skipped = tokens[at - 1] ?? '';
    const plain = toKey(skipped).replace(/ /g, '');
    if (!/\d/.test(skipped) && !SHORT_VALUES.has(plain) && plain !== '') return null;
    const name = readName(tokens.slice(at).join(' '));
    if (name) return name;
  }
  return null;
}

/**
 * A person's name at the start of the text: two to six words that look like a name (capitalised, or particles
 * like "de"), allowing "Lopez, Ana" order, accents, hyphens and apostrophes. Digits OCR put in a word's middle are
 * read as the letters they stand for ("L0pez"). Null unless it is clearly a name.
 */
export function readName(value: string): string | null {
  const tokens = value.replace(/^[\s:;.\-_|=*>]+/, '').split(/\s+/);
  const kept: string[] = [];
  for (const raw of tokens) {
    if (raw === '') continue;
    const trailing = /[,;:|]+$/.exec(raw)?.[0] ?? '';
    const token = raw.slice(0, raw.length - trailing.length).replace(/(\p{L})0(?=\p{L})/gu, '$1o').replace(/(\p{L})1(?=\p{L})/gu, '$1l');
    const isWord = /^\p{L}[\p{L}'’.-]*$/u.test(token) && !/[.-]{2}/.test(token);
    if (!isWord) break;
    const key = toKey(token).replace(/ /g, '');
    if (NOT_NAME_WORDS.has(key)) break;
    const capitalised = /^\p{Lu}/u.test(token);
    if (!capitalised && !NAME_PARTICLES.has(key)) break;
    kept.push(token.replace(/\.$/, token.length <= 2 ? '.' : ''));
    if (trailing.includes(',') && kept.length === 1) {
      kept[0] = `${kept[0]},`;
      continue;
    }
    if (trailing !== '' && !trailing.includes(',')) break;
    if (kept.length === 6) break;
  }
  // A trailing particle or lone letter is the next column (a sex, a box) read into the same line.
  while (kept.length > 0 && (NAME_PARTICLES.has(toKey(kept.at(-1) ?? '')) || toKey(kept.at(-1) ?? '').length < 2)) kept.pop();
  const full = kept.filter((word) => toKey(word).replace(/ /g, '').length >= 2);
  if (full.length < 2) return null;
  return kept.join(' ').replace(/,$/, '');
}
