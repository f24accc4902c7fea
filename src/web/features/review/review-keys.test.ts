import { describe, expect, it } from 'vitest';
import { REVIEW_ACTIONS, REVIEW_KEYS, reviewActionForKey, type ReviewKeyPress } from './review-keys';

const press = (key: string, more: Partial<ReviewKeyPress> = {}): ReviewKeyPress => ({ key, ctrlKey: false, altKey: false, metaKey: false, repeat: false, ...more });
const free = { typing: false, dialogOpen: false };

describe('the Review screen keys', () => {
  it('gives each action its own key, in either case', () => {
    expect(reviewActionForKey(press('a'), free)).toBe('approve');
    expect(reviewActionForKey(press('A'), free)).toBe('approve');
    expect(reviewActionForKey(press('r'), free)).toBe('reject');
    expect(reviewActionForKey(press('j'), free)).toBe('next');
    expect(reviewActionForKey(press('k'), free)).toBe('previous');
    expect(reviewActionForKey(press('z'), free)).toBe('zoom');
    expect(reviewActionForKey(press('t'), free)).toBe('rotate');
    expect(reviewActionForKey(press('?'), free)).toBe('help');
    expect(new Set(REVIEW_ACTIONS.map((action) => REVIEW_KEYS[action])).size).toBe(REVIEW_ACTIONS.length);
  });

  it('leaves other keys alone', () => {
    for (const key of ['x', 'Enter', 'Escape', ' ', 'ArrowRight', 'Tab']) expect(reviewActionForKey(press(key), free)).toBeNull();
  });

  it('ignores the keys while typing in a field or while a dialog is open', () => {
    expect(reviewActionForKey(press('a'), { typing: true, dialogOpen: false })).toBeNull();
    expect(reviewActionForKey(press('r'), { typing: false, dialogOpen: true })).toBeNull();
  });

  it('leaves the browser its shortcuts and acts once on a held key', () => {
    expect(reviewActionForKey(press('r', { ctrlKey: true }), free)).toBeNull();
    expect(reviewActionForKey(press('a', { metaKey: true }), free)).toBeNull();
    expect(reviewActionForKey(press('t', { altKey: true }), free)).toBeNull();
    expect(reviewActionForKey(press('a', { repeat: true }), free)).toBeNull();
  });
});
