import { describe, expect, it } from 'vitest';
import { sanitizeOriginalFilename, sniffFileType, SNIFF_HEAD_BYTES, validateFile } from './validate';

const MB = 1024 * 1024;
const LIMIT = 20 * MB;

const bytesOf = (...parts: Array<string | number[] | Buffer>) =>
  Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part))));

const PDF = bytesOf('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n');
const JPEG = bytesOf([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10], 'JFIF\0');
const PNG = bytesOf([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d], 'IHDR');
const TIFF_LE = bytesOf('II*\0', [0x08, 0x00, 0x00, 0x00]);
const TIFF_BE = bytesOf('MM\0*', [0x00, 0x00, 0x00, 0x08]);
const BIGTIFF_LE = bytesOf('II+\0', [0x08, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00]);
const BIGTIFF_BE = bytesOf('MM\0+', [0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10]);

/** An ISO-BMFF `ftyp` box as phones write it: size, 'ftyp', major brand, minor version, compatible brands. */
function ftyp(major: string, compatible: string[]): Buffer {
  const size = 16 + 4 * compatible.length;
  const box = Buffer.alloc(size + 8);
  box.writeUInt32BE(size, 0);
  box.write('ftyp', 4, 'latin1');
  box.write(major, 8, 'latin1');
  compatible.forEach((brand, index) => box.write(brand, 16 + 4 * index, 'latin1'));
  box.write('meta', size + 4, 'latin1'); // the next box, so brands past the ftyp box are not read
  return box;
}
const HEIC_IPHONE = ftyp('heic', ['mif1', 'heic']);

const accept = (head: Buffer, filename: string, bytes = 1000) => validateFile({ head, filename, bytes, maxBytes: LIMIT });

describe('sniffFileType', () => {
  it.each([
    ['PDF (%PDF-)', PDF, 'pdf'],
    ['JPEG (FF D8 FF)', JPEG, 'jpeg'],
    ['PNG (89 50 4E 47 0D 0A 1A 0A)', PNG, 'png'],
    ['little-endian TIFF (II*\\0)', TIFF_LE, 'tiff'],
    ['big-endian TIFF (MM\\0*)', TIFF_BE, 'tiff'],
    ['little-endian BigTIFF (II+\\0)', BIGTIFF_LE, 'tiff'],
    ['big-endian BigTIFF (MM\\0+)', BIGTIFF_BE, 'tiff'],
    ['a camera .hif (heix, as Canon, Sony and Fujifilm write it)', ftyp('heix', ['mif1', 'heix']), 'heic'],
    ['HEIF of the second edition (mif2)', ftyp('mif2', ['mif2', 'heic']), 'heic'],
    ['iPhone HEIC (major brand heic)', HEIC_IPHONE, 'heic'],
    ['HEIF with major brand mif1 and compatible heic', ftyp('mif1', ['mif1', 'heic']), 'heic'],
    ['HEIC burst sequence (msf1, hevc)', ftyp('msf1', ['msf1', 'hevc']), 'heic'],
    ['HEIF with only the heix brand as compatible', ftyp('isom', ['heix']), 'heic'],
  ])('recognises %s', (_label, head, kind) => {
    expect(sniffFileType(head)).toBe(kind);
  });

  it.each([
    ['a Windows executable (MZ)', bytesOf('MZ\x90\0\x03\0\0\0')],
    ['an ELF binary', bytesOf([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01])],
    ['a shell script', bytesOf('#!/bin/sh\nrm -rf /\n')],
    ['a zip archive (PK)', bytesOf('PK\x03\x04\x14\0')],
    ['an AVIF image (same container, not HEIC)', ftyp('avif', ['avif', 'mif1', 'miaf'])],
    ['an MP4 video', ftyp('isom', ['isom', 'iso2', 'mp41'])],
    ['a GIF', bytesOf('GIF89a')],
    ['plain text', bytesOf('Dear league, please find attached')],
    ['a truncated PNG signature', PNG.subarray(0, 5)],
    ['nothing at all', Buffer.alloc(0)],
  ])('refuses %s', (_label, head) => {
    expect(sniffFileType(head)).toBeUndefined();
  });

  it('accepts a PDF header after leading bytes, as PDF readers do', () => {
    expect(sniffFileType(bytesOf('\xef\xbb\xbf\r\n', PDF))).toBe('pdf');
    expect(sniffFileType(Buffer.concat([Buffer.alloc(1019, 0x20), PDF]))).toBe('pdf');
  });

  it('looks for the PDF header only within the first 1024 bytes', () => {
    expect(SNIFF_HEAD_BYTES).toBe(1024);
    // '%PDF-' starting at 1019 ends at byte 1024; one byte later it no longer fits.
    expect(sniffFileType(Buffer.concat([Buffer.alloc(1020, 0x20), PDF]))).toBeUndefined();
  });

  it('refuses an executable that carries a PDF header after its first bytes (polyglot)', () => {
    expect(sniffFileType(bytesOf('MZ\x90\0', PDF))).toBeUndefined();
    expect(sniffFileType(bytesOf('PK\x03\x04', PDF))).toBeUndefined();
    expect(sniffFileType(bytesOf('#!/bin/sh\n# ', PDF))).toBeUndefined();
  });

  it('does not read brands past the end of the ftyp box', () => {
    const box = ftyp('isom', ['mp41']);
    box.write('heic', box.length - 4, 'latin1'); // inside the next box, not a brand
    expect(sniffFileType(box)).toBeUndefined();
  });
});

