import { createRequire } from 'node:module';
import sharp from 'sharp';
import type { TFileKind, TInspectionRefusalCode } from './validate';

/**
 * A file opened by its decoder, after its first bytes said what it is (validate.ts): an image is decoded
 * down to its last pixel, a PDF is parsed and every page object loaded. A truncated photo, a broken or
 * password-protected PDF is refused here, with a sentence a parent can act on, instead of being stored
 * for staff to find. Runs in an inspector thread (inspector.ts), which is ended if it takes too long.
 *
 * Libraries: sharp (libvips, prebuilt in its npm packages) for JPEG, PNG and TIFF including BigTIFF;
 * libheif compiled to WebAssembly (libheif-js) for HEIC/HEIF, since sharp's prebuilt libvips has no HEVC
 * decoder; pdf.js (pdfjs-dist, the build for Node) for PDF.
 */

export type FileInspection =
  | { ok: true; pages?: number; width?: number; height?: number }
  | { ok: false; code: TInspectionRefusalCode; message: string };

export type InspectionLimits = {
  /** Pixels of one JPEG, PNG or TIFF page: past it the file is refused before it is decoded. */
  maxPixels: number;
  /** Pixels of one HEIF image: decoded in WebAssembly, several times slower than sharp, so lower. */
  maxHeifPixels: number;
  /** Pages of a PDF, or of a multi-page TIFF. */
  maxPages: number;
};

/**
 * 16383 × 16383 (sharp's own default, 268 MP) keeps any phone photo (the 200 MP ones are 16320 × 12240);
 * 100 MP keeps the 48 MP HEIF of recent phones; 1,000 pages is far past any registration document.
 * A larger declared size is a decompression bomb or a mistake, and is refused without being decoded.
 */
export const INSPECTION_LIMITS: InspectionLimits = { maxPixels: 16_383 * 16_383, maxHeifPixels: 100_000_000, maxPages: 1_000 };

/** Each image page is decoded to a thumbnail this size: every pixel of the file is read, little is kept. */
const THUMBNAIL = 64;
/** libvips' own cap on one operation, under the inspector's time limit. */
const SHARP_TIMEOUT_SECONDS = 60;

const number = new Intl.NumberFormat('en-US');

/** Sentences a parent reads, by what went wrong and what the file is. */
export const INSPECTION_MESSAGES = {
  corruptImage: 'This image is damaged or incomplete (it could not be opened); please take the photo again.',
  corruptPdf: 'This PDF is damaged and cannot be opened; please export it again.',
  emptyPdf: 'This PDF has no pages; please export it again.',
  passwordProtected: 'This PDF is password-protected; please send it without a password.',
  imageTooLarge: (width: number, height: number) =>
    `This image is too large to open (${number.format(width)} × ${number.format(height)} pixels); please send a smaller photo or scan.`,
  tooManyPages: (label: string, pages: number, max: number) =>
    `This ${label} has ${number.format(pages)} pages; at most ${number.format(max)} are accepted. Please send only the pages that are needed.`,
  tooComplexImage: 'This image could not be opened in time (it may be damaged); please take the photo again.',
  tooComplexPdf: 'This PDF could not be opened in time (it may be damaged); please export it again.',
} as const;

/** The refusal for a file whose decoder ran out of time or memory, or ended without an answer. */
export function tooComplex(kind: TFileKind): FileInspection {
  return { ok: false, code: 'TOO_COMPLEX', message: kind === 'pdf' ? INSPECTION_MESSAGES.tooComplexPdf : INSPECTION_MESSAGES.tooComplexImage };
}

const corrupt = (kind: TFileKind): FileInspection => ({
  ok: false,
  code: 'CORRUPT_FILE',
  message: kind === 'pdf' ? INSPECTION_MESSAGES.corruptPdf : INSPECTION_MESSAGES.corruptImage,
});

/**
 * Opens `bytes` as a file of `kind` (what sniffFileType said). Never throws for a bad file: whatever the
 * decoder reports, or throws, is a refusal. Runs in the calling thread: intake calls it through a
 * FileInspector, whose thread can be ended when a file hangs its decoder.
 */
export async function inspectFile(kind: TFileKind, bytes: Uint8Array, limits: InspectionLimits = INSPECTION_LIMITS): Promise<FileInspection> {
  try {
    if (kind === 'pdf') return await inspectPdf(bytes, limits);
    if (kind === 'heic') return inspectHeif(bytes, limits);
    return await inspectRaster(kind, bytes, limits);
  } catch {
    return corrupt(kind);
  }
}

const SHARP_FORMAT = { jpeg: 'jpeg', png: 'png', tiff: 'tiff' } as const;

