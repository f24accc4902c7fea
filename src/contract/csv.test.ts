import { describe, expect, it } from 'vitest';
import { csvText, toCsv, UTF8_BOM } from './csv';

describe('toCsv', () => {
  it('starts with the UTF-8 byte-order mark, EF BB BF once encoded, so Excel reads accents', () => {
    const csv = toCsv(['Name'], [['Côté']]);
    expect(csv.startsWith(UTF8_BOM)).toBe(true);
    const bytes = new TextEncoder().encode(csv);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder().decode(bytes.subarray(3))).toBe('Name\r\nCôté\r\n');
  });

  it('writes a header and rows separated by CRLF', () => {
    expect(toCsv(['A', 'B'], [[1, 'x'], [2, null]])).toBe(`${UTF8_BOM}A,B\r\n1,x\r\n2,\r\n`);
  });

  it('quotes fields holding commas, quotes or line breaks', () => {
    expect(toCsv(['Name'], [['Smith, Ava'], ['say "hi"'], ['two\nlines']])).toBe(`${UTF8_BOM}Name\r\n"Smith, Ava"\r\n"say ""hi"""\r\n"two\nlines"\r\n`);
  });

  it('defuses text a spreadsheet would run as a formula, but not negative numbers', () => {
    expect(toCsv(['X'], [['=1+1'], ['@SUM(A1)'], [-5]])).toBe(`${UTF8_BOM}X\r\n'=1+1\r\n'@SUM(A1)\r\n-5\r\n`);
  });
});

describe('csvText', () => {
  it('writes rows of any length, blank ones included, with one byte-order mark at the start', () => {
    expect(csvText([['Title', 'Fall'], [], ['A', 'B', 'C']])).toBe(`${UTF8_BOM}Title,Fall\r\n\r\nA,B,C\r\n`);
    expect(csvText([]).split(UTF8_BOM)).toHaveLength(2);
  });
});
