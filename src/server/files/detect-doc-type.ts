import { DOC_TYPE_LABELS, DOC_TYPES, type TDocType } from '../../contract';
import { sanitizeOriginalFilename } from './validate';

export type DocTypeDetection =
  | { docType: TDocType; source: 'declared' | 'filename' | 'text' }
  | {
      docType: null;
      /**
       * UNKNOWN_DECLARED_TYPE: the sender named a type we do not know; the intake should refuse it, since
       * guessing past an explicit answer would file a document under a type nobody chose.
       * UNDETECTED: nothing said which type it is; the document waits for a person to classify it.
       */
      code: 'UNKNOWN_DECLARED_TYPE' | 'UNDETECTED';
      reason: string;
    };

/**
 * Which of the four documents a file is, from the strongest evidence available: the type the
 * sender declared (a form field), then keywords in the file name, then keywords in the text (e-mail subject
 * and body, or text extracted from the file). A file name that points at two types is no evidence and
 * falls through to the text.
 */
export function detectDocType(input: { declared?: string | null; filename?: string | null; text?: string | null }): DocTypeDetection {
  const declared = input.declared?.trim();
  if (declared) {
    const docType = DECLARED_ALIASES.get(toWords(declared).trim());
    if (docType) return { docType, source: 'declared' };
    return { docType: null, code: 'UNKNOWN_DECLARED_TYPE', reason: `Unknown document type "${quote(declared)}"; expected ${EXPECTED}` };
  }

  if (input.filename) {
    const hits = countHits(toWords(sanitizeOriginalFilename(input.filename)), 'filename');
    const found = [...hits.keys()];
    if (found.length === 1 && found[0]) return { docType: found[0], source: 'filename' };
  }

  if (input.text) {
    const hits = countHits(toWords(input.text.slice(0, MAX_TEXT_CHARACTERS)), 'text');
    const ranked = [...hits.entries()].sort((a, b) => b[1] - a[1]);
    const [first, second] = ranked;
    // The text of one document mentions others ("a waiver must accompany the medical form"): the type
    // named most wins, and a tie is no answer.
    if (first && (!second || first[1] > second[1])) return { docType: first[0], source: 'text' };
  }

  return { docType: null, code: 'UNDETECTED', reason: 'Could not tell the document type; needs review' };
}

/** Enough for a subject, a body and the first pages of a document; past that, keywords add nothing but time. */
const MAX_TEXT_CHARACTERS = 50_000;

const EXPECTED = 'Birth Certificate, Residency Proof, Medical Form or Liability Waiver';

/**
 * What a form may send for each type, compared after toWords (case, separators and camelCase do not
 * matter): the ids, the labels, and what leagues commonly call them. Exact phrases only: a declared value
 * is an answer to "which type?", not text to search.
 */
const DECLARED_ALIASES: ReadonlyMap<string, TDocType> = new Map(
  (
    [
      ...DOC_TYPES.map((docType) => [docType, docType] as const),
      ...DOC_TYPES.map((docType) => [DOC_TYPE_LABELS[docType], docType] as const),
      ['birth cert', 'birth_certificate'],
      ['birth', 'birth_certificate'],
      ['bc', 'birth_certificate'],
      ['certificate of birth', 'birth_certificate'],
      ['proof of age', 'birth_certificate'],
      ['residence', 'residency'],
      ['proof of residency', 'residency'],
      ['proof of residence', 'residency'],
      ['residence proof', 'residency'],
      ['proof of address', 'residency'],
      ['medical form', 'medical'],
      ['medical release', 'medical'],
      ['physical', 'medical'],
      ['sports physical', 'medical'],
      ['physical form', 'medical'],
      ['waiver form', 'waiver'],
      ['liability', 'waiver'],
      ['liability release', 'waiver'],
      ['release of liability', 'waiver'],
      ['release', 'waiver'],
    ] as ReadonlyArray<readonly [string, TDocType]>
  ).map(([alias, docType]) => [toWords(alias).trim(), docType]),
);

/**
 * Keywords per type. `weak` ones ('certificate', 'release') count only when no strong keyword of any type
 * is present, so 'Medical Certificate' is medical and 'Medical Release' is not a waiver. `in` limits a
 * keyword to file names, which are short labels, or to text, where single words mislead: 'bc' in an
 * e-mail is "because", nearly every form asks for a 'date of birth' and a 'residence address', and
 * 'physical' is often a 'physical address'. Text needs the phrase.
 */
