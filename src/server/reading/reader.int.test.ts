import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import PDFDocument from 'pdfkit';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { onePagePdf } from '../files';
import { createDocumentReader, ReadingError, type ReaderProcessEvent } from './reader';

/** A birth certificate's lines, as a parent's scan or photo would show them. */
const LINES = ['CERTIFICATE OF LIVE BIRTH', 'Name of child: Maria Elena Alvarez', 'Date of birth: March 14, 2014', 'Place of birth: Springfield General Hospital', 'Registered on 03/21/2014 by the County Registrar'];

/** A page of text drawn by sharp (librsvg) in a system font, as a grey PNG. */
function textPage(lines: readonly string[], width = 1275, height = 1650, fontSize = 30): Promise<Buffer> {
  const text = lines
    .map((line, index) => `<text x="${width * 0.1}" y="${height * 0.12 + index * fontSize * 2}" font-family="Liberation Serif, DejaVu Serif" font-size="${fontSize}">${line}</text>`)
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#ffffff"/>${text}</svg>`;
  return sharp(Buffer.from(svg)).flatten({ background: '#ffffff' }).greyscale().png().toBuffer();
}

/** The page as a phone sees it: turned 6°, lit from one side, a little out of focus, saved as a poor JPEG. */
async function phonePhoto(page: Buffer): Promise<Buffer> {
  const { data, info } = await sharp(page).rotate(6, { background: '#ffffff' }).greyscale().raw().toBuffer({ resolveWithObject: true });
  const { width, height } = info;
  const colour = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const light = 0.45 + 0.5 * (x / width) * (0.6 + 0.4 * (y / height));
      const value = (data[y * width + x] ?? 255) * light;
      colour.set([Math.round(value * 0.95), Math.round(value * 0.9), Math.round(value * 0.8)], (y * width + x) * 3);
    }
  }
  return sharp(colour, { raw: { width, height, channels: 3 } }).blur(1.2).jpeg({ quality: 60 }).toBuffer();
}

/** A PDF whose only page is a picture of text (a scan), made by pdfkit. */
function imageOnlyPdf(png: Buffer): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const doc = new PDFDocument({ size: [612, 792], margin: 0 });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.image(png, 0, 0, { width: 612, height: 792 });
    doc.end();
  });
}

/** A two-page TIFF: the certificate, then a second page of the same size. */
async function twoPageTiff(first: Buffer, second: Buffer): Promise<Buffer> {
  const pages = await Promise.all([first, second].map((page) => sharp(page).greyscale().raw().toBuffer({ resolveWithObject: true })));
  const { width, height } = pages[0]!.info;
  const stacked = Buffer.concat(pages.map((page) => page.data));
  return sharp(stacked, { raw: { width, height: height * 2, channels: 1, pageHeight: height } }).tiff({ compression: 'lzw' }).toBuffer();
}

