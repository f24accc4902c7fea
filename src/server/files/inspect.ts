import { createRequire } from 'node:module';
import type * as PdfJsModule from 'pdfjs-dist/legacy/build/pdf.mjs';
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

/**
 * libtiff reports the damage it reads past (a strip or tile it cannot read, a missing compression scheme,
 * data it must drop, a wrong count of image data offsets) as libvips warnings and fills the gap with black;
 * JPEG and PNG damage fails the read itself. Harmless TIFF warnings (a private tag libtiff does not know,
 * a date without its final NUL) do not match.
 */
const TIFF_DAMAGE = /error in (tile|strip)|read error|seek error|bad seek|not implemented|premature|unexpected end|IO error|discarding \d+ bytes|corrupt|decod\w* error|not enough data|truncat|"(Strip|Tile)(Offsets|ByteCounts)"/i;

/** Each image page is decoded to a thumbnail this size: every pixel of the file is read, little is kept. */
const THUMBNAIL = 64;
/** libvips' own cap on one operation, under the inspector thread's time limit (60 s). */
const SHARP_TIMEOUT_SECONDS = 45;

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
 *
 * `handOver`: the caller will not use the bytes again, so a decoder may take them over (pdf.js empties
 * the buffer it is given) instead of working on a copy.
 */
export async function inspectFile(
  kind: TFileKind,
  bytes: Uint8Array,
  limits: InspectionLimits = INSPECTION_LIMITS,
  options: { handOver?: boolean } = {},
): Promise<FileInspection> {
  try {
    if (kind === 'pdf') return await inspectPdf(options.handOver ? bytes : new Uint8Array(bytes), limits);
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
  if (kind === 'tiff' && !tiffStructureSound(input, limits.maxPages)) return corrupt(kind);
  const { width, height } = header;
  if (!width || !height) return corrupt(kind);
  if (width * height > limits.maxPixels) return { ok: false, code: 'IMAGE_TOO_LARGE', message: INSPECTION_MESSAGES.imageTooLarge(width, height) };
  const pages = header.pages ?? 1;
  if (pages > limits.maxPages) {
    return { ok: false, code: 'TOO_MANY_PAGES', message: INSPECTION_MESSAGES.tooManyPages('TIFF image', pages, limits.maxPages) };
  }
  for (let page = 0; page < pages; page++) {
    const read = await readPixels(input, page, kind === 'tiff' ? 'warning' : 'error', limits);
    if (read.ok) continue;
    if (read.timedOut) return tooComplex(kind);
    if (read.tooLarge) {
      const dimensions = await sharp(input, { page, limitInputPixels: false, failOn: 'none' }).metadata();
      return { ok: false, code: 'IMAGE_TOO_LARGE', message: INSPECTION_MESSAGES.imageTooLarge(dimensions.width ?? 0, dimensions.height ?? 0) };
    }
    // A TIFF that only warned of something harmless (a private tag libtiff does not know) is read again,
    // failing on errors alone.
    const harmless = kind === 'tiff' && read.warnings.length > 0 && !read.warnings.some((warning) => TIFF_DAMAGE.test(warning)) && !TIFF_DAMAGE.test(read.error);
    if (!harmless || !(await readPixels(input, page, 'error', limits)).ok) return corrupt(kind);
  }
  return { ok: true, width, height, ...(pages > 1 ? { pages } : {}) };
}

/** Bytes of one value of each TIFF field type (TIFF 6.0 and BigTIFF); other types are skipped, as libtiff does. */
const TIFF_TYPE_BYTES: Record<number, number> = { 1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8, 13: 4, 16: 8, 17: 8, 18: 8 };

/**
 * Compression schemes libtiff decodes (TIFF 6.0, Adobe, SGI, and the later LZMA, Zstandard and WebP ones).
 * libvips hands back an image of whatever it found for another scheme, without a warning.
 */
const TIFF_COMPRESSIONS = new Set([1, 2, 3, 4, 5, 6, 7, 8, 32771, 32773, 32946, 34676, 34677, 34925, 50000, 50001]);
const TIFF_COMPRESSION_TAG = 259;

/**
 * Whether every directory of a TIFF or BigTIFF, and every value a directory keeps outside itself, lies
 * inside the file, and each directory's compression is one libtiff decodes. libtiff stops quietly at a
 * directory past the end (a scan cut short after its first page reads as a one-page file), and ignores a
 * field whose values are cut off; either means the file is not whole. Directories are followed up to
 * `maxDirectories` (the page limit is checked apart), and a chain that loops is not whole either.
 */
function tiffStructureSound(tiff: Buffer, maxDirectories: number): boolean {
  const little = tiff[0] === 0x49;
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  const u64 = (at: number) => Number(little ? tiff.readBigUInt64LE(at) : tiff.readBigUInt64BE(at));
  if (tiff.length < 16) return false;
  const big = u16(2) === 43;
  const [countBytes, entryBytes, offsetBytes] = big ? [8, 20, 8] : [2, 12, 4];
  const offsetAt = (at: number) => (big ? u64(at) : u32(at));
  const seen = new Set<number>();
  for (let directory = offsetAt(big ? 8 : 4); directory !== 0; ) {
    if (seen.has(directory)) return false;
    if (seen.size > maxDirectories) return true;
    seen.add(directory);
    if (directory + countBytes > tiff.length) return false;
    const entries = big ? u64(directory) : u16(directory);
    const end = directory + countBytes + entries * entryBytes;
    if (end + offsetBytes > tiff.length) return false;
    for (let entry = directory + countBytes; entry < end; entry += entryBytes) {
      const size = TIFF_TYPE_BYTES[u16(entry + 2)];
      const count = big ? u64(entry + 4) : u32(entry + 4);
      if (u16(entry) === TIFF_COMPRESSION_TAG && size === 2 && count === 1 && !TIFF_COMPRESSIONS.has(u16(entry + 4 + (big ? 8 : 4)))) return false;
      if (size === undefined || size * count <= offsetBytes) continue;
      if (offsetAt(entry + 4 + (big ? 8 : 4)) + size * count > tiff.length) return false;
    }
    directory = offsetAt(end);
  }
  return true;
}

type PixelRead = { ok: true } | { ok: false; tooLarge: boolean; timedOut: boolean; error: string; warnings: string[] };

/**
 * Decodes one page down to a thumbnail. failOn 'error' for JPEG and PNG: a truncated file or broken data
 * fails, libjpeg's warnings about stray bytes (which every viewer ignores) do not. 'warning' for TIFF, whose
 * unreadable strips and tiles libvips reports only as warnings. limitInputPixels holds for every page.
 */
async function readPixels(input: Buffer, page: number, failOn: 'error' | 'warning', limits: InspectionLimits): Promise<PixelRead> {
  const warnings: string[] = [];
  try {
    const decoder = sharp(input, { page, failOn, limitInputPixels: limits.maxPixels, sequentialRead: true });
    decoder.on('warning', (warning: string) => warnings.push(warning));
    await decoder.timeout({ seconds: SHARP_TIMEOUT_SECONDS }).resize(THUMBNAIL, THUMBNAIL, { fit: 'inside' }).raw().toBuffer();
    return { ok: true };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, tooLarge: /pixel limit/i.test(message), timedOut: /timeout: \d+% complete/i.test(message), error: message, warnings };
  }
}

