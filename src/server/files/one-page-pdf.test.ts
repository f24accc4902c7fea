import { describe, expect, it } from 'vitest';
import { inspectFile } from './inspect';
import { onePagePdf } from './one-page-pdf';

describe('onePagePdf', () => {
  it('writes accented letters and dashes in WinAnsiEncoding, escapes parentheses, and shows the rest as ?', () => {
    const text = onePagePdf(['DEMO — Birth Certificate — Zoë Núñez', 'Sent as "scan (1).pdf" – 100 € 王']).toString('latin1');
    expect(text).toContain('/BaseFont /Helvetica /Encoding /WinAnsiEncoding');
    expect(text).toContain('(DEMO \x97 Birth Certificate \x97 Zo\xeb N\xfa\xf1ez) Tj');
    expect(text).toContain('(Sent as "scan \\(1\\).pdf" \x96 100 \x80 ?) Tj');
  });

  it('is a PDF its decoder opens, one page, with one line or several', async () => {
    for (const pdf of [onePagePdf('one line'), onePagePdf(['first', 'second', 'third'], 22)]) {
      expect(await inspectFile('pdf', pdf)).toMatchObject({ ok: true, pages: 1 });
    }
  });
});