describe('the document reader', () => {
  const reader = createDocumentReader({ idleMs: 1_000 });
  afterAll(() => reader.close());

  it('reads a PDF text layer as it is, with full confidence and without OCR', async () => {
    const read = await reader.read({ bytes: onePagePdf(LINES), mime: 'application/pdf' });
    expect(read).toMatchObject({ method: 'pdf-text', confidence: 1, pages: 1 });
    expect(read.text).toContain('Maria Elena Alvarez');
    expect(read.text).toContain('March 14, 2014');
    expect(read.text.split('\n')).toContain('Date of birth: March 14, 2014');
    expect(read.seconds).toBeGreaterThan(0);
  });

  it('reads a clean scan by OCR, with high confidence', async () => {
    const read = await reader.read({ bytes: await textPage(LINES), mime: 'image/png' });
    expect(read).toMatchObject({ method: 'ocr', pages: 1 });
    expect(read.text).toContain('Maria Elena Alvarez');
    expect(read.text).toContain('March 14, 2014');
    expect(read.text).toContain('03/21/2014');
    expect(read.confidence).toBeGreaterThan(0.85);
    expect(read.confidence).toBeLessThanOrEqual(1);
  });

  it('reads a PDF that is only a picture of its text by rendering the page and reading it by OCR', async () => {
    const read = await reader.read({ bytes: await imageOnlyPdf(await textPage(LINES)), mime: 'application/pdf' });
    expect(read).toMatchObject({ method: 'ocr', pages: 1 });
    expect(read.text).toContain('Maria Elena Alvarez');
    expect(read.text).toContain('March 14, 2014');
    expect(read.confidence).toBeGreaterThan(0.8);
  });

  it('reads a slanted, unevenly lit, blurred phone photo once it is straightened and its lighting evened out', async () => {
    const read = await reader.read({ bytes: await phonePhoto(await textPage(LINES)), mime: 'image/jpeg' });
    expect(read.method).toBe('ocr');
    expect(read.text).toContain('Alvarez');
    expect(read.text).toContain('March 14, 2014');
    expect(read.confidence).toBeGreaterThan(0.7);
  });

  it('reads each page of a multi-page TIFF, in order', async () => {
    const tiff = await twoPageTiff(await textPage(LINES), await textPage(['Immunization record', 'Measles vaccine given June 2, 2015']));
    const read = await reader.read({ bytes: tiff, mime: 'image/tiff' });
    expect(read).toMatchObject({ method: 'ocr', pages: 2 });
    expect(read.text.indexOf('March 14, 2014')).toBeGreaterThanOrEqual(0);
    expect(read.text.indexOf('June 2, 2015')).toBeGreaterThan(read.text.indexOf('March 14, 2014'));
  });

  it('refuses a damaged file, or a type it cannot read, with a sentence for staff', async () => {
    const photo = await sharp(await textPage(['Damaged'], 400, 300)).jpeg().toBuffer();
    for (const file of [
      { bytes: photo.subarray(0, photo.length / 3), mime: 'image/jpeg' },
      { bytes: Buffer.from('%PDF-1.4\nthis is not a PDF at all'), mime: 'application/pdf' },
      { bytes: photo, mime: 'image/heic' },
      { bytes: Buffer.from('plain words'), mime: 'text/plain' },
    ]) {
      const error = await reader.read(file).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ReadingError);
      expect((error as ReadingError).message).toMatch(/^This file could not be read: [a-z].+\.$/);
      expect((error as ReadingError).message).not.toMatch(/\/|\\|at /);
    }
  });

  it('ends its process on close and when idle, and starts it again for a later read', async () => {
    const events: ReaderProcessEvent[] = [];
    const watched = createDocumentReader({ idleMs: 500, onProcess: (event) => events.push(event) });
    await watched.read({ bytes: onePagePdf(LINES), mime: 'application/pdf' });
    await watched.close();
    expect(events).toEqual([{ type: 'started' }, { type: 'ended', why: 'closed' }]);
    const read = await watched.read({ bytes: onePagePdf(LINES), mime: 'application/pdf' });
    expect(read.text).toContain('Springfield General Hospital');
    await sleep(1_000);
    expect(events.slice(2)).toEqual([{ type: 'started' }, { type: 'ended', why: 'idle' }]);
  });

  it.runIf(process.platform === 'linux')('runs with none of the server’s settings, and with an allocator that gives back what a page took', async () => {
    const secret = 'reader-must-not-see-this-password';
    process.env.CLEARBASE_PASSWORD = secret;
    const watched = createDocumentReader();
    try {
      await watched.read({ bytes: onePagePdf(LINES), mime: 'application/pdf' });
      const environment = readerEnvironment();
      expect(environment).toContain('MALLOC_MMAP_THRESHOLD_=131072');
      expect(environment).toContain('MALLOC_TRIM_THRESHOLD_=131072');
      expect(environment.some((entry) => entry.startsWith('CLEARBASE_') || entry.includes(secret))).toBe(false);
    } finally {
      delete process.env.CLEARBASE_PASSWORD;
      await watched.close();
    }
  });

  it('gives up on a document past its time limit, and reads the next one', async () => {
    const events: ReaderProcessEvent[] = [];
    const hurried = createDocumentReader({ timeoutMs: 400, onProcess: (event) => events.push(event) });
    try {
      // Loading tesseract alone takes longer than that.
      const error = await hurried.read({ bytes: await textPage(LINES), mime: 'image/png' }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ReadingError);
      expect((error as ReadingError).message).toBe('This file could not be read: it took too long to read.');
      expect(events).toContainEqual({ type: 'ended', why: 'timeout' });
      const next = await hurried.read({ bytes: onePagePdf(LINES), mime: 'application/pdf' });
      expect(next.method).toBe('pdf-text');
    } finally {
      await hurried.close();
    }
  });
});

/** The environment of this process's one document reader process (Linux: its /proc entry). */
function readerEnvironment(): string[] {
  const readers = readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        return parent === process.pid && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('reader-process-boot');
      } catch {
        return false;
      }
    });
  expect(readers).toHaveLength(1);
  return readFileSync(`/proc/${readers[0]}/environ`, 'utf8').split('\0');
}
