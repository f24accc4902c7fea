/** Dates of birth as parents write them, read without guessing. */
import { quote, type Parsed } from './mail-values';

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH = String.raw`(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?`;
const ORDINAL = String.raw`(?:st|nd|rd|th)?`;

/**
 * The date formats a parent of a US league writes, first found in the value: 2015-03-02 (or 2015/03/02),
 * 03/02/2015 and 3-2-2015 (always month first), 2 March 2015 and March 2, 2015 (names or three-letter
 * abbreviations, with or without ordinals and commas). Two-digit years and dotted dates (02.03.2015,
 * day first in most of the world) are refused, not guessed: a wrong date would make another player.
 */
const DATE_FORMATS: ReadonlyArray<{ pattern: RegExp; order: 'ymd' | 'mdy' | 'dmy' | 'Mdy' }> = [
  { pattern: /(?<![\d/.-])(\d{4})([-/])(\d{1,2})\2(\d{1,2})(?![\d/.-])/, order: 'ymd' },
  { pattern: /(?<![\d/.-])(\d{1,2})([-/])(\d{1,2})\2(\d{4})(?![\d/.-])/, order: 'mdy' },
  { pattern: new RegExp(String.raw`(?<![\p{L}\d])(\d{1,2})${ORDINAL}\s+(?:of\s+)?${MONTH},?\s+(\d{4})(?!\d)`, 'iu'), order: 'dmy' },
  { pattern: new RegExp(String.raw`(?<!\p{L})${MONTH}\s+(\d{1,2})${ORDINAL},?\s+(\d{4})(?!\d)`, 'iu'), order: 'Mdy' },
];

export function parseBirthDate(raw: string, today: string): Parsed<string> {
  for (const { pattern, order } of DATE_FORMATS) {
    const match = pattern.exec(raw);
    if (!match) continue;
    const [year, month, day] =
      order === 'ymd' ? [match[1], match[3], match[4]]
      : order === 'mdy' ? [match[4], match[1], match[3]]
      : order === 'dmy' ? [match[3], monthNumber(match[2]), match[1]]
      : [match[3], monthNumber(match[1]), match[2]];
    const date = toIsoDate(Number(year), Number(month), Number(day));
    if (!date) {
      const hint = order === 'mdy' ? ' (dates are read as MM/DD/YYYY)' : '';
      return { ok: false, message: `Date of birth "${quote(raw)}" is not a real date${hint}` };
    }
    if (date > today) return { ok: false, message: `Date of birth "${quote(raw)}" is in the future` };
    if (date < '1900-01-01') return { ok: false, message: `Date of birth "${quote(raw)}" is before 1900` };
    return { ok: true, value: date };
  }
  return { ok: false, message: `Date of birth "${quote(raw)}" is not a date; write it as YYYY-MM-DD or MM/DD/YYYY` };
}

function monthNumber(name: string | undefined): number {
  return MONTHS.indexOf((name ?? '').slice(0, 3).toLowerCase()) + 1;
}

/** YYYY-MM-DD when the day exists in that month and year, else null. */
function toIsoDate(year: number, month: number, day: number): string | null {
  if (month < 1 || month > 12 || day < 1) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** A part that is nothing but a date ("03/02/2015", "March 2, 2015"). */
export function isWholeDate(text: string): boolean {
  return DATE_FORMATS.some(({ pattern }) => {
    const match = pattern.exec(text);
    return match !== null && text.replace(match[0], '').trim() === '';
  });
}
