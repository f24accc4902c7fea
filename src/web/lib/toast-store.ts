import { useSyncExternalStore, type ReactNode } from 'react';

/** One toast visible at a time. */
export const TOAST_LIMIT = 1;
/** How long a toast stays before it closes itself. */
export const TOAST_DURATION_MS = 5000;
/** A dismissed toast is kept this long (its exit animation needs it mounted) before removal. */
export const TOAST_REMOVE_DELAY_MS = 1_000_000;

export type ToastVariant = 'default' | 'destructive';

export interface ToastInput {
  title?: ReactNode;
  description?: ReactNode;
  variant?: ToastVariant;
}

export interface ToastEntry extends ToastInput {
  id: string;
  open: boolean;
}

export interface ToastState {
  toasts: ToastEntry[];
}

export type ToastAction =
  | { type: 'add'; toast: ToastEntry }
  | { type: 'update'; toast: Partial<ToastEntry> & { id: string } }
  | { type: 'dismiss'; toastId?: string }
  | { type: 'remove'; toastId?: string };

/** Pure state transitions of the toast store; newest first, never more than {@link TOAST_LIMIT}. */
export function toastReducer(state: ToastState, action: ToastAction): ToastState {
  switch (action.type) {
    case 'add':
      return { toasts: [action.toast, ...state.toasts].slice(0, TOAST_LIMIT) };
    case 'update':
      return {
        toasts: state.toasts.map((entry) => (entry.id === action.toast.id ? { ...entry, ...action.toast } : entry)),
      };
    case 'dismiss':
      return {
        toasts: state.toasts.map((entry) =>
          action.toastId === undefined || entry.id === action.toastId ? { ...entry, open: false } : entry,
        ),
      };
    case 'remove':
      return {
        toasts: action.toastId === undefined ? [] : state.toasts.filter((entry) => entry.id !== action.toastId),
      };
  }
}

let state: ToastState = { toasts: [] };
const listeners = new Set<() => void>();
const removalTimers = new Map<string, ReturnType<typeof setTimeout>>();
let nextId = 0;

function dispatch(action: ToastAction): void {
  state = toastReducer(state, action);
  for (const listener of listeners) listener();
}

function scheduleRemoval(toastId: string): void {
  if (removalTimers.has(toastId)) return;
  removalTimers.set(
    toastId,
    setTimeout(() => {
      removalTimers.delete(toastId);
      dispatch({ type: 'remove', toastId });
    }, TOAST_REMOVE_DELAY_MS),
  );
}

export function dismissToast(toastId?: string): void {
  const ids = toastId === undefined ? state.toasts.map((entry) => entry.id) : [toastId];
  for (const id of ids) scheduleRemoval(id);
  dispatch({ type: 'dismiss', toastId });
}

export interface ToastHandle {
  id: string;
  dismiss: () => void;
  update: (input: ToastInput) => void;
}

/** Shows a toast from anywhere (components, query callbacks, the live connection). */
export function toast(input: ToastInput): ToastHandle {
  nextId = (nextId + 1) % Number.MAX_SAFE_INTEGER;
  const id = String(nextId);
  dispatch({ type: 'add', toast: { ...input, id, open: true } });
  return {
    id,
    dismiss: () => dismissToast(id),
    update: (next) => dispatch({ type: 'update', toast: { ...next, id } }),
  };
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function getSnapshot(): ToastState {
  return state;
}

export function useToast(): ToastState & { toast: typeof toast; dismiss: typeof dismissToast } {
  const current = useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
  return { ...current, toast, dismiss: dismissToast };
}
