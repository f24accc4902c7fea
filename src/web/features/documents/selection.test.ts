import { describe, expect, it } from 'vitest';
import { EMPTY_SELECTION, selectAllLabel, selectAllState, selectedRows, selectionReducer, type Selection } from './selection';

const listed = ['a', 'b', 'c'];
const select = (...ids: string[]): Selection => new Set(ids);

describe('selectionReducer', () => {
  it('toggles one row on and off', () => {
    const on = selectionReducer(EMPTY_SELECTION, { type: 'toggle', id: 'a', selected: true });
    expect([...on]).toEqual(['a']);
    expect([...selectionReducer(on, { type: 'toggle', id: 'a', selected: false })]).toEqual([]);
  });

  it('returns the same state when a toggle changes nothing', () => {
    const state = select('a');
    expect(selectionReducer(state, { type: 'toggle', id: 'a', selected: true })).toBe(state);
    expect(selectionReducer(state, { type: 'toggle', id: 'b', selected: false })).toBe(state);
  });

  it('select-all selects every listed row, and unchecking it selects none', () => {
    const all = selectionReducer(select('a'), { type: 'setAll', listedIds: listed, selected: true });
    expect([...all].sort()).toEqual(listed);
    expect(selectionReducer(all, { type: 'setAll', listedIds: listed, selected: false }).size).toBe(0);
  });

  it('prunes ids that are no longer listed and keeps the rest', () => {
    const pruned = selectionReducer(select('a', 'b', 'gone'), { type: 'prune', listedIds: ['b', 'c', 'a'] });
    expect([...pruned].sort()).toEqual(['a', 'b']);
  });

  it('keeps the same state object when a refetch lists every selected id again', () => {
    const state = select('a', 'c');
    expect(selectionReducer(state, { type: 'prune', listedIds: ['c', 'b', 'a'] })).toBe(state);
  });

  it('clears', () => {
    expect(selectionReducer(select('a', 'b'), { type: 'clear' }).size).toBe(0);
    expect(selectionReducer(EMPTY_SELECTION, { type: 'clear' })).toBe(EMPTY_SELECTION);
  });
});

describe('selectAllState', () => {
  it('is unchecked with nothing selected, or with nothing listed', () => {
    expect(selectAllState(EMPTY_SELECTION, listed)).toBe(false);
    expect(selectAllState(select('a'), [])).toBe(false);
  });

  it('is indeterminate when only some listed rows are selected', () => {
    expect(selectAllState(select('a'), listed)).toBe('indeterminate');
    expect(selectAllState(select('a', 'b'), listed)).toBe('indeterminate');
  });

  it('is checked when every listed row is selected', () => {
    expect(selectAllState(select('a', 'b', 'c'), listed)).toBe(true);
  });

  it('counts only listed rows, so a stale id cannot make it look checked', () => {
    expect(selectAllState(select('a', 'b', 'stale'), listed)).toBe('indeterminate');
  });
});

describe('selectAllLabel and selectedRows', () => {
  it("reads 'Select All (n of m)'", () => {
    expect(selectAllLabel(EMPTY_SELECTION, listed)).toBe('Select All (0 of 3)');
    expect(selectAllLabel(select('b', 'c'), listed)).toBe('Select All (2 of 3)');
  });

  it('gives the selected rows in list order', () => {
    const rows = listed.map((id) => ({ id }));
    expect(selectedRows(select('c', 'a'), rows)).toEqual([{ id: 'a' }, { id: 'c' }]);
  });
});
