import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { findUnstorableText, isStorableText, refuseUnstorableText, toStorableText, UNSTORABLE_NAME_MESSAGE, UNSTORABLE_TEXT_MESSAGE } from './storable-text';

describe('isStorableText', () => {
  it('accepts any well-formed text, pairs of surrogates (emoji) included', () => {
    for (const text of ['', 'Smith', "O'Brien-Łukasz", 'Zoë 😀', '\uFFFD', '\t\n\r', '\u0001\u001f\u007f', '𝒜']) {
      expect(isStorableText(text), JSON.stringify(text)).toBe(true);
    }
  });

  it('refuses a NUL character and a lone surrogate of either half, wherever it sits', () => {
    for (const text of ['\u0000', 'Smi\u0000th', 'Smith\u0000', '\ud800', 'a\udc00b', 'end\udbff', '😀'.slice(0, 1), '😀'.slice(1)]) {
      expect(isStorableText(text), JSON.stringify(text)).toBe(false);
    }
  });
});

describe('findUnstorableText', () => {
  it('finds nothing in storable values of any shape', () => {
    expect(findUnstorableText({ a: 'x', b: ['y', { c: 'z' }], d: 1, e: null, f: true, g: undefined })).toBeUndefined();
    expect(findUnstorableText('plain')).toBeUndefined();
    expect(findUnstorableText(42)).toBeUndefined();
    expect(findUnstorableText(null)).toBeUndefined();
    expect(findUnstorableText([])).toBeUndefined();
  });

  it('names the field of a bad string, through objects and arrays', () => {
    expect(findUnstorableText('\u0000')).toEqual({ path: [], inName: false });
    expect(findUnstorableText({ search: 'Smi\u0000th' })).toEqual({ path: ['search'], inName: false });
    expect(findUnstorableText({ files: [{ url: 'ok' }, { url: 'ok', filename: 'a\ud800.pdf' }] })).toEqual({
      path: ['files', 1, 'filename'],
      inName: false,
    });
  });

  it('reports the first bad field in document order', () => {
    expect(findUnstorableText({ a: { b: ['ok', '\ud800'] }, c: '\u0000' })).toEqual({ path: ['a', 'b', 1], inName: false });
    expect(findUnstorableText([['x'], '\u0000', ['\u0000']])).toEqual({ path: [1], inName: false });
  });

  it('refuses a bad field name, pointing at the object holding it and never repeating the name', () => {
    expect(findUnstorableText({ 'bad\u0000': 'fine' })).toEqual({ path: [], inName: true });
    expect(findUnstorableText({ player: { '\ud800': 1 } })).toEqual({ path: ['player'], inName: true });
  });

  it('reads objects without a prototype (how Fastify builds a query string)', () => {
    const query = Object.assign(Object.create(null) as Record<string, unknown>, { search: 'x\u0000' });
    expect(findUnstorableText(query)).toEqual({ path: ['search'], inName: false });
  });

  it('walks a deeply nested body without exhausting the call stack', () => {
    const depth = 100_000;
    const nested: unknown = JSON.parse(`${'['.repeat(depth)}"\\u0000"${']'.repeat(depth)}`);
    const found = findUnstorableText(nested);
    expect(found?.path).toHaveLength(depth);
    expect(found?.path.every((segment) => segment === 0)).toBe(true);
  });
});

describe('toStorableText', () => {
  it('drops NUL characters and replaces lone surrogates with the replacement character', () => {
    expect(toStorableText('Regi\u0000stration')).toBe('Registration');
    expect(toStorableText('a\ud800b\udc00c')).toBe('a\uFFFDb\uFFFDc');
    expect(toStorableText('\u0000\u0000')).toBe('');
  });

  it('leaves storable text as it is, emoji included', () => {
    for (const text of ['Ada Lovelace', 'Zoë 😀 𝒜', '']) expect(toStorableText(text)).toBe(text);
  });

  it('always gives storable text', () => {
    for (const text of ['\u0000\ud800\udbff\udc00', '😀'.slice(0, 1) + '\u0000' + '😀'.slice(1)]) {
      expect(isStorableText(toStorableText(text))).toBe(true);
    }
  });
});

describe('refuseUnstorableText', () => {
  const schema = refuseUnstorableText(z.object({ name: z.string().trim().min(1, 'is required'), tags: z.array(z.string()).default([]) }));

  it('passes storable input to the schema, with its transforms and defaults', () => {
    expect(schema.parse({ name: ' Ada ' })).toEqual({ name: 'Ada', tags: [] });
  });

  it('answers one issue naming the bad field, before the schema runs', () => {
    const result = schema.safeParse({ name: '', tags: ['ok', 'x\u0000'] });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map(({ path, message }) => ({ path, message }))).toEqual([{ path: ['tags', 1], message: UNSTORABLE_TEXT_MESSAGE }]);
  });

  it('judges a field the schema would drop: unknown fields are not let through with bad text either', () => {
    const result = schema.safeParse({ name: 'Ada', extra: '\ud800' });
    expect(result.error?.issues.map(({ path, message }) => ({ path, message }))).toEqual([{ path: ['extra'], message: UNSTORABLE_TEXT_MESSAGE }]);
  });

  it('names the object holding a bad field name', () => {
    const result = schema.safeParse({ name: 'Ada', ['x\u0000']: 1 });
    expect(result.error?.issues.map(({ path, message }) => ({ path, message }))).toEqual([{ path: [], message: UNSTORABLE_NAME_MESSAGE }]);
  });
});
