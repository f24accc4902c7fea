import { describe, expect, it } from 'vitest';
import { HIDDEN_FOR_ROLE_TEXT, onOffText, shownOrHidden } from './read-only-text';

describe('shownOrHidden', () => {
  it('shows a value the server sent', () => {
    expect(shownOrHidden('smtp.example.org')).toBe('smtp.example.org');
    expect(shownOrHidden(587)).toBe('587');
  });

  it('says a value the server left out is hidden from this role', () => {
    expect(shownOrHidden(null)).toBe(HIDDEN_FOR_ROLE_TEXT);
    expect(shownOrHidden(undefined)).toBe(HIDDEN_FOR_ROLE_TEXT);
  });

  it('tells an empty value (not set) from a hidden one', () => {
    expect(shownOrHidden('')).toBe('Not set');
    expect(shownOrHidden('  ', 'None')).toBe('None');
  });
});

describe('onOffText', () => {
  it('words a switch', () => {
    expect(onOffText(true)).toBe('On');
    expect(onOffText(false)).toBe('Off');
  });
});
