/**
 * A search typed into a box that filters what the screen already holds, matched as the server's searches
 * match (decision 024): a substring, ignoring case and accents ("Martinez" finds "Martínez" and the other way
 * round). Letters that carry no separate accent are spelled out as the database's unaccent rules do.
 */
const SPELLED_OUT: Readonly<Record<string, string>> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i' };

/** `text` without accents, lowercase. */
export function foldForSearch(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[ßæœøłđðþı]/g, (letter) => SPELLED_OUT[letter] ?? letter);
}

/** Whether `text` contains `search` (trimmed), ignoring case and accents; an empty search matches everything. */
export function matchesSearch(text: string, search: string): boolean {
  const needle = foldForSearch(search.trim());
  return needle === '' || foldForSearch(text).includes(needle);
}
