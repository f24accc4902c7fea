import { createRequire } from 'node:module';
import path from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import type * as PdfJsModule from 'pdfjs-dist/legacy/build/pdf.mjs';
import sharp from 'sharp';
import { decodeHeifImage } from '../files';
import type { PageSource } from './preprocess';

/**
 * The pages of a stored document, as text (a PDF page's own text layer) or as a picture to OCR (a PDF page
 * without text, rendered; each page of a TIFF; a photo). Runs in the reader process.
 */

/** Why a file gave no pages: said to staff in words by reader.ts. */
export type UnreadableReason = 'damaged' | 'password' | 'unsupported';

export class UnreadableFile extends Error {
  constructor(readonly reason: UnreadableReason) {
    super(`unreadable file: ${reason}`);
    this.name = 'UnreadableFile';
  }
}

/** A PDF page with at least this many characters besides spaces has a real text layer (not a stray page number). */
export const MIN_TEXT_LAYER_CHARS = 20;
/** PDF pages are rendered for OCR at 300 dpi, tesseract's own measure… */
const RENDER_DPI = 300;
/** …and no larger on their long side than OCR takes them (preprocess.ts; a poster-sized page would be hundreds of megabytes). */
const RENDER_MAX_LONG_SIDE = 3000;

export type PdfPage = { kind: 'text'; text: string } | { kind: 'picture'; source: () => Promise<PageSource> };

type PdfJs = typeof PdfJsModule;
let pdfjs: Promise<PdfJs> | undefined;
function loadPdfJs(): Promise<PdfJs> {
  // Loaded natively by reader-process-boot.mjs before tsx; this import finds it already there.
  pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  return pdfjs;
}

/** pdf.js's own data (standard fonts, character maps, the JPEG 2000 and JBIG2 decoders), read from node_modules. */
function pdfJsDataFolder(folder: string): string {
  const packageJson = createRequire(import.meta.url).resolve('pdfjs-dist/package.json');
  return `${path.join(path.dirname(packageJson), folder)}/`;
}

/**
 * Opens a PDF and hands each of its pages, in order, to `visit`: the text of a page with a text layer, or
 * a picture of the page (rendered on demand) for one without. `visit` answers whether to go on.
 */
export async function visitPdfPages(bytes: Uint8Array, visit: (page: PdfPage, number: number) => Promise<boolean>): Promise<number> {
  const { getDocument, VerbosityLevel } = await loadPdfJs();
  const task = getDocument({
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    enableXfa: false,
    useSystemFonts: false,
    standardFontDataUrl: pdfJsDataFolder('standard_fonts'),
    cMapUrl: pdfJsDataFolder('cmaps'),
    cMapPacked: true,
    wasmUrl: pdfJsDataFolder('wasm'),
    verbosity: VerbosityLevel.ERRORS,
  });
  try {
    let document;
    try {
      document = await task.promise;
    } catch (error) {
      throw new UnreadableFile(error instanceof Error && error.name === 'PasswordException' ? 'password' : 'damaged');
    }
    const pages = document.numPages;
    for (let number = 1; number <= pages; number++) {
      let page;
      try {
        page = await document.getPage(number);
      } catch {
        throw new UnreadableFile('damaged');
      }
      const text = await pageText(page);
      const visited: PdfPage = text.replace(/\s/g, '').length >= MIN_TEXT_LAYER_CHARS ? { kind: 'text', text } : { kind: 'picture', source: () => renderPage(page) };
      const goOn = await visit(visited, number);
      page.cleanup();
      if (!goOn) break;
    }
    return pages;
  } finally {
    await task.destroy().catch(() => undefined);
  }
}

type PdfPageProxy = Awaited<ReturnType<Awaited<ReturnType<PdfJs['getDocument']>['promise']>['getPage']>>;

/** A page's text layer, a line break wherever the text moves to another line. */
async function pageText(page: PdfPageProxy): Promise<string> {
  const content = await page.getTextContent();
  let text = '';
  let last: { y: number; end: number } | undefined;
  for (const item of content.items) {
    if (!('str' in item)) continue;
    if (!item.str) {
      if (item.hasEOL && text && !text.endsWith('\n')) text += '\n';
      continue;
    }
    const x = Number(item.transform[4]);
    const y = Number(item.transform[5]);
    const size = Math.max(1, item.height);
    if (last && Math.abs(y - last.y) > size / 2) {
      if (!text.endsWith('\n')) text += '\n';
    } else if (last && x - last.end > size * 0.15 && !/\s$/.test(text) && !/^\s/.test(item.str)) {
      // The next piece of text starts a word's gap after the last one: a space the PDF did not write.
      text += ' ';
    }
    text += item.str;
    if (item.hasEOL) text += '\n';
    last = { y, end: x + item.width };
  }
  return text
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** A page drawn as a scanner would see it: 300 dpi, on white. */
async function renderPage(page: PdfPageProxy): Promise<PageSource> {
  const unscaled = page.getViewport({ scale: 1 });
  const scale = Math.min(RENDER_DPI / 72, RENDER_MAX_LONG_SIDE / Math.max(unscaled.width, unscaled.height));
  const viewport = page.getViewport({ scale });
  const width = Math.max(1, Math.floor(viewport.width));
  const height = Math.max(1, Math.floor(viewport.height));
  const canvas = createCanvas(width, height);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, width, height);
  // pdf.js's Node build draws on @napi-rs/canvas (its own canvas factory uses it there), while its types name the
  // browser's context, which has members no drawing uses (focus rings): the context joins the parameters as it is.
  const parameters: Parameters<PdfPageProxy['render']>[0] = { canvas: null, viewport };
  await page.render(Object.assign(parameters, { canvasContext: context })).promise;
  const pixels = context.getImageData(0, 0, width, height).data;
  return { raw: new Uint8Array(pixels.buffer, pixels.byteOffset, pixels.byteLength), width, height, channels: 4 };
}

/** The pictures of an image file: one, or each page of a multi-page TIFF (up to `maxPages`). */
export async function imagePages(bytes: Uint8Array, mime: string, maxPages: number): Promise<{ pages: number; sources: PageSource[] }> {
  const file = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (mime === 'image/heic' || mime === 'image/heif') {
    const decoded = decodeHeifImage(bytes);
    if (!decoded) throw new UnreadableFile('damaged');
    return { pages: 1, sources: [{ raw: decoded.rgba, width: decoded.width, height: decoded.height, channels: 4 }] };
  }
  if (!['image/jpeg', 'image/png', 'image/tiff'].includes(mime)) throw new UnreadableFile('unsupported');
  let pages: number;
  try {
    const header = await sharp(file, { failOn: 'error', limitInputPixels: false }).metadata();
    if (!header.width || !header.height) throw new UnreadableFile('damaged');
    pages = header.pages ?? 1;
  } catch {
    throw new UnreadableFile('damaged');
  }
  const count = Math.min(pages, maxPages);
  return { pages, sources: Array.from({ length: count }, (_, page) => ({ file, page })) };
}
