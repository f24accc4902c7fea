import { describe, expect, it } from 'vitest';
import { fileTimestamp, toCsv } from './csv';

describe('toCsv', () => {
  it('writes a header and rows separated by CRLF', () => {
    expect(toCsv(['A', 'B'], [[1, 'x'], [2, null]])).toBe('A,B\r\n1,x\r\n2,\r\n');
  });
  it('quotes fields holding commas, quotes or line breaks', () => {
    expect(toCsv(['Name'], [['Smith, Ava'], ['say "hi"'], ['two\nlines']])).toBe('Name\r\n"Smith, Ava"\r\n"say ""hi"""\r\n"two\nlines"\r\n');
  });
  it('defuses text a spreadsheet would run as a formula, but not negative numbers', () => {
    expect(toCsv(['X'], [['=1+1'], ['@SUM(A1)'], [-5]])).toBe("X\r\n'=1+1\r\n'@SUM(A1)\r\n-5\r\n");
  });
});

describe('fileTimestamp', () => {
  it('has no characters a file system refuses', () => {
    expect(fileTimestamp(new Date('2026-11-22T11:24:07.123Z'))).toBe('2026-11-22T11-24-07');
  });
});
