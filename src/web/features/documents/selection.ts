/**
 * Which listed documents are selected, by id: kept across refetches (a refetch brings new row objects,
 * not new ids) and pruned of ids that are no longer listed, so a bulk action only ever reaches rows the
 * user can see.
 */
export type Selection = ReadonlySet<string>;

export const EMPTY_SELECTION: Selection = new Set<string>();

export type SelectionAction =
  | { type: 'toggle'; id: string; selected: boolean }
  /** The select-all checkbox: every listed row, or none. */
  | { type: 'setAll'; listedIds: readonly string[]; selected: boolean }
  /** New list data: drop what is not listed any more. */
  | { type: 'prune'; listedIds: readonly string[] }
  | { type: 'clear' };

export function selectionReducer(state: Selection, action: SelectionAction): Selection {
  switch (action.type) {
    case 'toggle': {
      if (state.has(action.id) === action.selected) return state;
      const next = new Set(state);
      if (action.selected) next.add(action.id);
      else next.delete(action.id);
      return next;
    }
    case 'setAll':
      return action.selected ? new Set(action.listedIds) : EMPTY_SELECTION;
    case 'prune': {
      const listed = new Set(action.listedIds);
      const kept = [...state].filter((id) => listed.has(id));
      // Same object when nothing was dropped, so a refetch of the same rows re-renders nothing.
      return kept.length === state.size ? state : new Set(kept);
    }
    case 'clear':
      return state.size === 0 ? state : EMPTY_SELECTION;
  }
}

/** The select-all checkbox: checked when every listed row is, 'indeterminate' when only some are. */
export function selectAllState(selection: Selection, listedIds: readonly string[]): boolean | 'indeterminate' {
  const selectedCount = listedIds.filter((id) => selection.has(id)).length;
  if (selectedCount === 0) return false;
  return selectedCount === listedIds.length ? true : 'indeterminate';
}

/** 'Select All (n of m)': n selected of the m rows listed. */
export function selectAllLabel(selection: Selection, listedIds: readonly string[]): string {
  const selectedCount = listedIds.filter((id) => selection.has(id)).length;
  return `Select All (${selectedCount} of ${listedIds.length})`;
}

/** The listed rows that are selected, in list order. */
export function selectedRows<T extends { id: string }>(selection: Selection, rows: readonly T[]): T[] {
  return rows.filter((row) => selection.has(row.id));
}
