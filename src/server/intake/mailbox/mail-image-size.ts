/**
 * An image's width and height as its header states them (PNG, GIF, JPEG, WebP, BMP), from its first bytes, so
 * the mailbox can tell a signature logo from a photo without decoding the picture. Anything it cannot read
 * (another format, a header past the bytes given, a damaged file) is null: the caller then decides by size alone.
 */
export type ImageSize = { width: number; height: number };

/** Enough for every header but a JPEG's after a large EXIF block (a camera photo, never a logo). */
export const IMAGE_HEAD_BYTES = 64 * 1024;

export function readImageSize(head: Buffer): ImageSize | null {
  try {
    return png(head) ?? gif(head) ?? bmp(head) ?? webp(head) ?? jpeg(head);
  } catch {
    return null;
  }
}

const sized = (width: number, height: number): ImageSize | null => (width > 0 && height > 0 ? { width, height } : null);

function png(head: Buffer): ImageSize | null {
  if (head.length < 24 || head.readUInt32BE(0) !== 0x89504e47 || head.toString('latin1', 12, 16) !== 'IHDR') return null;
  return sized(head.readUInt32BE(16), head.readUInt32BE(20));
}

function gif(head: Buffer): ImageSize | null {
  if (head.length < 10 || !/^GIF8[79]a$/.test(head.toString('latin1', 0, 6))) return null;
  return sized(head.readUInt16LE(6), head.readUInt16LE(8));
}

function bmp(head: Buffer): ImageSize | null {
  if (head.length < 26 || head.toString('latin1', 0, 2) !== 'BM') return null;
  // A BITMAPINFOHEADER or later (its size is at least 40); a negative height is a top-down bitmap.
  if (head.readUInt32LE(14) < 40) return null;
  return sized(Math.abs(head.readInt32LE(18)), Math.abs(head.readInt32LE(22)));
}

function webp(head: Buffer): ImageSize | null {
  if (head.length < 30 || head.toString('latin1', 0, 4) !== 'RIFF' || head.toString('latin1', 8, 12) !== 'WEBP') return null;
  const chunk = head.toString('latin1', 12, 16);
  if (chunk === 'VP8 ') return sized(head.readUInt16LE(26) & 0x3fff, head.readUInt16LE(28) & 0x3fff);
  if (chunk === 'VP8L') {
    if (head[20] !== 0x2f) return null;
    const bits = head.readUInt32LE(21);
    return sized((bits & 0x3fff) + 1, ((bits >> 14) & 0x3fff) + 1);
  }
  if (chunk === 'VP8X') return sized(head.readUIntLE(24, 3) + 1, head.readUIntLE(27, 3) + 1);
  return null;
}

/** The frame header (SOF0–SOF15 but DHT, JPG and DAC) gives the size; markers before it are skipped by their length. */
function jpeg(head: Buffer): ImageSize | null {
  if (head.length < 4 || head[0] !== 0xff || head[1] !== 0xd8) return null;
  let at = 2;
  while (at + 9 <= head.length) {
    if (head[at] !== 0xff) return null;
    const marker = head[at + 1] ?? 0;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2; // markers without a length
      continue;
    }
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return sized(head.readUInt16BE(at + 7), head.readUInt16BE(at + 5));
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end of image, start of scan: no frame header before them
    at += 2 + head.readUInt16BE(at + 2);
  }
  return null;
}
