import { describe, expect, it } from 'vitest';
import {
  audienceOf,
  AUDIENCE_BADGES,
  canGoNext,
  canGoPrevious,
  clampStep,
  GUIDE_STEP_COUNT,
  nextStep,
  parseGuideStep,
  previousStep,
  stepCounter,
  stepForKey,
} from './guide-steps';

describe('User Guide steps', () => {
  it('has 12 steps: 10 for users, then 2 for admins', () => {
    expect(GUIDE_STEP_COUNT).toBe(12);
    const badges = Array.from({ length: GUIDE_STEP_COUNT }, (_, i) => AUDIENCE_BADGES[audienceOf(i + 1)]);
    expect(badges.filter((b) => b === 'User Guide')).toHaveLength(10);
    expect(badges.slice(10)).toEqual(['Admin Guide', 'Admin Guide']);
  });

  it('disables Previous on the first step and Next on the last', () => {
    expect(canGoPrevious(1)).toBe(false);
    expect(canGoNext(1)).toBe(true);
    expect(canGoPrevious(12)).toBe(true);
    expect(canGoNext(12)).toBe(false);
  });

  it('never wraps around', () => {
    expect(previousStep(1)).toBe(1);
    expect(nextStep(12)).toBe(12);
    expect(nextStep(11)).toBe(12);
    expect(previousStep(2)).toBe(1);
  });

  it('moves one step with the arrow keys, and ignores them at the ends and other keys', () => {
    expect(stepForKey(5, 'ArrowRight')).toBe(6);
    expect(stepForKey(5, 'ArrowLeft')).toBe(4);
    expect(stepForKey(1, 'ArrowLeft')).toBeUndefined();
    expect(stepForKey(12, 'ArrowRight')).toBeUndefined();
    expect(stepForKey(5, 'Enter')).toBeUndefined();
  });

  it('reads the step from the query string, within bounds', () => {
    expect(parseGuideStep('')).toBe(1);
    expect(parseGuideStep('?step=8')).toBe(8);
    expect(parseGuideStep('step=40')).toBe(12);
    expect(parseGuideStep('?step=0')).toBe(1);
    expect(parseGuideStep('?step=two')).toBe(1);
    expect(clampStep(2.5)).toBe(1);
  });

  it("counts 'n of 12'", () => {
    expect(stepCounter(1)).toBe('1 of 12');
    expect(stepCounter(12)).toBe('12 of 12');
  });
});