describe('validateFile', () => {
  it('accepts a PDF named .pdf, with its mime type and extension', () => {
    expect(accept(PDF, 'Emma Smith - Birth Cert.pdf')).toEqual({
      ok: true,
      kind: 'pdf',
      mime: 'application/pdf',
      extension: 'pdf',
      filename: 'Emma Smith - Birth Cert.pdf',
    });
  });

  it.each([
    [JPEG, 'IMG_2041.JPG', 'jpeg', 'image/jpeg', 'jpg'],
    [JPEG, 'photo.jpeg', 'jpeg', 'image/jpeg', 'jpg'],
    [PNG, 'screenshot.png', 'png', 'image/png', 'png'],
    [TIFF_LE, 'scan.tiff', 'tiff', 'image/tiff', 'tif'],
    [TIFF_BE, 'scan.TIF', 'tiff', 'image/tiff', 'tif'],
    [HEIC_IPHONE, 'IMG_5521.HEIC', 'heic', 'image/heic', 'heic'],
    [HEIC_IPHONE, 'IMG_5521.heif', 'heic', 'image/heic', 'heic'],
    [ftyp('heix', ['mif1', 'heix']), 'DSC01234.HIF', 'heic', 'image/heic', 'heic'],
    [BIGTIFF_LE, 'scan.tif', 'tiff', 'image/tiff', 'tif'],
  ])('accepts %#: %s as %s', (head, filename, kind, mime, extension) => {
    expect(accept(head, filename)).toMatchObject({ ok: true, kind, mime, extension, filename });
  });

  it('accepts a name without extension and gives it the one of its type', () => {
    expect(accept(PNG, 'scan')).toMatchObject({ ok: true, kind: 'png', filename: 'scan.png' });
    expect(accept(PDF, 'Birth Cert v2.1')).toMatchObject({ ok: true, filename: 'Birth Cert v2.1.pdf' });
  });

  it('refuses an empty file', () => {
    expect(validateFile({ head: Buffer.alloc(0), filename: 'a.pdf', bytes: 0, maxBytes: LIMIT })).toEqual({
      ok: false,
      code: 'EMPTY_FILE',
      message: 'The file is empty',
    });
  });

  it('accepts a file of exactly the size limit', () => {
    expect(accept(PDF, 'a.pdf', LIMIT)).toMatchObject({ ok: true });
  });

  it('refuses a file one byte over the limit, without showing it as equal to the limit', () => {
    expect(accept(PDF, 'a.pdf', LIMIT + 1)).toEqual({
      ok: false,
      code: 'TOO_LARGE',
      message: 'The file is 20.1 MB; the limit is 20 MB',
    });
  });

  it('states size and limit the way a staff member reads them', () => {
    expect(accept(PDF, 'a.pdf', 21 * MB)).toMatchObject({
      message: 'The file is 21.0 MB; the limit is 20 MB',
    });
    expect(validateFile({ head: PDF, filename: 'a.pdf', bytes: 600 * 1024, maxBytes: 512 * 1024 })).toMatchObject({
      message: 'The file is 600.0 KB; the limit is 512 KB',
    });
  });

  it('refuses an executable renamed .pdf', () => {
    expect(accept(bytesOf('MZ\x90\0\x03\0\0\0'), 'invoice.pdf')).toEqual({
      ok: false,
      code: 'UNSUPPORTED_TYPE',
      message: 'Attachment is not a PDF or image',
    });
  });

  it.each([
    ['a Word document', bytesOf('PK\x03\x04\x14\0\x06\0'), 'form.docx'],
    ['an ELF binary', bytesOf([0x7f, 0x45, 0x4c, 0x46]), 'waiver.pdf'],
    ['a script', bytesOf('#!/usr/bin/env node\n'), 'medical.pdf'],
    ['a GIF', bytesOf('GIF89a'), 'birth.gif'],
  ])('refuses %s as unsupported', (_label, head, filename) => {
    expect(accept(head, filename)).toMatchObject({ ok: false, code: 'UNSUPPORTED_TYPE' });
  });

  it('refuses a PNG named .pdf and says what it really is', () => {
    expect(accept(PNG, 'birth-certificate.pdf')).toEqual({
      ok: false,
      code: 'EXTENSION_MISMATCH',
      message: 'The file is a PNG image but is named .pdf',
    });
  });

  it.each([
    [PDF, 'scan.png', 'The file is a PDF but is named .png'],
    [JPEG, 'photo.heic', 'The file is a JPEG image but is named .heic'],
    [HEIC_IPHONE, 'photo.jpg', 'The file is a HEIC image but is named .jpg'],
    [PDF, 'invoice.pdf.exe', 'The file is a PDF but is named .exe'],
    [PDF, 'invoice\u202Efdp.exe', 'The file is a PDF but is named .exe'],
    [PDF, 'invoice.pdf\0.exe', 'The file is a PDF but is named .exe'],
  ])('refuses a mismatched name %#: %j', (head, filename, message) => {
    expect(accept(head, filename)).toEqual({ ok: false, code: 'EXTENSION_MISMATCH', message });
  });

  it('checks size before type, so an oversized executable is reported as too large', () => {
    expect(accept(bytesOf('MZ'), 'x.exe', LIMIT + 1)).toMatchObject({ code: 'TOO_LARGE' });
  });
});

