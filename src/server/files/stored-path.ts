import type { TDivision, TDocType } from '../../contract';

/** Letters that Unicode decomposition does not fold into plain ASCII. */
const LETTER_FOLDS: Readonly<Record<string, string>> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  ł: 'l',
  þ: 'th',
  ı: 'i',
};

/** Long names would push the full key past what some filesystems and S3 tools handle comfortably. */
const MAX_NAME_LENGTH = 64;

/**
 * 'Zoë' + "O'Brien-Smith" → 'zoe_obrien_smith': only [a-z0-9_] so a parent's typing can never reach the
 * file system as a path. Apostrophes vanish rather than split, so "O'Brien" stays one word.
 */
export function sanitizeStoredName(firstName: string, lastName: string): string {
  const folded = `${firstName}_${lastName}`
    .normalize('NFKD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/[ßæœøđðłþı]/g, (letter) => LETTER_FOLDS[letter] ?? '_')
    .replace(/['’`]/g, '')
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, MAX_NAME_LENGTH)
    .replace(/_+$/, '');
  return folded === '' ? 'unknown' : folded;
}

export interface StoredPathInput {
  year: number;
  division: TDivision;
  /** From sanitizeStoredName; computed once per player by the caller, since one player has many files. */
  storedName: string;
  /** ISO date, YYYY-MM-DD. */
  birthDate: string;
  playerId: string;
  /** Null while the type is undetected; the file then waits for review under 'unclassified'. */
  docType: TDocType | null;
  submissionId: string;
  fileSha256: string;
  /** File extension without the dot, e.g. 'pdf'. */
  extension: string;
}

/** The shape of buildStoredPath's keys, in words staff read on the App Workflow screen. */
export const STORED_PATH_FORMAT =
  'seasons/{year}/{division}/{name}_{birth date}_{player id}/{name}_{birth date}_{doc type}_{submission id}_{8 hex of file hash}.{ext}';

/**
 * The storage key of a document, in the shape STORED_PATH_FORMAT describes.
 * Every part is checked rather than trusted, because the result is used as a path: a name that did not
 * go through sanitizeStoredName, a '../' in an id or a '/' in the extension is refused, not repaired.
 */
export function buildStoredPath(input: StoredPathInput): string {
  if (!Number.isInteger(input.year) || input.year < 1900 || input.year > 9999) {
    throw new RangeError(`Invalid season year: ${input.year}`);
  }
  if (!/^[A-Za-z]+$/.test(input.division)) throw new RangeError(`Invalid division: ${input.division}`);
  if (!/^[a-z0-9_]{1,64}$/.test(input.storedName)) {
    throw new RangeError(`Name is not sanitised (use sanitizeStoredName): ${input.storedName}`);
  }
  if (!/^\d{4}-\d{2}-\d{2}$/.test(input.birthDate)) throw new RangeError(`Invalid birth date: ${input.birthDate}`);
  if (!/^[A-Za-z0-9]+-\d{4}-[0-9a-f]{8}$/.test(input.playerId)) throw new RangeError(`Invalid player id: ${input.playerId}`);
  if (!/^[0-9a-fA-F-]{1,64}$/.test(input.submissionId)) {
    throw new RangeError(`Invalid submission id: ${input.submissionId}`);
  }
  if (!/^[0-9a-f]{8,}$/i.test(input.fileSha256)) throw new RangeError('Invalid file hash: need at least 8 hex digits');
  const extension = input.extension.toLowerCase();
  if (!/^[a-z0-9]{1,8}$/.test(extension)) throw new RangeError(`Invalid file extension: ${input.extension}`);

  const name = input.storedName;
  const docType = input.docType ?? 'unclassified';
  const hash8 = input.fileSha256.slice(0, 8).toLowerCase();
  // join() yields one flat string; a template literal would keep a rope of ~15 pieces alive per path,
  // which doubles the memory of a 50,000-player demo.
  return [
    'seasons/', String(input.year), '/', input.division, '/', name, '_', input.birthDate, '_', input.playerId,
    '/', name, '_', input.birthDate, '_', docType, '_', input.submissionId.toLowerCase(), '_', hash8, '.', extension,
  ].join('');
}
