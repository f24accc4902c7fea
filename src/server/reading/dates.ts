/**
 * Dates as documents print them, found in text that OCR may have garbled: numeric (`12/09/2014`, `12-09-2014`,
 * `12.09.2014`, `2014-12-09`, `12 / 09 / 2014`) and with the month in words (`9 December 2014`,
 * `December 9, 2014`, `9th of December, 2014`, `DEC 09 2014`, `09-DEC-2014`). Inside a digit group, the letters OCR
 * confuses with digits are read as those digits (O→0, l/I/|→1, S→5). A numeric date is read month first, as in the
 * United States, unless its first number cannot be a month (13/09/2014 is the 13th of September).
 */

export type FoundDate = {
  /** YYYY-MM-DD. */
  iso: string;
  /** Where the date starts in the text, and where it ends (exclusive). */
  index: number;
  end: number;
};

/** Every date in the text, in the order they appear; impossible ones (31 Feb) are left out. */
export function findDates(text: string): FoundDate[] {
  const found: FoundDate[] = [];
  for (const pattern of PATTERNS) {
    for (const match of text.matchAll(pattern.regex)) {
      const index = match.index;
      const groups = match.groups ?? {};
      if (!startsCleanly(text, index, match[0])) continue;
      const iso = pattern.read(groups);
      if (!iso) continue;
      found.push({ iso, index, end: index + match[0].length });
    }
  }
  found.sort((a, b) => a.index - b.index || b.end - a.end);
  // Two patterns may read the same stretch ("09 Dec 2014" and a numeric one inside it): the first, longest wins.
  const kept: FoundDate[] = [];
  for (const date of found) {
    const last = kept.at(-1);
    if (last && date.index < last.end) continue;
    kept.push(date);
  }
  return kept;
}

/** The first date in the text, or null. */
export function findDate(text: string): string | null {
  return findDates(text)[0]?.iso ?? null;
}

/** YYYY-MM-DD when the parts make a real calendar day between 1900 and 2099, else null. */
export function toIsoDate(year: number, month: number, day: number): string | null {
  if (!Number.isInteger(year) || !Number.isInteger(month) || !Number.isInteger(day)) return null;
  if (year < 1900 || year > 2099 || month < 1 || month > 12 || day < 1) return null;
  if (day > daysInMonth(year, month)) return null;
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

const MONTH_NAMES = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const SHORT_MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** A digit, or a letter OCR reads in place of one. */
const D = '[0-9OoIl|S]';
/** A word that may be a month: checked by monthOf, which tolerates one OCR slip in a long name. */
const MONTH_WORD = '(?<month>[A-Za-z]{3,10})\\.?';
const ORDINAL = '(?:st|nd|rd|th|\\s?(?:st|nd|rd|th))?';

type Pattern = { regex: RegExp; read: (groups: Record<string, string | undefined>) => string | null };

const PATTERNS: readonly Pattern[] = [
  {
    // 2014-12-09, 2014/12/09
    regex: new RegExp(`(?<y>${D}{4})\\s*[-/.]\\s*(?<m>${D}{1,2})\\s*[-/.]\\s*(?<d>${D}{1,2})(?!${D})`, 'g'),
    read: (g) => toIsoDate(digits(g.y), digits(g.m), digits(g.d)),
  },
  {
    // 12/09/2014, 12-09-2014, 12.09.2014, 12 / 09 / 2014, 12/09/14
    regex: new RegExp(`(?<a>${D}{1,2})\\s*(?<s>[-/.])\\s*(?<b>${D}{1,2})\\s*[-/.]\\s*(?<y>${D}{4}|${D}{2})(?!${D})`, 'g'),
    read: (g) => {
      const a = digits(g.a);
      const b = digits(g.b);
      const year = fullYear(g.y);
      return a > 12 ? toIsoDate(year, b, a) : toIsoDate(year, a, b);
    },
  },
  {
    // 9 December 2014, 9th of December, 2014, 09-DEC-2014, 09 Dec 2014
    regex: new RegExp(`(?<d>${D}{1,2})${ORDINAL}(?:\\s+of)?[\\s-]*${MONTH_WORD}[\\s,-]*(?<y>${D}{4})(?!${D})`, 'g'),
    read: (g) => toIsoDate(digits(g.y), monthOf(g.month), digits(g.d)),
  },
  {
    // December 9, 2014, DEC 09 2014, Dec. 9th, 2014
    regex: new RegExp(`${MONTH_WORD}[\\s,-]*(?<d>${D}{1,2})${ORDINAL}[\\s,-]+(?<y>${D}{4})(?!${D})`, 'g'),
    read: (g) => toIsoDate(digits(g.y), monthOf(g.month), digits(g.d)),
  },
];

/**
 * A match must not begin inside a longer number or word: "DOB" must not lend its O to a date, nor an account
 * number its last digits. A digit group starting with a real digit may follow letters (OCR joins "DOB12/09/2014").
 */
function startsCleanly(text: string, index: number, matched: string): boolean {
  const before = text.charAt(index - 1);
  if (/[0-9]/.test(before)) return false;
  if (/\p{L}/u.test(before) && !/[0-9]/.test(matched.charAt(0))) return false;
  // Every digit group needs a real digit somewhere in the date, so words like "Sol" are not a day.
  return (matched.match(/[0-9]/g)?.length ?? 0) >= 3;
}

function digits(group: string | undefined): number {
  if (!group) return Number.NaN;
  const plain = group.replace(/[Oo]/g, '0').replace(/[Il|]/g, '1').replace(/S/g, '5');
  return /^[0-9]+$/.test(plain) ? Number(plain) : Number.NaN;
}

/** Two-digit years: 00–69 are this century, 70–99 the last (a birth date or a recent document either way). */
function fullYear(group: string | undefined): number {
  const year = digits(group);
  if (group && group.length === 2) return year <= 69 ? 2000 + year : 1900 + year;
  return year;
}

/** The month a word names: a full name or its three-letter short form, or a long name with one OCR slip. */
function monthOf(word: string | undefined): number {
  if (!word) return Number.NaN;
  const lower = word.toLowerCase().replace(/rn/g, 'm').replace(/0/g, 'o');
  const exact = MONTH_NAMES.findIndex((name) => name === lower);
  if (exact !== -1) return exact + 1;
  const short = SHORT_MONTHS.findIndex((name) => name === lower || (lower === 'sept' && name === 'sep'));
  if (short !== -1) return short + 1;
  if (lower.length >= 5) {
    const near = MONTH_NAMES.findIndex((name) => name.length >= 5 && editDistance(name, lower) <= 1);
    if (near !== -1) return near + 1;
  }
  return Number.NaN;
}

/** Levenshtein distance; the strings here are short. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a.charAt(i - 1) === b.charAt(j - 1) ? 0 : 1;
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}