type Keyword = { docType: TDocType; pattern: RegExp; weak?: true; in?: 'filename' | 'text' };

const KEYWORDS: readonly Keyword[] = [
  { docType: 'birth_certificate', pattern: /\bbirth/g, in: 'filename' },
  { docType: 'birth_certificate', pattern: /\bbc\b/g, in: 'filename' },
  { docType: 'birth_certificate', pattern: /\b(birth (certificate|cert|record)|certificate of (live )?birth)s?\b/g, in: 'text' },
  { docType: 'birth_certificate', pattern: /\bcert(ificate)?s?\b/g, weak: true },

  { docType: 'residency', pattern: /\bresiden/g, in: 'filename' },
  { docType: 'residency', pattern: /\b(residency|proof of residence)\b/g, in: 'text' },
  { docType: 'residency', pattern: /\bproof of address\b/g },
  { docType: 'residency', pattern: /\baddress proof\b/g },
  { docType: 'residency', pattern: /\butility bills?\b/g },
  { docType: 'residency', pattern: /\butilit(y|ies)\b/g, in: 'filename' },
  { docType: 'residency', pattern: /\bleases?\b/g },
  { docType: 'residency', pattern: /\brental agreement\b/g },
  { docType: 'residency', pattern: /\bmortgage statement\b/g },

  { docType: 'medical', pattern: /\bmedical\b/g },
  { docType: 'medical', pattern: /\bphysicals?\b/g, in: 'filename' },
  { docType: 'medical', pattern: /\b(sports physical|physical (exam|examination|evaluation|form))\b/g, in: 'text' },
  { docType: 'medical', pattern: /\bphysicians?\b/g },
  { docType: 'medical', pattern: /\bhealth\b/g, in: 'filename' },
  { docType: 'medical', pattern: /\bhealth (form|history|record|exam|examination|certificate)s?\b/g, in: 'text' },
  { docType: 'medical', pattern: /\bdoctors?\b/g },
  { docType: 'medical', pattern: /\bimmuni[sz]ation/g },

  { docType: 'waiver', pattern: /\bwaiv(er|ers|e|ed)\b/g },
  { docType: 'waiver', pattern: /\bliability\b/g },
  { docType: 'waiver', pattern: /\bhold harmless\b/g },
  { docType: 'waiver', pattern: /\bindemnif/g },
  { docType: 'waiver', pattern: /\breleases?\b/g, weak: true },
];

/** Occurrences per type that has any, counting weak keywords only when no strong one matched. */
function countHits(words: string, where: 'filename' | 'text'): Map<TDocType, number> {
  const strong = new Map<TDocType, number>();
  const weak = new Map<TDocType, number>();
  for (const keyword of KEYWORDS) {
    if (keyword.in && keyword.in !== where) continue;
    const count = words.match(keyword.pattern)?.length ?? 0;
    if (count === 0) continue;
    const tally = keyword.weak ? weak : strong;
    tally.set(keyword.docType, (tally.get(keyword.docType) ?? 0) + count);
  }
  return strong.size > 0 ? strong : weak;
}

/**
 * 'Emma_Smith-BirthCert2025.PDF' → ' emma smith birth cert 2025 pdf ': lowercase ASCII words separated by
 * single spaces, so `\b` means a word edge. Underscores, hyphens, camelCase and letter-digit joins all
 * split words; without that, 'proof_of_residency' would be one word and 'abc' could never be told from 'bc'.
 */
function toWords(text: string): string {
  const words = text
    .normalize('NFKD')
    .replace(/\p{Diacritic}/gu, '')
    .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{L})(\p{N})/gu, '$1 $2')
    .replace(/(\p{N})(\p{L})/gu, '$1 $2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
  return ` ${words} `;
}

/** The declared value as it may be echoed back to the sender and into logs: printable and short. */
function quote(value: string): string {
  const printable = value.replace(/[\p{Cc}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069"]/gu, '');
  return printable.length > 60 ? `${printable.slice(0, 60)}…` : printable;
}
