import sharp from 'sharp';
import { estimateSkew, type GreyImage } from './deskew';

/**
 * A page made ready for OCR: grey, lit evenly, contrast stretched, straightened, at a size tesseract reads
 * well. Runs in the reader process (sharp for decoding, resizing and turning; plain loops for the rest).
 */

/**
 * Long side of a page handed to OCR: a letter page at 270 dpi, a phone's photo of one at about 250.
 * tesseract's WebAssembly memory grows with the picture and never shrinks: 3,500 pixels cost some 50 MB
 * more for the same words read.
 */
const MAX_LONG_SIDE = 3000;
/** A smaller picture is enlarged towards this long side (a small photo's letters are too few pixels tall). */
const MIN_LONG_SIDE = 2000;
/** …but never more than this many times: a small crop of a few words would grow letters too large. */
const MAX_ENLARGE = 2;
/** Long side of the copy the background and the slant are estimated on. */
const ESTIMATE_LONG_SIDE = 1000;
/** libvips' own cap on one operation. */
const SHARP_TIMEOUT_SECONDS = 60;

/** How much to scale a page whose long side is `longSide` pixels. */
export function ocrScale(longSide: number): number {
  if (longSide > MAX_LONG_SIDE) return MAX_LONG_SIDE / longSide;
  if (longSide < MIN_LONG_SIDE) return Math.min(MAX_ENLARGE, MIN_LONG_SIDE / longSide);
  return 1;
}

/** A picture as sharp takes it: a file's bytes (with the page of a multi-page TIFF), or raw pixels. */
export type PageSource = { file: Buffer; page?: number } | { raw: Uint8Array; width: number; height: number; channels: 1 | 3 | 4 };

/** Decodes a page (turned upright by its EXIF orientation), grey, at its OCR size. */
export async function decodeGrey(source: PageSource): Promise<GreyImage> {
  const input =
    'file' in source
      ? sharp(source.file, { page: source.page ?? 0, failOn: 'error', limitInputPixels: false })
      : sharp(Buffer.from(source.raw.buffer, source.raw.byteOffset, source.raw.byteLength), { raw: { width: source.width, height: source.height, channels: source.channels } });
  // Transparent parts (a PNG's) become white paper, not black.
  const grey = await toGrey(input.timeout({ seconds: SHARP_TIMEOUT_SECONDS }).rotate().flatten({ background: '#ffffff' }).greyscale());
  const scale = ocrScale(Math.max(grey.width, grey.height));
  if (scale === 1) return grey;
  return toGrey(fromGrey(grey).resize(Math.max(1, Math.round(grey.width * scale)), Math.max(1, Math.round(grey.height * scale)), { fit: 'fill', kernel: 'lanczos3' }));
}

/** sharp over a grey image's pixels. */
function fromGrey(image: GreyImage) {
  return sharp(Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength), { raw: { width: image.width, height: image.height, channels: 1 } });
}

/** A pipeline's result as a grey image (sharp would otherwise hand one channel back as three). */
async function toGrey(pipeline: sharp.Sharp): Promise<GreyImage> {
  const { data, info } = await pipeline.toColourspace('b-w').raw().toBuffer({ resolveWithObject: true });
  if (info.channels !== 1) throw new Error(`expected one channel, got ${info.channels}`);
  return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, info.width * info.height) };
}

function resizeGrey(image: GreyImage, width: number, height: number): Promise<GreyImage> {
  return toGrey(fromGrey(image).resize(width, height, { fit: 'fill' }));
}

/** Each pixel the brightest within `radius` along rows, then along columns (a grey dilation: dark strokes vanish). */
function maxFilter(image: GreyImage, radius: number): GreyImage {
  const { width, height } = image;
  const across = new Uint8Array(width * height);
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let max = 0;
      for (let dx = Math.max(0, x - radius); dx <= Math.min(width - 1, x + radius); dx++) max = Math.max(max, image.data[y * width + dx]!);
      across[y * width + x] = max;
    }
  }
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let max = 0;
      for (let dy = Math.max(0, y - radius); dy <= Math.min(height - 1, y + radius); dy++) max = Math.max(max, across[dy * width + x]!);
      out[y * width + x] = max;
    }
  }
  return { width, height, data: out };
}

/**
 * Evens out the lighting of a photographed page: the paper's brightness is estimated everywhere (the
 * brightest nearby pixel on a small copy, so the ink does not count, then smoothed) and each pixel is
 * divided by it, so a shadow or a lamp's gradient becomes white paper. Then the contrast is stretched:
 * the darkest ink to black. A clean scan comes out nearly as it went in.
 */
export async function flattenLighting(image: GreyImage): Promise<GreyImage> {
  const shrink = Math.min(1, 250 / Math.max(image.width, image.height));
  const small = await resizeGrey(image, Math.max(1, Math.round(image.width * shrink)), Math.max(1, Math.round(image.height * shrink)));
  // Radius 6 of 250 pixels: wider than the strokes of a heading, narrower than a shadow's edge.
  const paper = maxFilter(small, 6);
  const blurred = await toGrey(fromGrey(paper).blur(4));
  const { data: smooth } = await resizeGrey(blurred, image.width, image.height);
  const out = new Uint8Array(image.data.length);
  const histogram = new Uint32Array(256);
  for (let index = 0; index < out.length; index++) {
    const value = Math.min(255, Math.round((image.data[index]! * 255) / Math.max(smooth[index]!, 16)));
    out[index] = value;
    histogram[value]! += 1;
  }
  // The darkest half percent is taken as black ink (a few stray dark pixels do not count).
  let dark = 0;
  for (let seen = 0; dark < 255 && seen + histogram[dark]! < out.length * 0.005; dark++) seen += histogram[dark]!;
  if (dark > 0 && dark < 200) {
    const gain = 255 / (255 - dark);
    for (let index = 0; index < out.length; index++) out[index] = Math.max(0, Math.round((out[index]! - dark) * gain));
  }
  return { width: image.width, height: image.height, data: out };
}

/** Straightens a page whose text lines slant by up to 10°; the corners it turns in are white. */
export async function straighten(image: GreyImage): Promise<{ image: GreyImage; degrees: number }> {
  const shrink = Math.min(1, ESTIMATE_LONG_SIDE / Math.max(image.width, image.height));
  const small = shrink < 1 ? await resizeGrey(image, Math.max(1, Math.round(image.width * shrink)), Math.max(1, Math.round(image.height * shrink))) : image;
  const degrees = estimateSkew(small);
  if (degrees === 0) return { image, degrees };
  return { image: await toGrey(fromGrey(image).rotate(-degrees, { background: '#ffffff' })), degrees };
}

/** The whole preparation: decode, even lighting and contrast, straighten. */
export async function prepareForOcr(source: PageSource): Promise<GreyImage> {
  const grey = await decodeGrey(source);
  const even = await flattenLighting(grey);
  return (await straighten(even)).image;
}

/** A grey image as a binary PGM file: tesseract's image reader takes it without any encoding work. */
export function toPgm(image: GreyImage): Buffer {
  const header = Buffer.from(`P5\n${image.width} ${image.height}\n255\n`, 'latin1');
  return Buffer.concat([header, image.data]);
}
