import { describe, expect, it } from 'vitest';
import { combine } from './read-document';

describe('combine', () => {
  it('joins pages with a blank line and weighs confidence by how much text each page gave', () => {
    const read = combine([
      { text: 'a'.repeat(300), confidence: 1, ocr: false },
      { text: 'b'.repeat(100), confidence: 0.6, ocr: true },
    ]);
    expect(read).toEqual({ text: `${'a'.repeat(300)}\n\n${'b'.repeat(100)}`, confidence: 0.9, method: 'ocr', pages: 2 });
  });

  it('says pdf-text when no page needed OCR', () => {
    expect(combine([{ text: 'Birth certificate', confidence: 1, ocr: false }])).toMatchObject({ method: 'pdf-text', confidence: 1, pages: 1 });
  });

  it('has no confidence when no page gave any text', () => {
    expect(combine([{ text: '', confidence: 0, ocr: true }])).toEqual({ text: '', confidence: null, method: 'ocr', pages: 1 });
  });
});
