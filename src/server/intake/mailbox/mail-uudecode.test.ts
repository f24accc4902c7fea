import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { uuencode } from '../../../../tests/support/mail';
import { createUudecoder, decodeUuLine, extractUuencodedFiles, isUuencodedTransfer, parseBeginLine } from './mail-uudecode';

/** Streams `text` through the decoder in chunks of `size` characters, so lines are cut at every place. */
async function decodeStream(text: string, size: number, onBegin?: (name: string) => void): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for (let i = 0; i < text.length; i += size) chunks.push(Buffer.from(text.slice(i, i + size), 'latin1'));
  return buffer(Readable.from(chunks).pipe(createUudecoder(onBegin)));
}

describe('decodeUuLine', () => {
  it('decodes the lines uuencode writes (checked against Python binascii.b2a_uu)', () => {
    expect(decodeUuLine('#0V%T')).toEqual(Buffer.from('Cat'));
    expect(decodeUuLine('.)5!$1BTQ+C0@:&5L;&\\`')).toEqual(Buffer.from('%PDF-1.4 hello'));
    expect(decodeUuLine('M``$"`P0%!@<("0H+#`T.#Q`1$A,4%187&!D:&QP=\'A\\@(2(C)"4F)R@I*BLL')).toEqual(Buffer.from(Array.from({ length: 45 }, (_, i) => i)));
  });

  it('reads a line whose trailing spaces a relay stripped as zeros, and a CRLF ending', () => {
    // "A\0\0" encodes as "!00  " with spaces (not backticks) for the zero bits.
    expect(decodeUuLine('#00')).toEqual(Buffer.from([0x41, 0, 0]));
    expect(decodeUuLine('#0V%T\r')).toEqual(Buffer.from('Cat'));
  });

  it('says a zero-length line is one, and refuses what is not a data line', () => {
    expect(decodeUuLine('`')).toEqual(Buffer.alloc(0));
    expect(decodeUuLine(' ')).toEqual(Buffer.alloc(0));
    expect(decodeUuLine('')).toBeNull();
    expect(decodeUuLine('Hello, here are the forms for Sam.')).toBeNull();
    expect(decodeUuLine('#0V%T and more text after it')).toBeNull();
    expect(decodeUuLine('~~~~')).toBeNull();
  });

  it('reads the name of a begin line', () => {
    expect(parseBeginLine('begin 644 birth certificate.pdf')).toBe('birth certificate.pdf');
    expect(parseBeginLine('begin 0600 scan.jpg\r')).toBe('scan.jpg');
    expect(parseBeginLine('begin the season with the forms')).toBeNull();
  });

  it('knows the transfer encodings mail programs write for uuencode', () => {
    expect(['x-uuencode', 'uuencode', 'X-UUE', ' uue ', 'x-uu'].map(isUuencodedTransfer)).toEqual([true, true, true, true, true]);
    expect(['base64', 'quoted-printable', '7bit', '', null, undefined].map(isUuencodedTransfer)).toEqual([false, false, false, false, false, false]);
  });
});

describe('createUudecoder', () => {
  const file = randomBytes(3_000);
  const encoded = uuencode(file, 'scan 1.pdf');

  it.each([1, 7, 61, 62, 4096, 1_000_000])('gives back the file whatever the chunk size (%i)', async (size) => {
    const names: string[] = [];
    expect(await decodeStream(encoded, size, (name) => names.push(name))).toEqual(file);
    expect(names).toEqual(['scan 1.pdf']);
  });

  it('reads CRLF lines, skips what comes before begin and ignores what follows end', async () => {
    const text = `Some scanner preamble\r\n\r\n${encoded.replace(/\n/g, '\r\n')}begin 644 second.pdf\r\n#0V%T\r\n\`\r\nend\r\n`;
    expect(await decodeStream(text, 100)).toEqual(file);
  });

  it('reads a part without a begin line from its first line', async () => {
    expect(await decodeStream('#0V%T\n`\nend\n', 3)).toEqual(Buffer.from('Cat'));
  });

  it('gives nothing for a part that is not uuencoded, and drops over-long lines without failing', async () => {
    expect(await decodeStream('This is not uuencoded at all.\nNor is this.\n', 10)).toEqual(Buffer.alloc(0));
    expect(await decodeStream(`begin 644 x.pdf\n${'A'.repeat(5_000)}\n#0V%T\n\`\nend\n`, 50)).toEqual(Buffer.from('Cat'));
  });

  it('keeps what came before a file that was cut off (no end line)', async () => {
    const cut = encoded.split('\n').slice(0, 10).join('\n');
    expect(await decodeStream(cut, 64)).toEqual(file.subarray(0, 45 * 9));
  });
});

describe('extractUuencodedFiles', () => {
  it('takes every begin…end block out of the text, decoded, and keeps the rest of the text', () => {
    const first = randomBytes(500);
    const second = Buffer.from('%PDF-1.4 a tiny pdf');
    const text = ['Player: Sam Lee', 'DOB: 2014-05-03', '', uuencode(first, 'birth.jpg').trimEnd(), 'Thanks,', uuencode(second, 'waiver form.pdf').trimEnd(), 'Mary'].join('\n');
    const result = extractUuencodedFiles(text);
    expect(result.files).toEqual([
      { filename: 'birth.jpg', content: first },
      { filename: 'waiver form.pdf', content: second },
    ]);
    expect(result.text).toBe(['Player: Sam Lee', 'DOB: 2014-05-03', '', 'Thanks,', 'Mary'].join('\n'));
  });

  it('reads CRLF text and a zero-length line whose space was stripped', () => {
    const text = 'Hello\r\nbegin 644 cat.txt\r\n#0V%T\r\n\r\nend\r\nBye';
    expect(extractUuencodedFiles(text)).toEqual({ text: 'Hello\r\nBye', files: [{ filename: 'cat.txt', content: Buffer.from('Cat') }] });
  });

  it('leaves a sentence that starts like a begin line alone, and a block without an end', () => {
    const prose = 'begin 644 is what the scanner wrote, I do not know why\nPlayer: Sam Lee';
    expect(extractUuencodedFiles(prose)).toEqual({ text: prose, files: [] });
    const cut = 'begin 644 cut.pdf\n#0V%T\nPlayer: Sam Lee';
    expect(extractUuencodedFiles(cut)).toEqual({ text: cut, files: [] });
  });

  it('returns the text as it is when there is nothing uuencoded', () => {
    expect(extractUuencodedFiles('Player: Sam Lee\nDOB: 2014-05-03')).toEqual({ text: 'Player: Sam Lee\nDOB: 2014-05-03', files: [] });
  });
});
