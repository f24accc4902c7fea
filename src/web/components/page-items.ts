export type PageItem = number | 'ellipsis';

/**
 * Up to 5 page numbers, then an ellipsis and the last page. The window of 5 follows the
 * current page so it stays reachable: page 8 of 20 shows 6 7 8 9 10 … 20; the last pages show no ellipsis.
 * When `pageCount` is only an estimate (`lastPageKnown` false), the ellipsis says there are more pages and
 * no last page is offered: 6 7 8 9 10 ….
 */
export function pageItems(page: number, pageCount: number, window = 5, lastPageKnown = true): PageItem[] {
  if (pageCount <= 0) return [];
  const current = Math.min(Math.max(1, page), pageCount);
  if (pageCount <= window + 1) return Array.from({ length: pageCount }, (_, i) => i + 1);
  const start = Math.max(1, Math.min(current - Math.floor(window / 2), pageCount - window));
  const numbers = Array.from({ length: window }, (_, i) => start + i);
  const last = numbers[numbers.length - 1] ?? 0;
  if (last >= pageCount - 1) return [...numbers, pageCount].filter((n, i, all) => all.indexOf(n) === i);
  return lastPageKnown ? [...numbers, 'ellipsis', pageCount] : [...numbers, 'ellipsis'];
}