describe('sanitizeOriginalFilename', () => {
  it('keeps an ordinary name as it is', () => {
    expect(sanitizeOriginalFilename('Emma Smith - Birth Cert.pdf')).toBe('Emma Smith - Birth Cert.pdf');
    expect(sanitizeOriginalFilename('Zoë Côté – waiver.pdf')).toBe('Zoë Côté – waiver.pdf');
  });

  it('strips ../ and directories of both slash kinds', () => {
    expect(sanitizeOriginalFilename('../../etc/passwd')).toBe('passwd');
    expect(sanitizeOriginalFilename('..\\..\\windows\\win.ini')).toBe('win.ini');
    expect(sanitizeOriginalFilename('scans/../waiver.pdf')).toBe('waiver.pdf');
  });

  it('keeps only the file name of a Windows path', () => {
    expect(sanitizeOriginalFilename('C:\\Users\\Emma\\Desktop\\Birth Cert.pdf')).toBe('Birth Cert.pdf');
    expect(sanitizeOriginalFilename('C:waiver.pdf')).toBe('waiver.pdf');
    expect(sanitizeOriginalFilename('\\\\server\\share\\medical.pdf')).toBe('medical.pdf');
  });

  it('drops NUL and other control characters, and turns line breaks into spaces', () => {
    expect(sanitizeOriginalFilename('waiver\0.pdf')).toBe('waiver.pdf');
    expect(sanitizeOriginalFilename('birth\x07\x1b[31mcert.pdf')).toBe('birth[31mcert.pdf');
    expect(sanitizeOriginalFilename('sports\r\nphysical.pdf')).toBe('sports physical.pdf');
  });

  it('removes right-to-left overrides that disguise the real extension', () => {
    expect(sanitizeOriginalFilename('invoice\u202Efdp.exe')).toBe('invoicefdp.exe');
    expect(sanitizeOriginalFilename('a\u202Ab\u202Bc\u202Cd\u202De\u2066f\u2067g\u2068h\u2069.pdf')).toBe('abcdefgh.pdf');
  });

  it('caps a 300-character name at 200 characters and keeps the extension', () => {
    const name = sanitizeOriginalFilename(`${'a'.repeat(300)}.pdf`);
    expect(name).toHaveLength(200);
    expect(name.endsWith('aaa.pdf')).toBe(true);
  });

  it('never cuts a character in half when capping', () => {
    const name = sanitizeOriginalFilename(`${'😀'.repeat(300)}.jpg`);
    expect(Array.from(name)).toHaveLength(200);
    expect(name.endsWith('😀.jpg')).toBe(true);
    expect(name).not.toMatch(/\p{Cs}/u); // no lone surrogate
  });

  it('falls back to document when nothing usable is left', () => {
    expect(sanitizeOriginalFilename('')).toBe('document');
    expect(sanitizeOriginalFilename('../')).toBe('document');
    expect(sanitizeOriginalFilename('\u202E\0 ')).toBe('document');
    expect(sanitizeOriginalFilename('...')).toBe('document');
  });

  it('removes leading dots so a name cannot pose as a hidden file', () => {
    expect(sanitizeOriginalFilename('.htaccess')).toBe('htaccess');
  });

  it('gives validateFile a fallback name that still gets its extension', () => {
    expect(accept(PDF, '../')).toMatchObject({ ok: true, filename: 'document.pdf' });
  });
});
