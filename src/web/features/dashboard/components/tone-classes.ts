import type { TTone } from '../stat-details';

/** A solid swatch (dots, bars): colour is never the only cue, every swatch sits beside its label and number. */
export const TONE_FILL: Record<TTone, string> = {
  green: 'bg-green-600 dark:bg-green-500',
  red: 'bg-red-600 dark:bg-red-500',
  orange: 'bg-orange-500 dark:bg-orange-400',
  blue: 'bg-blue-600 dark:bg-blue-500',
  violet: 'bg-violet-600 dark:bg-violet-500',
  teal: 'bg-teal-600 dark:bg-teal-500',
  amber: 'bg-amber-500 dark:bg-amber-400',
  slate: 'bg-slate-500 dark:bg-slate-400',
};

/** The left edge of a breakdown card. */
export const TONE_BORDER: Record<TTone, string> = {
  green: 'border-l-green-600 dark:border-l-green-500',
  red: 'border-l-red-600 dark:border-l-red-500',
  orange: 'border-l-orange-500 dark:border-l-orange-400',
  blue: 'border-l-blue-600 dark:border-l-blue-500',
  violet: 'border-l-violet-600 dark:border-l-violet-500',
  teal: 'border-l-teal-600 dark:border-l-teal-500',
  amber: 'border-l-amber-500 dark:border-l-amber-400',
  slate: 'border-l-slate-500 dark:border-l-slate-400',
};
