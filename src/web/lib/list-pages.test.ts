import { describe, expect, it } from 'vitest';
import { listPageCount, pageCountOf, pastEstimatedEnd, type ListedPage } from './list-pages';

const listed = (page: number, rows: number, total: number, totalIsEstimate: boolean): ListedPage => ({ page, pageSize: 50, rows, total, totalIsEstimate });

describe('pages of a list with an exact or estimated total', () => {
  it('counts pages over the total, at least one', () => {
    expect(pageCountOf(0, 50)).toBe(1);
    expect(pageCountOf(50, 50)).toBe(1);
    expect(pageCountOf(51, 50)).toBe(2);
  });
  it('counts pages from an exact total', () => {
    expect(listPageCount(listed(1, 50, 120, false))).toBe(3);
    expect(listPageCount(listed(1, 0, 0, false))).toBe(1);
  });
  it('counts pages from an estimate, with one more after a full page', () => {
    expect(listPageCount(listed(1, 50, 12_437, true))).toBe(249);
    // The estimate fell short: a full page at its last page offers the next.
    expect(listPageCount(listed(21, 50, 1_050, true))).toBe(22);
    // An empty page past the end: no further.
    expect(listPageCount(listed(40, 0, 1_950, true))).toBe(40);
  });
  it('knows a page past the end of an estimated list', () => {
    expect(pastEstimatedEnd(listed(40, 0, 1_950, true))).toBe(true);
    expect(pastEstimatedEnd(listed(1, 0, 0, false))).toBe(false);
    expect(pastEstimatedEnd(listed(3, 0, 100, false))).toBe(false);
    expect(pastEstimatedEnd(listed(3, 50, 12_437, true))).toBe(false);
  });
});
