import { describe, expect, it } from 'vitest';
import { formatDocumentTitle } from './use-document-title';

describe('formatDocumentTitle', () => {
  it('puts the screen before the app name', () => {
    expect(formatDocumentTitle('Players')).toBe('Players · Clearbase');
  });

  it('is just the app name without a screen', () => {
    expect(formatDocumentTitle()).toBe('Clearbase');
  });
});
