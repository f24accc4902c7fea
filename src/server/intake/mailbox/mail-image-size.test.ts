import { describe, expect, it } from 'vitest';
import { gifImage, jpegImage, pngImage } from '../../../../tests/support/images';
import { IMAGE_HEAD_BYTES, readImageSize } from './mail-image-size';

describe('readImageSize', () => {
  it('reads PNG, GIF and JPEG headers', () => {
    expect(readImageSize(pngImage(180, 60))).toEqual({ width: 180, height: 60 });
    expect(readImageSize(gifImage(1, 1))).toEqual({ width: 1, height: 1 });
    expect(readImageSize(jpegImage(4032, 3024))).toEqual({ width: 4032, height: 3024 });
  });

  it('reads a JPEG frame header after a large EXIF block, within the bytes kept', () => {
    const photo = jpegImage(3024, 4032, { exifBytes: 60_000 });
    expect(readImageSize(photo.subarray(0, IMAGE_HEAD_BYTES))).toEqual({ width: 3024, height: 4032 });
  });

  it('reads BMP and WebP headers', () => {
    const bmp = Buffer.alloc(54);
    bmp.write('BM', 0, 'latin1');
    bmp.writeUInt32LE(40, 14);
    bmp.writeInt32LE(120, 18);
    bmp.writeInt32LE(-90, 22); // top-down
    expect(readImageSize(bmp)).toEqual({ width: 120, height: 90 });

    const vp8x = Buffer.alloc(30);
    vp8x.write('RIFF', 0, 'latin1');
    vp8x.write('WEBPVP8X', 8, 'latin1');
    vp8x.writeUIntLE(1999, 24, 3);
    vp8x.writeUIntLE(999, 27, 3);
    expect(readImageSize(vp8x)).toEqual({ width: 2000, height: 1000 });

    const lossless = Buffer.alloc(30);
    lossless.write('RIFF', 0, 'latin1');
    lossless.write('WEBPVP8L', 8, 'latin1');
    lossless[20] = 0x2f;
    lossless.writeUInt32LE((64 - 1) | ((32 - 1) << 14), 21);
    expect(readImageSize(lossless)).toEqual({ width: 64, height: 32 });
  });

  it('gives null for what it cannot read', () => {
    expect(readImageSize(Buffer.alloc(0))).toBeNull();
    expect(readImageSize(Buffer.from('%PDF-1.7\n'))).toBeNull();
    expect(readImageSize(pngImage(100, 100).subarray(0, 20))).toBeNull();
    expect(readImageSize(pngImage(0, 100))).toBeNull();
    // A JPEG cut off before its frame header, and one whose markers are damaged.
    expect(readImageSize(jpegImage(800, 600, { exifBytes: 60_000 }).subarray(0, 2_000))).toBeNull();
    expect(readImageSize(Buffer.from([0xff, 0xd8, 0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88]))).toBeNull();
  });
});
