/** The longest side a photo is sent with: sharp enough to read a form, a fraction of a phone camera's size. */
export const PHOTO_MAX_LONG_SIDE = 2000;

/** The JPEG quality photos are re-encoded with. */
export const PHOTO_JPEG_QUALITY = 0.85;

export interface PhotoSize {
  width: number;
  height: number;
}

/**
 * The size a photo is drawn at before it is sent: the same proportions, its long side at most `maxLongSide`,
 * never enlarged, whole pixels of at least 1. Sizes that are not positive finite numbers (an image the browser
 * could not measure) give null: the photo is then sent as it is.
 */
export function fitWithin(size: PhotoSize, maxLongSide = PHOTO_MAX_LONG_SIDE): PhotoSize | null {
  const { width, height } = size;
  if (!(Number.isFinite(width) && Number.isFinite(height) && width > 0 && height > 0 && maxLongSide > 0)) return null;
  const scale = Math.min(1, maxLongSide / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/** A file name for the re-encoded photo: its own name with .jpg, or page-N.jpg when it had none. */
export function photoFileName(original: string, pageNumber: number): string {
  const base = original.replace(/\.[^./\\]*$/, '').trim();
  return `${base === '' ? `page-${pageNumber}` : base}.jpg`;
}
