import { DIVISIONS, DOC_TYPES, MAPPED_FIELD_LABELS, type TDocType, type TMappedField, type TQuestionMapping } from '../../../contract';
import type { ProviderAnswer, ProviderFile } from './provider';

/** The form's text fields a delivery's answers fill (`playerName` is split into the first two). */
export type AnsweredFields = Partial<
  Record<'playerFirstName' | 'playerLastName' | 'playerBirthDate' | 'division' | 'season' | 'guardianName' | 'guardianEmail' | 'guardianPhone', string>
>;

/** A file of the delivery with the document type its question stands for (null: a question mapped to none). */
export type AnsweredFile = ProviderFile & { declaredType: TDocType | null };

export type MappedAnswers = { fields: AnsweredFields; files: AnsweredFile[] };

/**
 * A question label as labels are compared: case, accents, spaces and punctuation ignored, and a leading
 * question number ("3. ") dropped, so "Parent / Guardian E-mail:" and "parent guardian email" are the same.
 */
export function normalizeLabel(label: string): string {
  return label
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/^\s*\d+\s*[.)]\s+/, '')
    .replace(/[^a-z0-9]/g, '');
}

/**
 * Turns a delivery's answers into the form's fields: each field is the answer to the question the saved
 * mapping names for it (by the provider's question key), else to the question labelled as MAPPED_FIELD_LABELS
 * says; a question the mapping names is found for its field only. A single "Player name" fills the first and
 * last name the form did not ask apart (its last word is the last name); a birth date is rewritten YYYY-MM-DD
 * when its format is certain; a division is matched whatever its case. Every uploaded file is kept, typed by
 * the document field its question is mapped to. What cannot be read is passed on as written, for the form's
 * own validation to name.
 */
export function mapAnswers(answers: readonly ProviderAnswer[], mapping: TQuestionMapping): MappedAnswers {
  const byKey = new Map<string, ProviderAnswer>();
  for (const answer of answers) if (!byKey.has(answer.key)) byKey.set(answer.key, answer);
  // A question the mapping gives to a field is that field's alone: no other field finds it by its label.
  const mappedKeys = new Set(Object.values(mapping));
  const answerFor = (field: TMappedField): ProviderAnswer | undefined => {
    const key = mapping[field];
    if (key !== undefined) return byKey.get(key);
    const wanted = normalizeLabel(MAPPED_FIELD_LABELS[field]);
    return answers.find((answer) => !mappedKeys.has(answer.key) && normalizeLabel(answer.label) === wanted);
  };
  const textOf = (field: TMappedField): string | undefined => {
    const value = answerFor(field)?.value?.trim();
    return value ? value : undefined;
  };

  const fields: AnsweredFields = {};
  const set = (field: keyof AnsweredFields, value: string | undefined) => {
    if (value !== undefined) fields[field] = value;
  };
  const fullName = splitFullName(textOf('playerName'));
  set('playerFirstName', textOf('playerFirstName') ?? fullName?.first);
  set('playerLastName', textOf('playerLastName') ?? fullName?.last);
  const birthDate = textOf('playerBirthDate');
  set('playerBirthDate', birthDate === undefined ? undefined : (normalizeDate(birthDate) ?? birthDate));
  const division = textOf('division');
  set('division', division === undefined ? undefined : (DIVISIONS.find((d) => d.toLowerCase() === division.toLowerCase()) ?? division));
  set('season', textOf('season'));
  set('guardianName', textOf('guardianName'));
  set('guardianEmail', textOf('guardianEmail'));
  set('guardianPhone', textOf('guardianPhone'));

  const typeOf = new Map<ProviderAnswer, TDocType>();
  for (const docType of DOC_TYPES) {
    const answer = answerFor(docType);
    if (answer && !typeOf.has(answer)) typeOf.set(answer, docType);
  }
  const files = answers.flatMap((answer) => answer.files.map((file) => ({ ...file, declaredType: typeOf.get(answer) ?? null })));
  return { fields, files };
}

/** "Mary Ann Smith" → first "Mary Ann", last "Smith"; one word is a first name alone. */
export function splitFullName(name: string | undefined): { first: string; last: string | undefined } | undefined {
  const words = name?.trim().split(/\s+/).filter(Boolean) ?? [];
  const last = words.pop();
  if (last === undefined) return undefined;
  return words.length === 0 ? { first: last, last: undefined } : { first: words.join(' '), last };
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** The month (1–12) a name or an abbreviation of at least three letters stands for: "March", "Mar", "Sept". */
function monthNamed(name: string): number | undefined {
  const lower = name.toLowerCase();
  const index = lower.length < 3 ? -1 : MONTHS.findIndex((month) => month.startsWith(lower));
  return index === -1 ? undefined : index + 1;
}

const iso = (year: number, month: number, day: number) => `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;

/**
 * A date as the form builders write it, as YYYY-MM-DD; undefined when it is none of these or its order is
 * uncertain:
 * - `2015-03-05`, `2015/03/05`, and an ISO date-time (`2015-03-05T00:00:00Z`, Typeform): the date part;
 * - `03/05/2015`: month first, as the US builders write it, unless the first number cannot be a month
 *   (`25/03/2015` is the 25th of March);
 * - `25-03-2015` or `25.03.2015`: only when one number cannot be a month (or both are the same day and month);
 *   `05-03-2015` could be either and is refused;
 * - `March 5, 2015`, `Mar 05 2015`, `5 March 2015`.
 */
export function normalizeDate(text: string): string | undefined {
  const value = text.trim();
  const yearFirst = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(value);
  if (yearFirst) return iso(Number(yearFirst[1]), Number(yearFirst[2]), Number(yearFirst[3]));
  const yearLast = /^(\d{1,2})([/.-])(\d{1,2})\2(\d{4})$/.exec(value);
  if (yearLast) {
    const [a, b, year] = [Number(yearLast[1]), Number(yearLast[3]), Number(yearLast[4])];
    if (a > 12 && b <= 12) return iso(year, b, a);
    if (b > 12 && a <= 12) return iso(year, a, b);
    if (a === b || yearLast[2] === '/') return iso(year, a, b);
    return undefined;
  }
  const monthFirst = /^([a-z]+)\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})$/i.exec(value);
  const monthOf = (name: string | undefined) => (name === undefined ? undefined : monthNamed(name));
  if (monthFirst) {
    const month = monthOf(monthFirst[1]);
    return month === undefined ? undefined : iso(Number(monthFirst[3]), month, Number(monthFirst[2]));
  }
  const dayFirst = /^(\d{1,2})(?:st|nd|rd|th)?\s+([a-z]+)\.?,?\s+(\d{4})$/i.exec(value);
  if (dayFirst) {
    const month = monthOf(dayFirst[2]);
    return month === undefined ? undefined : iso(Number(dayFirst[3]), month, Number(dayFirst[1]));
  }
  return undefined;
}