/** The part of libheif-js (libheif 1.x compiled to WebAssembly) used here. */
type HeifImageHandle = { handle: number; get_width(): number; get_height(): number; is_primary(): boolean; free(): void };
type HeifChannel = { id: unknown; width: number; height: number; stride: number; data: Uint8Array };
type Libheif = {
  HeifDecoder: new () => { decoder: number | null; decode(bytes: Uint8Array): HeifImageHandle[] };
  heif_context_free(context: number): void;
  heif_js_decode_image2(handle: number, colorspace: unknown, chroma: unknown): { channels: HeifChannel[]; image: number } | { code: unknown; message: string } | null;
  heif_image_release(image: number): void;
  heif_colorspace: { heif_colorspace_undefined: unknown; heif_colorspace_RGB: unknown };
  heif_chroma: { heif_chroma_undefined: unknown; heif_chroma_interleaved_RGBA: unknown };
  heif_channel: { heif_channel_interleaved: unknown };
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

/**
 * The primary image of a HEIF/HEIC photo as RGBA pixels (libheif applies its rotation and mirroring), or
 * null when it cannot be decoded. For reading a photo's text; the file was inspected before it was stored.
 */
export function decodeHeifImage(bytes: Uint8Array): { width: number; height: number; rgba: Uint8Array } | null {
  const lib = loadLibheif();
  const decoder = new lib.HeifDecoder();
  let images: HeifImageHandle[] = [];
  try {
    images = quietly(() => decoder.decode(bytes));
    const primary = images.find((image) => image.is_primary()) ?? images[0];
    if (!primary) return null;
    const decoded = quietly(() => lib.heif_js_decode_image2(primary.handle, lib.heif_colorspace.heif_colorspace_RGB, lib.heif_chroma.heif_chroma_interleaved_RGBA));
    if (!decoded || !('channels' in decoded)) return null;
    try {
      const channel = decoded.channels.find((candidate) => candidate.id === lib.heif_channel.heif_channel_interleaved);
      if (!channel) return null;
      const { width, height, stride } = channel;
      const rgba = new Uint8Array(width * height * 4);
      for (let row = 0; row < height; row++) rgba.set(channel.data.subarray(row * stride, row * stride + width * 4), row * width * 4);
      return { width, height, rgba };
    } finally {
      lib.heif_image_release(decoded.image);
    }
  } catch {
    return null;
  } finally {
    for (const image of images) image.free();
    if (decoder.decoder) lib.heif_context_free(decoder.decoder);
  }
}

type PdfJs = typeof PdfJsModule;
let pdfjs: Promise<PdfJs> | undefined;
/** pdf.js for Node (the legacy build); its parser runs in this thread, as pdf.js does where it has no worker. */
export function loadPdfJs(): Promise<PdfJs> {
  pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  return pdfjs;
}

/** `bytes` are taken over: pdf.js may empty the buffer it is given. */
async function inspectPdf(bytes: Uint8Array, limits: InspectionLimits): Promise<FileInspection> {
  const { getDocument, VerbosityLevel } = await loadPdfJs();
  const task = getDocument({
    data: bytes,
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
