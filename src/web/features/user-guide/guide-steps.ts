/**
 * The User Guide's slideshow rules: 12 steps, 10 for every user and the last 2 for admins;
 * Previous stops at the first, Next at the last, nothing wraps. Steps are counted from 1, as the counter reads.
 */
export const GUIDE_STEP_COUNT = 12;
/** Steps from here on are for admins. */
export const FIRST_ADMIN_STEP = 11;

export type GuideAudience = 'user' | 'admin';

export const AUDIENCE_BADGES: Record<GuideAudience, string> = { user: 'User Guide', admin: 'Admin Guide' };

/** A step number brought within 1…count (whole numbers only; anything else is the first step). */
export function clampStep(step: number, count = GUIDE_STEP_COUNT): number {
  if (!Number.isInteger(step)) return 1;
  return Math.min(Math.max(step, 1), count);
}

export const canGoPrevious = (step: number): boolean => step > 1;
export const canGoNext = (step: number, count = GUIDE_STEP_COUNT): boolean => step < count;

export const previousStep = (step: number, count = GUIDE_STEP_COUNT): number => clampStep(step - 1, count);
export const nextStep = (step: number, count = GUIDE_STEP_COUNT): number => clampStep(step + 1, count);

export const audienceOf = (step: number): GuideAudience => (step >= FIRST_ADMIN_STEP ? 'admin' : 'user');

/** 'n of 12'. */
export const stepCounter = (step: number, count = GUIDE_STEP_COUNT): string => `${step} of ${count}`;

/** Left and right arrows move one step, without wrapping; other keys do nothing (undefined). */
export function stepForKey(step: number, key: string, count = GUIDE_STEP_COUNT): number | undefined {
  if (key === 'ArrowLeft') return canGoPrevious(step) ? previousStep(step, count) : undefined;
  if (key === 'ArrowRight') return canGoNext(step, count) ? nextStep(step, count) : undefined;
  return undefined;
}

/** The step in the query string (?step=8), so a link can open the guide at a step; the first by default. */
export function parseGuideStep(search: string, count = GUIDE_STEP_COUNT): number {
  const raw = new URLSearchParams(search).get('step');
  if (raw === null || !/^\d+$/.test(raw)) return 1;
  return clampStep(Number(raw), count);
}
