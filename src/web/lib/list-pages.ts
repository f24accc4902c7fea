/**
 * The pages of a long list whose total may be an estimate (the Documents list, notification History): the
 * server counts exactly up to about a thousand, then answers the database's estimate and says so.
 */

/** How many pages `total` rows fill, at least one. */
export function pageCountOf(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** What the list's pages are known to be from one answer: the page, its size and rows, and the total (exact or estimated). */
export type ListedPage = { page: number; pageSize: number; total: number; totalIsEstimate: boolean; rows: number };

/**
 * How many pages the list has, as far as the answer tells: from an exact total, every page; from an estimate,
 * the estimate's pages, and at least one more after a full page (the estimate may be short of the real end).
 */
export function listPageCount(listed: ListedPage): number {
  const counted = pageCountOf(listed.total, listed.pageSize);
  if (!listed.totalIsEstimate) return counted;
  return Math.max(counted, listed.rows === listed.pageSize ? listed.page + 1 : listed.page);
}

/** A page past the real end of an estimated list: it answers no rows, though the estimate promised some. */
export const pastEstimatedEnd = (listed: ListedPage): boolean => listed.totalIsEstimate && listed.rows === 0 && listed.page > 1;
