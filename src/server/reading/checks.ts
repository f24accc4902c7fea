import { DOC_TYPE_LABELS, MEDICAL_EXAM_VALID_MONTHS, type TDocType, type TReadingCheck } from '../../contract';
import { dayInWords } from '../players';
import { editDistance } from './dates';
import type { ReadingChecks, RegistrationFacts } from './types';

/**
 * What a reviewer should look at twice, from the facts reading found and the registration. A check on a correct
 * document costs a volunteer a doubt and the family a needless question, so each check is raised only when the
 * facts clearly disagree: a fact that was not found, or could be the same one misread, raises nothing.
 */
export const readingChecks: ReadingChecks = (input) => {
  if (!input.readable) return [{ kind: 'unreadable', message: 'This is too blurred or dark to read; ask the family for a better photo.' }];
  const checks: TReadingCheck[] = [];
  const { extracted, declaredType, registration } = input;

  if (extracted.docType && declaredType && extracted.docType !== declaredType) {
    checks.push({
      kind: 'type_mismatch',
      message: `This reads as ${withArticle(DOC_TYPE_LABELS[extracted.docType])}, but it was sent as ${withArticle(DOC_TYPE_LABELS[declaredType])}.`,
    });
  }

  const dob = extracted.dateOfBirth;
  if (dob && !sameBirthDate(dob, registration.birthDate)) {
    checks.push({
      kind: 'dob_mismatch',
      message: `The ${documentNoun(extracted.docType ?? declaredType)} shows ${dayInWords(dob)} but the registration says ${dayInWords(registration.birthDate)}.`,
    });
  }

  // A residency proof names the parent who holds the bill or the lease, not the child.
  const aboutTheChild = extracted.docType !== 'residency' && declaredType !== 'residency';
  if (aboutTheChild && extracted.fullName && isDifferentPerson(extracted.fullName, registration, extracted.confidence)) {
    checks.push({
      kind: 'name_mismatch',
      message: `The name on the document, ${extracted.fullName}, is not the registered player's, ${registration.firstName} ${registration.lastName}.`,
    });
  }

  const isMedical = (extracted.docType ?? declaredType) === 'medical';
  if (isMedical && extracted.documentDate && isExamExpired(extracted.documentDate, input.today)) {
    checks.push({
      kind: 'expired',
      message: `The exam was on ${dayInWords(extracted.documentDate)}, more than ${MEDICAL_EXAM_VALID_MONTHS} months ago.`,
    });
  }
  return checks;
};

/** Fewer characters than this is not a document's text (a stamp, a page number, OCR of noise). */
const MIN_READABLE_CHARACTERS = 40;
/** OCR's mean word confidence below which its words are mostly guesses. */
const MIN_READABLE_CONFIDENCE = 0.45;

/** Whether enough text came out to judge the document: too little text, or text OCR was unsure of, is not. */
export function isReadable(read: { text: string; confidence: number | null }): boolean {
  const letters = read.text.replace(/[^\p{L}\p{N}]/gu, '').length;
  if (letters < MIN_READABLE_CHARACTERS) return false;
  return read.confidence === null || read.confidence >= MIN_READABLE_CONFIDENCE;
}

function withArticle(label: string): string {
  const lower = label.toLowerCase();
  return /^[aeiou]/.test(lower) ? `an ${lower}` : `a ${lower}`;
}

const DOCUMENT_NOUNS: Record<TDocType, string> = {
  birth_certificate: 'certificate',
  medical: 'medical form',
  residency: 'document',
  waiver: 'waiver',
};

function documentNoun(docType: TDocType | null): string {
  return docType ? DOCUMENT_NOUNS[docType] : 'document';
}

/**
 * The same date, or the same numbers with day and month swapped: 03/04/2016 is the 4th of March to an American
 * form and the 3rd of April to a European one, and reading cannot tell which the document meant.
 */
function sameBirthDate(found: string, registered: string): boolean {
  if (found === registered) return true;
  const [year, month, day] = found.split('-');
  return Number(day) <= 12 && `${year}-${day}-${month}` === registered;
}

