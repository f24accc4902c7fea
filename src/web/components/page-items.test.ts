import { describe, expect, it } from 'vitest';
import { pageItems } from './page-items';

describe('pageItems (up to 5 numbers, then an ellipsis and the last page)', () => {
  it('lists every page when there are few', () => {
    expect(pageItems(1, 1)).toEqual([1]);
    expect(pageItems(2, 6)).toEqual([1, 2, 3, 4, 5, 6]);
  });
  it('shows the first five, an ellipsis and the last page from the start', () => {
    expect(pageItems(1, 20)).toEqual([1, 2, 3, 4, 5, 'ellipsis', 20]);
    expect(pageItems(3, 20)).toEqual([1, 2, 3, 4, 5, 'ellipsis', 20]);
  });
  it('keeps the current page inside the window as it moves', () => {
    expect(pageItems(8, 20)).toEqual([6, 7, 8, 9, 10, 'ellipsis', 20]);
  });
  it('drops the ellipsis when the window reaches the end', () => {
    expect(pageItems(18, 20)).toEqual([15, 16, 17, 18, 19, 20]);
    expect(pageItems(20, 20)).toEqual([15, 16, 17, 18, 19, 20]);
  });
  it('clamps a page outside the range and answers nothing for no pages', () => {
    expect(pageItems(99, 20)).toEqual([15, 16, 17, 18, 19, 20]);
    expect(pageItems(1, 0)).toEqual([]);
  });
  it('offers no last page when the page count is an estimate, only the ellipsis', () => {
    expect(pageItems(1, 20, 5, false)).toEqual([1, 2, 3, 4, 5, 'ellipsis']);
    expect(pageItems(8, 20, 5, false)).toEqual([6, 7, 8, 9, 10, 'ellipsis']);
    expect(pageItems(19, 20, 5, false)).toEqual([15, 16, 17, 18, 19, 20]);
  });
});
