import { describe, expect, it } from 'vitest';
import { UTF8_BOM } from '../../contract';
import { fileTimestamp, toCsv } from './csv';

describe('toCsv', () => {
  it("is the contract's writer: every CSV of the web app starts with the byte-order mark", () => {
    expect(toCsv(['A'], [['é']])).toBe(`${UTF8_BOM}A\r\né\r\n`);
  });
});

describe('fileTimestamp', () => {
  it('has no characters a file system refuses', () => {
    expect(fileTimestamp(new Date('2026-11-22T11:24:07.123Z'))).toBe('2026-11-22T11-24-07');
  });
});
