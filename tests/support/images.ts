/**
 * Image files whose headers state a width and height, built byte by byte (no image library): the mailbox tells
 * logos from photos by those headers. The pixels after the header are filler; only the header is read.
 */
const u32be = (value: number) => {
  const out = Buffer.alloc(4);
  out.writeUInt32BE(value);
  return out;
};
const u16be = (value: number) => {
  const out = Buffer.alloc(2);
  out.writeUInt16BE(value);
  return out;
};

/** A PNG: signature and IHDR chunk, then `filler` bytes. */
export function pngImage(width: number, height: number, filler = 0): Buffer {
  const ihdr = Buffer.concat([u32be(width), u32be(height), Buffer.from([8, 6, 0, 0, 0])]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    u32be(13),
    Buffer.from('IHDR', 'latin1'),
    ihdr,
    u32be(0),
    Buffer.alloc(filler, 0x41),
  ]);
}

/** A JPEG as a camera writes it: SOI, JFIF APP0, an EXIF APP1 of `exifBytes`, then a progressive frame header. */
export function jpegImage(width: number, height: number, options: { filler?: number; exifBytes?: number } = {}): Buffer {
  const segment = (marker: number, body: Buffer) => Buffer.concat([Buffer.from([0xff, marker]), u16be(body.length + 2), body]);
  const exif = Math.min(options.exifBytes ?? 0, 65_000);
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    segment(0xe0, Buffer.from('JFIF\u0000\u0001\u0001\u0000\u0000\u0001\u0000\u0001\u0000\u0000', 'latin1')),
    ...(exif > 0 ? [segment(0xe1, Buffer.concat([Buffer.from('Exif\u0000\u0000', 'latin1'), Buffer.alloc(exif - 6, 0x20)]))] : []),
    segment(0xdb, Buffer.alloc(65, 1)),
    segment(0xc2, Buffer.concat([Buffer.from([8]), u16be(height), u16be(width), Buffer.from([3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1])])),
    Buffer.from([0xff, 0xda]),
    Buffer.alloc(options.filler ?? 0, 0x55),
    Buffer.from([0xff, 0xd9]),
  ]);
}

/** A GIF89a logical screen of that size. */
export function gifImage(width: number, height: number, filler = 0): Buffer {
  const size = Buffer.alloc(4);
  size.writeUInt16LE(width, 0);
  size.writeUInt16LE(height, 2);
  return Buffer.concat([Buffer.from('GIF89a', 'latin1'), size, Buffer.from([0xf7, 0, 0]), Buffer.alloc(filler, 0), Buffer.from([0x3b])]);
}