async function inspectRaster(kind: 'jpeg' | 'png' | 'tiff', bytes: Uint8Array, limits: InspectionLimits): Promise<FileInspection> {
  const input = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The header only: format, size and page count, before a pixel is decoded.
  const header = await sharp(input, { limitInputPixels: false, failOn: 'none' }).metadata();
  if (header.format !== SHARP_FORMAT[kind]) return corrupt(kind);
  const { width, height } = header;
  if (!width || !height) return corrupt(kind);
  if (width * height > limits.maxPixels) return { ok: false, code: 'IMAGE_TOO_LARGE', message: INSPECTION_MESSAGES.imageTooLarge(width, height) };
  const pages = header.pages ?? 1;
  if (pages > limits.maxPages) {
    return { ok: false, code: 'TOO_MANY_PAGES', message: INSPECTION_MESSAGES.tooManyPages('TIFF image', pages, limits.maxPages) };
  }
  for (let page = 0; page < pages; page++) {
    try {
      // failOn 'error': a truncated file or broken data fails (libjpeg's warnings about stray bytes, which
      // every viewer ignores, do not); limitInputPixels holds for the later pages of a TIFF too.
      await sharp(input, { page, failOn: 'error', limitInputPixels: limits.maxPixels, sequentialRead: true })
        .timeout({ seconds: SHARP_TIMEOUT_SECONDS })
        .resize(THUMBNAIL, THUMBNAIL, { fit: 'inside' })
        .raw()
        .toBuffer();
    } catch (error) {
      if (error instanceof Error && /pixel limit/i.test(error.message)) {
        const dimensions = await sharp(input, { page, limitInputPixels: false, failOn: 'none' }).metadata();
        return { ok: false, code: 'IMAGE_TOO_LARGE', message: INSPECTION_MESSAGES.imageTooLarge(dimensions.width ?? 0, dimensions.height ?? 0) };
      }
      return corrupt(kind);
    }
  }
  return { ok: true, width, height, ...(pages > 1 ? { pages } : {}) };
}

/** The part of libheif-js (libheif 1.x compiled to WebAssembly) used here. */
type HeifImageHandle = { handle: number; get_width(): number; get_height(): number; free(): void };
type Libheif = {
  HeifDecoder: new () => { decoder: number | null; decode(bytes: Uint8Array): HeifImageHandle[] };
  heif_context_free(context: number): void;
  heif_js_decode_image2(handle: number, colorspace: unknown, chroma: unknown): { channels: unknown[]; image: number } | { code: unknown; message: string } | null;
  heif_image_release(image: number): void;
  heif_colorspace: { heif_colorspace_undefined: unknown };
  heif_chroma: { heif_chroma_undefined: unknown };
};

let libheif: Libheif | undefined;
/** Loaded on the first HEIF file (half a second of WebAssembly start-up that other files do not need). */
function loadLibheif(): Libheif {
  libheif ??= createRequire(import.meta.url)('libheif-js/wasm-bundle') as Libheif;
  return libheif;
}

/** libheif-js prints its failures with console.log; the refusal says what a parent needs to know. */
function quietly<T>(run: () => T): T {
  const log = console.log;
  console.log = () => undefined;
  try {
    return run();
  } finally {
    console.log = log;
  }
}

function inspectHeif(bytes: Uint8Array, limits: InspectionLimits): FileInspection {
  const lib = loadLibheif();
  const decoder = new lib.HeifDecoder();
  let images: HeifImageHandle[] = [];
  try {
    images = quietly(() => decoder.decode(bytes));
    const [first] = images;
    if (!first) return corrupt('heic');
    for (const image of images) {
      const width = image.get_width();
      const height = image.get_height();
      if (width * height > limits.maxHeifPixels) return { ok: false, code: 'IMAGE_TOO_LARGE', message: INSPECTION_MESSAGES.imageTooLarge(width, height) };
    }
    // The first top-level image, decoded in full (its own colour space: no conversion is needed to know
    // that every coded block is there). A burst's other frames are sized above, not decoded.
    const decoded = quietly(() => lib.heif_js_decode_image2(first.handle, lib.heif_colorspace.heif_colorspace_undefined, lib.heif_chroma.heif_chroma_undefined));
    if (!decoded || !('channels' in decoded)) return corrupt('heic');
    lib.heif_image_release(decoded.image);
    return { ok: true, width: first.get_width(), height: first.get_height(), ...(images.length > 1 ? { pages: images.length } : {}) };
  } finally {
    for (const image of images) image.free();
    if (decoder.decoder) lib.heif_context_free(decoder.decoder);
  }
}

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let pdfjs: Promise<PdfJs> | undefined;
/** pdf.js for Node (the legacy build); its parser runs in this thread, as pdf.js does where it has no worker. */
export function loadPdfJs(): Promise<PdfJs> {
  pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  return pdfjs;
}

async function inspectPdf(bytes: Uint8Array, limits: InspectionLimits): Promise<FileInspection> {
  const { getDocument, VerbosityLevel } = await loadPdfJs();
  const task = getDocument({
    // pdf.js may take over the buffer it is given; the caller keeps its own.
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    enableXfa: false,
    verbosity: VerbosityLevel.ERRORS,
  });
  try {
    let document;
    try {
      document = await task.promise;
    } catch (error) {
      if (error instanceof Error && error.name === 'PasswordException') {
        return { ok: false, code: 'PASSWORD_PROTECTED', message: INSPECTION_MESSAGES.passwordProtected };
      }
      return corrupt('pdf');
    }
    const pages = document.numPages;
    if (pages < 1) return { ok: false, code: 'CORRUPT_FILE', message: INSPECTION_MESSAGES.emptyPdf };
    if (pages > limits.maxPages) return { ok: false, code: 'TOO_MANY_PAGES', message: INSPECTION_MESSAGES.tooManyPages('PDF', pages, limits.maxPages) };
    for (let number = 1; number <= pages; number++) await document.getPage(number);
    return { ok: true, pages };
  } finally {
    await task.destroy().catch(() => undefined);
  }
}
