/**
 * The Review screen's keys: one letter per action, so a reviewer can clear the queue without the mouse.
 * They are ignored while typing in a field, while a dialog is open, and with Ctrl, Alt or the Command key
 * (those belong to the browser).
 */
export const REVIEW_ACTIONS = ['approve', 'reject', 'next', 'previous', 'zoom', 'rotate', 'help'] as const;
export type ReviewAction = (typeof REVIEW_ACTIONS)[number];

/** Each action's key, as `aria-keyshortcuts` and the key list say it. */
export const REVIEW_KEYS: Record<ReviewAction, string> = {
  approve: 'A',
  reject: 'R',
  next: 'J',
  previous: 'K',
  zoom: 'Z',
  rotate: 'T',
  help: '?',
};

/** What each key does, in the order the key list shows them. */
export const REVIEW_KEY_HELP: ReadonlyArray<{ action: ReviewAction; text: string }> = [
  { action: 'approve', text: 'Approve (asks the dates it needs, filled in from the document: press Enter to confirm)' },
  { action: 'reject', text: 'Reject, with a reason from the list' },
  { action: 'next', text: 'Next document' },
  { action: 'previous', text: 'Previous document' },
  { action: 'zoom', text: 'Zoom: fit, 100%, 200%' },
  { action: 'rotate', text: 'Turn the document a quarter turn' },
  { action: 'help', text: 'Show this list of keys' },
];

const ACTION_BY_KEY: Readonly<Record<string, ReviewAction>> = Object.fromEntries(
  REVIEW_ACTIONS.map((action) => [REVIEW_KEYS[action].toLowerCase(), action]),
);

/** The parts of a keydown the keys depend on. */
export interface ReviewKeyPress {
  key: string;
  ctrlKey: boolean;
  altKey: boolean;
  metaKey: boolean;
  /** Held down: the first press acts, the repeats do not (a held A must not approve a whole queue). */
  repeat: boolean;
}

/** Where the key was pressed: in a field being typed in, or with a dialog open over the screen. */
export interface ReviewKeyContext {
  typing: boolean;
  dialogOpen: boolean;
}

/** The action a key press asks for, or null when it is not one of the screen's keys or should be left alone. */
export function reviewActionForKey(press: ReviewKeyPress, context: ReviewKeyContext): ReviewAction | null {
  if (context.typing || context.dialogOpen) return null;
  if (press.ctrlKey || press.altKey || press.metaKey || press.repeat) return null;
  return ACTION_BY_KEY[press.key.toLowerCase()] ?? null;
}

/** A key typed into a field (or a select, or editable text) goes to that field. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  if (target instanceof HTMLInputElement) return !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(target.type);
  return target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement;
}

/** Whether a dialog (or an alert dialog) is open anywhere on the page. */
export const isDialogOpen = (root: ParentNode = document): boolean => root.querySelector('[role="dialog"], [role="alertdialog"]') !== null;
