import { describe, expect, it } from 'vitest';
import { TOAST_LIMIT, toastReducer, type ToastEntry } from './toast-store';

const entry = (id: string): ToastEntry => ({ id, open: true, title: `Toast ${id}` });

describe('toastReducer', () => {
  it('keeps only the newest toast (one visible at a time)', () => {
    const state = toastReducer(toastReducer({ toasts: [] }, { type: 'add', toast: entry('1') }), {
      type: 'add',
      toast: entry('2'),
    });
    expect(TOAST_LIMIT).toBe(1);
    expect(state.toasts.map((t) => t.id)).toEqual(['2']);
  });

  it('closes a dismissed toast without removing it, so it can animate out', () => {
    const state = toastReducer({ toasts: [entry('1')] }, { type: 'dismiss', toastId: '1' });
    expect(state.toasts).toEqual([{ ...entry('1'), open: false }]);
  });

  it('removes one toast by id, or all without an id', () => {
    expect(toastReducer({ toasts: [entry('1')] }, { type: 'remove', toastId: '1' }).toasts).toEqual([]);
    expect(toastReducer({ toasts: [entry('1')] }, { type: 'remove' }).toasts).toEqual([]);
  });

  it('updates the fields of a toast in place', () => {
    const state = toastReducer({ toasts: [entry('1')] }, { type: 'update', toast: { id: '1', title: 'Changed' } });
    expect(state.toasts[0]?.title).toBe('Changed');
  });
});
