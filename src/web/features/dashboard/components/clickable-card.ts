import type { MouseEvent } from 'react';

/**
 * A card that opens a screen on a click anywhere in it, for the mouse; each such card also holds a real link
 * for keyboards and screen readers. A click on a control of its own (a link or button) is left to that control.
 */
export function clickedControl(event: MouseEvent<HTMLElement>): boolean {
  return event.target instanceof Element && event.target.closest('a, button, input, select, [role="button"]') !== null;
}

export const CLICKABLE_CARD_CLASS = 'cursor-pointer transition-[box-shadow,border-color] hover:border-primary/40 hover:shadow-md';

export const CARD_LINK_CLASS =
  'flex w-fit items-center gap-1 rounded-sm text-sm font-medium text-primary underline-offset-4 outline-none hover:underline focus-visible:ring-[3px] focus-visible:ring-ring/50';
