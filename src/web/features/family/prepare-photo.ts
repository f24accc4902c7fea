import { fitWithin, PHOTO_JPEG_QUALITY, PHOTO_MAX_LONG_SIDE, photoFileName } from './photo-sizing';

type Drawable = { source: CanvasImageSource; width: number; height: number; release: () => void };

/** The photo decoded upright (its EXIF orientation applied), by createImageBitmap or, failing that, an <img>. */
async function decode(file: Blob): Promise<Drawable> {
  try {
    const bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
    return { source: bitmap, width: bitmap.width, height: bitmap.height, release: () => bitmap.close() };
  } catch {
    const url = URL.createObjectURL(file);
    const image = new Image();
    image.src = url;
    try {
      await image.decode();
    } catch (error) {
      URL.revokeObjectURL(url);
      throw error;
    }
    return { source: image, width: image.naturalWidth, height: image.naturalHeight, release: () => URL.revokeObjectURL(url) };
  }
}

const toJpeg = (canvas: HTMLCanvasElement): Promise<Blob | null> =>
  new Promise((resolve) => canvas.toBlob(resolve, 'image/jpeg', PHOTO_JPEG_QUALITY));

/**
 * A photo made ready to send: drawn again at most PHOTO_MAX_LONG_SIDE px on its long side and encoded as JPEG.
 * Smaller on a slow network, and the new file carries none of the camera's metadata (the place it was taken).
 * A photo the browser cannot decode (HEIC outside Safari) is sent as it is, for the server to judge.
 */
export async function preparePhoto(file: File, pageNumber: number): Promise<File> {
  let drawable: Drawable;
  try {
    drawable = await decode(file);
  } catch {
    return file;
  }
  try {
    const size = fitWithin({ width: drawable.width, height: drawable.height }, PHOTO_MAX_LONG_SIDE);
    if (!size) return file;
    const canvas = document.createElement('canvas');
    canvas.width = size.width;
    canvas.height = size.height;
    const context = canvas.getContext('2d');
    if (!context) return file;
    // A transparent PNG (a screenshot) on white, as it would print, not on JPEG's black.
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, size.width, size.height);
    context.drawImage(drawable.source, 0, 0, size.width, size.height);
    const jpeg = await toJpeg(canvas);
    canvas.width = 0;
    canvas.height = 0;
    return jpeg ? new File([jpeg], photoFileName(file.name, pageNumber), { type: 'image/jpeg', lastModified: Date.now() }) : file;
  } finally {
    drawable.release();
  }
}