function isExamExpired(examDate: string, today: string): boolean {
  const [year, month, day] = examDate.split('-').map(Number);
  if (!year || !month || !day) return false;
  const limit = new Date(Date.UTC(year, month - 1 + MEDICAL_EXAM_VALID_MONTHS, day));
  // An exam on 31 Jan plus a month lands in early March in Date's arithmetic; count it as the end of February.
  if (limit.getUTCDate() !== day) limit.setUTCDate(0);
  return today > limit.toISOString().slice(0, 10);
}

// ---------------------------------------------------------------------------------------------------------------
// Names.

/** Confidence of OCR above which its letters are taken as printed: a PDF's own text is 1. */
const EXACT_TEXT_CONFIDENCE = 0.97;

/** Letters OCR commonly takes for one another; a slip between them is tolerated even in confident text. */
const OCR_CONFUSIONS: ReadonlyArray<readonly [string, string]> = [
  ['l', 'i'],
  ['l', 't'],
  ['i', 'j'],
  ['e', 'c'],
  ['e', 'o'],
  ['c', 'o'],
  ['a', 'o'],
  ['a', 'e'],
  ['n', 'h'],
  ['n', 'r'],
  ['u', 'v'],
  ['v', 'y'],
  ['g', 'q'],
  ['b', 'h'],
  ['f', 't'],
  ['m', 'n'],
];

/**
 * Whether the printed name is clearly someone else. Case, accents, hyphens, apostrophes, extra middle names or
 * initials and the order of first and last names do not matter, nor one letter OCR commonly mistakes (any one
 * letter when the text is OCR's rather than a PDF's own). The first name must match a word of the printed name
 * (or its initial), and one word of the last name must too.
 */
export function isDifferentPerson(printed: string, registration: RegistrationFacts, confidence: number | null): boolean {
  const words = nameWords(printed);
  // Too little to judge from: a single word, or letters that are mostly noise.
  if (words.filter((word) => word.length >= 2).length < 2) return false;
  const first = nameWords(registration.firstName);
  const last = nameWords(registration.lastName);
  if (first.length === 0 || last.length === 0) return false;
  const looseOcr = confidence !== null && confidence < EXACT_TEXT_CONFIDENCE;
  const matches = (wanted: string) => words.some((word) => sameWord(word, wanted, looseOcr));
  const joinedLast = last.join('');
  // A name cut short at its end (a seal or a fold over the last letters) is not another person's.
  const finalWord = words.at(-1) ?? '';
  const cutShort = finalWord.length >= 3 && last.some((word) => word.startsWith(finalWord));
  const lastMatches = last.some(matches) || matches(joinedLast) || words.join('').includes(joinedLast) || cutShort;
  const firstMatches = first.some(matches) || words.some((word) => word.length === 1 && first.some((name) => name.startsWith(word)));
  return !(lastMatches && firstMatches);
}

/** Lowercase words without accents; hyphens and apostrophes join the parts ("o'connor" → "oconnor"). */
function nameWords(name: string): string[] {
  return name
    .normalize('NFKD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/['’`]/g, '')
    .split(/[^a-z]+/)
    .filter((word) => word.length > 0);
}

function sameWord(word: string, wanted: string, looseOcr: boolean): boolean {
  if (word === wanted) return true;
  if (word.length < 3 || wanted.length < 3) return false;
  if (word.length === wanted.length && oneConfusion(word, wanted)) return true;
  if (looseOcr && wanted.length >= 4 && editDistance(word, wanted) <= (wanted.length >= 8 ? 2 : 1)) return true;
  // OCR lost the space or the full stop before an initial: "ANAE" for "ANA E.".
  if (looseOcr && word.length === wanted.length + 1 && word.startsWith(wanted)) return true;
  // Two letters read for one: "rn" for "m", "fi" for "ñ" (whose accent is gone by now, so "n").
  const fold = (text: string) => text.replace(/rn/g, 'm').replace(/fi/g, 'n');
  return fold(word) === fold(wanted);
}

function oneConfusion(a: string, b: string): boolean {
  let differences = 0;
  for (let i = 0; i < a.length; i += 1) {
    const x = a.charAt(i);
    const y = b.charAt(i);
    if (x === y) continue;
    differences += 1;
    if (differences > 1) return false;
    if (!OCR_CONFUSIONS.some(([p, q]) => (p === x && q === y) || (p === y && q === x))) return false;
  }
  return differences <= 1;
}
