import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';

/**
 * Files for the decoding tests, all made when the tests run: valid files of every accepted type, and files
 * that must be refused (cut short, damaged in their structure by seeded byte changes, password-protected,
 * named for another type, bombs that declare a huge size). Images are encoded by sharp, HEIC and .hif
 * photos by heif-enc (Debian's libheif-examples, with x265), password-protected PDFs by qpdf; PDFs are
 * written here. Deterministic: the same seed gives the same files.
 */

const run = promisify(execFile);

export type ValidType = 'pdf' | 'jpeg' | 'png' | 'tiff' | 'bigtiff' | 'heic' | 'hif';
export const VALID_TYPES: readonly ValidType[] = ['pdf', 'jpeg', 'png', 'tiff', 'bigtiff', 'heic', 'hif'];

export type ValidFile = { type: ValidType; label: string; filename: string; bytes: Buffer };

/** How a refused file must be refused: one of these codes (a fuzzed file may fail one check or another). */
export type RefusedFile = { label: string; filename: string; bytes: Buffer; codes: readonly string[] };

// ---------------------------------------------------------------------------------------------------------
// Randomness and pixels

/** mulberry32: a small seeded generator, so every run makes the same files. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const between = (random: () => number, low: number, high: number) => low + Math.floor(random() * (high - low + 1));
const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

/** A picture a camera could take: gradients, a few shapes and some noise, `channels` 1 to 4. */
function pixels(random: () => number, width: number, height: number, channels: 1 | 2 | 3 | 4): Buffer {
  const data = Buffer.alloc(width * height * channels);
  const [fx, fy, phase, noise] = [random() * 6 + 1, random() * 6 + 1, random() * 255, between(random, 0, 40)];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      for (let c = 0; c < channels; c++) {
        const wave = 127 + 100 * Math.sin((x / width) * fx + (y / height) * fy + c + phase);
        const value = c === 3 ? 255 - ((x * 3) % 64) : wave + (random() - 0.5) * noise;
        data[(y * width + x) * channels + c] = Math.max(0, Math.min(255, Math.round(value)));
      }
    }
  }
  return data;
}

const image = (random: () => number, width: number, height: number, channels: 1 | 2 | 3 | 4) =>
  sharp(pixels(random, width, height, channels), { raw: { width, height, channels } });

// ---------------------------------------------------------------------------------------------------------
// PDFs

export type PdfLayout = {
  bytes: Buffer;
  /** Byte ranges of objects by number, and where the xref table starts. */
  objects: Map<number, { start: number; end: number }>;
  xref: number;
  catalog: number;
  pagesTree: number;
  pages: number[];
};

/**
 * A PDF as exporters write one: pages with text (Flate-compressed or not) and, on some, a JPEG photo.
 * The catalog and the page tree are the last objects, so a file cut anywhere before its xref table has
 * lost its catalog: no reader can rebuild it (a file whose body is whole but whose table is cut is
 * repaired by every viewer, and is no test of a refusal).
 */
export function writePdf(options: { pages: number; text: string; compress?: boolean; photo?: Buffer; photoSize?: [number, number]; version?: string }): PdfLayout {
  const bodies: Buffer[] = [];
  const add = (body: Buffer | string) => bodies.push(Buffer.isBuffer(body) ? body : Buffer.from(body, 'latin1')) + 0;
  const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  const photo = options.photo
    ? add(
        Buffer.concat([
          Buffer.from(
            `<< /Type /XObject /Subtype /Image /Width ${options.photoSize?.[0] ?? 1} /Height ${options.photoSize?.[1] ?? 1} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode /Length ${options.photo.length} >>\nstream\n`,
          ),
          options.photo,
          Buffer.from('\nendstream'),
        ]),
      )
    : undefined;
  const pageCount = options.pages;
  const total = bodies.length + pageCount * 2 + 2;
  const pagesTree = total - 1;
  const catalog = total;
  const pages: number[] = [];
  for (let page = 1; page <= pageCount; page++) {
    const drawing = `BT /F1 16 Tf 72 720 Td (${options.text.replace(/[()\\]/g, '')} - page ${page}) Tj ET${photo ? ' q 200 0 0 150 72 400 cm /Im1 Do Q' : ''}`;
    const raw = Buffer.from(drawing, 'latin1');
    const data = options.compress ? deflateSync(raw) : raw;
    const content = add(Buffer.concat([Buffer.from(`<< /Length ${data.length}${options.compress ? ' /Filter /FlateDecode' : ''} >>\nstream\n`), data, Buffer.from('\nendstream')]));
    const resources = `<< /Font << /F1 ${font} 0 R >>${photo ? ` /XObject << /Im1 ${photo} 0 R >>` : ''} >>`;
    pages.push(add(`<< /Type /Page /Parent ${pagesTree} 0 R /MediaBox [0 0 612 792] /Contents ${content} 0 R /Resources ${resources} >>`));
  }
  add(`<< /Type /Pages /Kids [${pages.map((n) => `${n} 0 R`).join(' ')}] /Count ${pageCount} >>`);
  add(`<< /Type /Catalog /Pages ${pagesTree} 0 R >>`);

  const parts: Buffer[] = [Buffer.from(`%PDF-${options.version ?? '1.7'}\n%\xe2\xe3\xcf\xd3\n`, 'latin1')];
  let length = parts[0]?.length ?? 0;
  const objects = new Map<number, { start: number; end: number }>();
  bodies.forEach((body, index) => {
    const piece = Buffer.concat([Buffer.from(`${index + 1} 0 obj\n`), body, Buffer.from('\nendobj\n')]);
    objects.set(index + 1, { start: length, end: length + piece.length });
    parts.push(piece);
    length += piece.length;
  });
  const xref = length;
  const entries = [...objects.values()].map(({ start }) => `${String(start).padStart(10, '0')} 00000 n \n`).join('');
  parts.push(Buffer.from(`xref\n0 ${bodies.length + 1}\n0000000000 65535 f \n${entries}trailer\n<< /Size ${bodies.length + 1} /Root ${catalog} 0 R >>\nstartxref\n${xref}\n%%EOF\n`));
  return { bytes: Buffer.concat(parts), objects, xref, catalog, pagesTree, pages };
}

async function withTemp<T>(work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(tmpdir(), 'cb-corpus-'));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Runs `tool`, saying how to install it when it is missing. */
async function tool(name: string, args: string[]): Promise<void> {
  try {
    await run(name, args);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error(`${name} is not installed; run scripts/services/ensure-system-packages.sh (Debian: qpdf, libheif-examples)`);
    }
    throw error;
  }
}

/** `pdf` run through qpdf with `args` (encryption, object streams …). */
async function qpdf(pdf: Buffer, args: string[]): Promise<Buffer> {
  return withTemp(async (dir) => {
    const input = path.join(dir, 'in.pdf');
    const output = path.join(dir, 'out.pdf');
    await writeFile(input, pdf);
    await tool('qpdf', [...args, input, output]);
    return readFile(output);
  });
}

// ---------------------------------------------------------------------------------------------------------
// HEIF

/** At most this many encoders at once: x265 is quick on small pictures, its start-up is not. */
async function inBatches<T, R>(items: readonly T[], size: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let at = 0; at < items.length; at += size) {
    results.push(...(await Promise.all(items.slice(at, at + size).map((item, offset) => work(item, at + offset)))));
  }
  return results;
}

type HeifRecipe = { png: Buffer; args: string[] };

async function heifEncode(recipes: readonly HeifRecipe[]): Promise<Buffer[]> {
  return withTemp((dir) =>
    inBatches(recipes, 4, async (recipe, index) => {
      const input = path.join(dir, `${index}.png`);
      const output = path.join(dir, `${index}.heic`);
      await writeFile(input, recipe.png);
      await tool('heif-enc', [...recipe.args, '-o', output, input]);
      return readFile(output);
    }),
  );
}

/** The `ftyp` box rewritten as cameras write it for their .hif files: major brand heix, compatible mif1 and heix. */
function asCameraHif(heic: Buffer): Buffer {
  const copy = Buffer.from(heic);
  const size = copy.readUInt32BE(0);
  if (copy.toString('latin1', 4, 8) !== 'ftyp' || size < 24) throw new Error(`heif-enc wrote an unexpected ftyp box: ${copy.subarray(0, 32).toString('hex')}`);
  copy.write('heix', 8, 'latin1');
  copy.write('mif1', 16, 'latin1');
  copy.write('heix', 20, 'latin1');
  return copy;
}

/** The same photo with another `ftyp` minor version: a distinct file (its own hash) that decodes the same. */
function withMinorVersion(heif: Buffer, version: number): Buffer {
  const copy = Buffer.from(heif);
  copy.writeUInt32BE(version, 12);
  return copy;
}

// ---------------------------------------------------------------------------------------------------------
// Valid files

/** `count` valid files of every accepted type, varied the way real senders' files vary. */
export async function validCorpus(count: number, seed = 1): Promise<ValidFile[]> {
  const random = seeded(seed);
  const files: ValidFile[] = [];
  const size = () => [between(random, 16, 320), between(random, 16, 240)] as const;

  // PDF: pages, compression, a photo, versions; some through qpdf as modern exporters write them (object
  // and xref streams), some encrypted with an owner password only (they open without one).
  const photo = await image(random, 120, 90, 3).jpeg({ quality: 70 }).toBuffer();
  for (let i = 0; i < count; i++) {
    const pdf = writePdf({
      pages: between(random, 1, 6),
      text: `Birth certificate ${i} of player ${between(random, 1000, 9999)}`,
      compress: random() < 0.5,
      ...(random() < 0.3 ? { photo, photoSize: [120, 90] as [number, number] } : {}),
      version: pick(random, ['1.3', '1.4', '1.5', '1.7', '2.0']),
    }).bytes;
    const variant = i % 10;
    const bytes =
      variant === 3
        ? await qpdf(pdf, ['--object-streams=generate'])
        : variant === 7
          ? await qpdf(pdf, ['--encrypt', '', `owner-${i}`, '256', '--'])
          : variant === 9
            ? await qpdf(pdf, ['--linearize'])
            : pdf;
    files.push({ type: 'pdf', label: `PDF ${i} (${['plain', 'object streams', 'owner password only', 'linearized'][[3, 7, 9].indexOf(variant) + 1]})`, filename: `document-${i}.pdf`, bytes });
  }

  // JPEG: sizes, quality, progressive, chroma subsampling, grey, EXIF.
  for (let i = 0; i < count; i++) {
    const [width, height] = size();
    const grey = random() < 0.15;
    let encoder = image(random, width, height, grey ? 1 : 3);
    if (random() < 0.3) encoder = encoder.withMetadata({ exif: { IFD0: { Make: 'Clearbase', Model: `Phone ${i}` } } });
    const bytes = await encoder
      .jpeg({ quality: between(random, 30, 95), progressive: random() < 0.4, chromaSubsampling: random() < 0.3 ? '4:4:4' : '4:2:0', mozjpeg: random() < 0.3 })
      .toBuffer();
    files.push({ type: 'jpeg', label: `JPEG ${i} (${width}×${height})`, filename: `${pick(random, ['IMG_', 'photo-', 'scan '])}${i}.${pick(random, ['jpg', 'jpeg', 'JPG'])}`, bytes });
  }

  // PNG: palette, grey, alpha, 16-bit, interlaced, levels of compression.
  for (let i = 0; i < count; i++) {
    const [width, height] = size();
    const channels = pick(random, [1, 2, 3, 4] as const);
    let encoder = image(random, width, height, channels);
    if (random() < 0.2) encoder = encoder.toColourspace(channels <= 2 ? 'grey16' : 'rgb16');
    const bytes = await encoder.png({ palette: random() < 0.25, progressive: random() < 0.3, compressionLevel: between(random, 0, 9) }).toBuffer();
    files.push({ type: 'png', label: `PNG ${i} (${width}×${height}, ${channels} channels)`, filename: `screenshot-${i}.png`, bytes });
  }

  // TIFF and BigTIFF: compression, predictor, tiles, pyramids (several pages), bit depth of grey scans.
  for (const type of ['tiff', 'bigtiff'] as const) {
    for (let i = 0; i < count; i++) {
      const [width, height] = size();
      const bilevel = random() < 0.15;
      const compression = bilevel ? pick(random, ['ccittfax4', 'none', 'lzw'] as const) : pick(random, ['none', 'lzw', 'deflate', 'jpeg', 'packbits'] as const);
      const tiled = random() < 0.3;
      const picture = image(random, width, height, bilevel ? 1 : 3);
      const bytes = await (bilevel ? picture.threshold(128).toColourspace('b-w') : picture)
        .tiff({
          compression,
          predictor: bilevel ? 'none' : pick(random, ['none', 'horizontal'] as const),
          ...(bilevel ? { bitdepth: 1 as const } : {}),
          ...(tiled ? { tile: true, tileWidth: 16, tileHeight: 16, pyramid: random() < 0.5 } : {}),
          bigtiff: type === 'bigtiff',
          xres: 11.8,
          yres: 11.8,
        })
        .toBuffer();
      files.push({ type, label: `${type === 'bigtiff' ? 'BigTIFF' : 'TIFF'} ${i} (${width}×${height}, ${compression}${tiled ? ', tiled' : ''})`, filename: `scan-${type}-${i}.${pick(random, ['tif', 'tiff'])}`, bytes });
    }
  }

  // HEIC as phones write it, and .hif as cameras do (10-bit 4:2:2, brand heix). A dozen encodes of each,
  // the rest the same photos with another ftyp minor version.
  const encodes = Math.min(count, 12);
  const heicRecipes: HeifRecipe[] = [];
  const hifRecipes: HeifRecipe[] = [];
  for (let i = 0; i < encodes; i++) {
    const [width, height] = size();
    const alpha = random() < 0.25;
    const png = await image(random, width, height, alpha ? 4 : 3).png().toBuffer();
    const args = random() < 0.15 ? ['-L'] : ['-q', String(between(random, 20, 90))];
    if (random() < 0.3) args.push('-p', `chroma=${pick(random, ['420', '444'])}`);
    heicRecipes.push({ png, args });
    const deep = await image(random, width, height, 3).toColourspace('rgb16').png().toBuffer();
    hifRecipes.push({ png: deep, args: ['-b', '10', '-p', 'chroma=422', '-q', String(between(random, 40, 95))] });
  }
  const heics = await heifEncode(heicRecipes);
  const hifs = (await heifEncode(hifRecipes)).map(asCameraHif);
  for (let i = 0; i < count; i++) {
    const heic = heics[i % encodes] as Buffer;
    files.push({ type: 'heic', label: `HEIC ${i}`, filename: `IMG_${4000 + i}.${pick(random, ['heic', 'HEIC', 'heif'])}`, bytes: i < encodes ? heic : withMinorVersion(heic, i) });
    const hif = hifs[i % encodes] as Buffer;
    files.push({ type: 'hif', label: `camera .hif ${i}`, filename: `DSC0${1000 + i}.${pick(random, ['HIF', 'hif'])}`, bytes: i < encodes ? hif : withMinorVersion(hif, i) });
  }
  return files;
}

// ---------------------------------------------------------------------------------------------------------
// Files that must be refused

const CORRUPT = ['CORRUPT_FILE'] as const;

/** Structure of the files, to aim the seeded changes at headers and tables rather than at pixel data. */
function jpegSegments(jpeg: Buffer): Array<{ marker: number; at: number; length: number }> {
  const segments: Array<{ marker: number; at: number; length: number }> = [];
  let at = 2;
  while (at + 4 <= jpeg.length && jpeg[at] === 0xff) {
    const marker = jpeg[at + 1] ?? 0;
    const length = jpeg.readUInt16BE(at + 2);
    segments.push({ marker, at, length });
    if (marker === 0xda) break; // the entropy-coded data follows
    at += 2 + length;
  }
  return segments;
}

function pngChunks(png: Buffer): Array<{ type: string; at: number; length: number }> {
  const chunks: Array<{ type: string; at: number; length: number }> = [];
  for (let at = 8; at + 12 <= png.length; ) {
    const length = png.readUInt32BE(at);
    chunks.push({ type: png.toString('latin1', at + 4, at + 8), at, length });
    at += 12 + length;
  }
  return chunks;
}

/** The first IFD's entries of a TIFF or BigTIFF: where each tag's type, count and value sit. */
function tiffEntries(tiff: Buffer): { little: boolean; big: boolean; ifd: number; entries: Array<{ tag: number; at: number }> } {
  const little = tiff.toString('latin1', 0, 2) === 'II';
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const big = u16(2) === 43;
  const ifd = big ? Number(little ? tiff.readBigUInt64LE(8) : tiff.readBigUInt64BE(8)) : little ? tiff.readUInt32LE(4) : tiff.readUInt32BE(4);
  const count = big ? Number(little ? tiff.readBigUInt64LE(ifd) : tiff.readBigUInt64BE(ifd)) : u16(ifd);
  const first = ifd + (big ? 8 : 2);
  const size = big ? 20 : 12;
  const entries = Array.from({ length: count }, (_, index) => ({ tag: u16(first + index * size), at: first + index * size }));
  return { little, big, ifd, entries };
}

/** ISO-BMFF boxes, descending into meta, iprp and ipco. */
function heifBoxes(heif: Buffer): Map<string, { at: number; size: number }> {
  const boxes = new Map<string, { at: number; size: number }>();
  const walk = (start: number, end: number) => {
    for (let at = start; at + 8 <= end; ) {
      const size = heif.readUInt32BE(at);
      const type = heif.toString('latin1', at + 4, at + 8);
      if (size < 8) return;
      if (!boxes.has(type)) boxes.set(type, { at, size });
      if (type === 'meta') walk(at + 12, at + size);
      if (type === 'iprp' || type === 'ipco') walk(at + 8, at + size);
      at += size;
    }
  };
  walk(0, heif.length);
  return boxes;
}

function mustFind<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`the corpus expected ${what}`);
  return value;
}

/** A seeded change to a file's structure; `codes` when it may be refused for something else than damage. */
type Mutation = { name: string; codes?: readonly string[]; apply(bytes: Buffer, random: () => number): Buffer };

const JPEG_MUTATIONS: Mutation[] = [
  {
    name: 'SOF sample precision not 8',
    apply(jpeg, random) {
      const sof = mustFind(jpegSegments(jpeg).find((s) => s.marker === 0xc0 || s.marker === 0xc2), 'a SOF segment');
      jpeg[sof.at + 4] = pick(random, [0, 1, 2, 4, 7, 9, 16, 99, 255]);
      return jpeg;
    },
  },
  {
    name: 'SOF height zero',
    apply(jpeg) {
      const sof = mustFind(jpegSegments(jpeg).find((s) => s.marker === 0xc0 || s.marker === 0xc2), 'a SOF segment');
      jpeg.writeUInt16BE(0, sof.at + 5);
      return jpeg;
    },
  },
  {
    name: 'SOF component count wrong for its length',
    apply(jpeg, random) {
      const sof = mustFind(jpegSegments(jpeg).find((s) => s.marker === 0xc0 || s.marker === 0xc2), 'a SOF segment');
      jpeg[sof.at + 9] = pick(random, [0, 5, 9, 200]);
      return jpeg;
    },
  },
  {
    name: 'SOF quantisation table that does not exist',
    apply(jpeg, random) {
      const sof = mustFind(jpegSegments(jpeg).find((s) => s.marker === 0xc0 || s.marker === 0xc2), 'a SOF segment');
      jpeg[sof.at + 12] = between(random, 4, 255);
      return jpeg;
    },
  },
  {
    name: 'DHT class and index out of range',
    apply(jpeg, random) {
      const dht = mustFind(jpegSegments(jpeg).find((s) => s.marker === 0xc4), 'a DHT segment');
      jpeg[dht.at + 4] = pick(random, [0x24, 0x35, 0xf0, 0x1f]);
      return jpeg;
    },
  },
  {
    name: 'DQT index out of range',
    apply(jpeg, random) {
      const dqt = mustFind(jpegSegments(jpeg).find((s) => s.marker === 0xdb), 'a DQT segment');
      jpeg[dqt.at + 4] = pick(random, [0x04, 0x07, 0x2f, 0xff]);
      return jpeg;
    },
  },
  {
    name: 'SOS component that is not in the frame',
    apply(jpeg, random) {
      const sos = mustFind(jpegSegments(jpeg).find((s) => s.marker === 0xda), 'an SOS segment');
      jpeg[sos.at + 5] = between(random, 10, 250);
      return jpeg;
    },
  },
  {
    name: 'marker segment length shorter than its header',
    apply(jpeg, random) {
      const segment = pick(
        random,
        jpegSegments(jpeg).filter((s) => [0xc0, 0xc2, 0xc4, 0xdb].includes(s.marker)),
      );
      jpeg.writeUInt16BE(between(random, 0, 1), segment.at + 2);
      return jpeg;
    },
  },
];

const PNG_MUTATIONS: Mutation[] = [
  {
    name: 'IHDR byte changed (its CRC no longer matches)',
    // A changed width or height can make the image too large to open before its CRC is looked at.
    codes: ['CORRUPT_FILE', 'IMAGE_TOO_LARGE'],
    apply(png, random) {
      const at = 16 + between(random, 0, 12);
      png[at] = ((png[at] ?? 0) ^ between(random, 1, 255)) & 0xff;
      return png;
    },
  },
  {
    name: 'IDAT byte changed (its CRC no longer matches)',
    apply(png, random) {
      const idat = mustFind(pngChunks(png).find((c) => c.type === 'IDAT'), 'an IDAT chunk');
      const at = idat.at + 8 + between(random, 0, Math.max(0, idat.length - 1));
      png[at] = ((png[at] ?? 0) ^ between(random, 1, 255)) & 0xff;
      return png;
    },
  },
  {
    name: 'IDAT length past the end of the file',
    apply(png, random) {
      const idat = mustFind(pngChunks(png).find((c) => c.type === 'IDAT'), 'an IDAT chunk');
      png.writeUInt32BE(png.length + between(random, 1, 1_000_000), idat.at);
      return png;
    },
  },
  {
    name: 'every IDAT renamed to an unknown critical chunk',
    apply(png, random) {
      const name = `ID${pick(random, ['AX', 'QT', 'ZZ'])}`;
      for (const chunk of pngChunks(png).filter((c) => c.type === 'IDAT')) png.write(name, chunk.at + 4, 'latin1');
      return png;
    },
  },
];

const TIFF_TAGS = { width: 256, height: 257, compression: 259, stripOffsets: 273, tileOffsets: 324 };

/** Sets `tag` of the first IFD to one SHORT value (the type libtiff insists on for some tags, compression among them). */
function tiffSetShort(tiff: Buffer, layout: ReturnType<typeof tiffEntries>, tag: number, value: number) {
  const entry = mustFind(
    layout.entries.find((e) => e.tag === tag),
    `TIFF tag ${tag}`,
  );
  const { little, big } = layout;
  const valueAt = entry.at + (big ? 12 : 8);
  tiff.fill(0, valueAt, valueAt + (big ? 8 : 4));
  if (little) {
    tiff.writeUInt16LE(3, entry.at + 2);
    if (big) tiff.writeBigUInt64LE(1n, entry.at + 4);
    else tiff.writeUInt32LE(1, entry.at + 4);
    tiff.writeUInt16LE(value, valueAt);
  } else {
    tiff.writeUInt16BE(3, entry.at + 2);
    if (big) tiff.writeBigUInt64BE(1n, entry.at + 4);
    else tiff.writeUInt32BE(1, entry.at + 4);
    tiff.writeUInt16BE(value, valueAt);
  }
  return tiff;
}

/** Sets `tag` of the first IFD to one LONG (LONG8 in a BigTIFF) value. */
function tiffSetLong(tiff: Buffer, layout: ReturnType<typeof tiffEntries>, tag: number, value: number) {
  const entry = mustFind(
    layout.entries.find((e) => e.tag === tag),
    `TIFF tag ${tag}`,
  );
  const { little, big } = layout;
  if (big) {
    if (little) {
      tiff.writeUInt16LE(16, entry.at + 2);
      tiff.writeBigUInt64LE(1n, entry.at + 4);
      tiff.writeBigUInt64LE(BigInt(value), entry.at + 12);
    } else {
      tiff.writeUInt16BE(16, entry.at + 2);
      tiff.writeBigUInt64BE(1n, entry.at + 4);
      tiff.writeBigUInt64BE(BigInt(value), entry.at + 12);
    }
  } else if (little) {
    tiff.writeUInt16LE(4, entry.at + 2);
    tiff.writeUInt32LE(1, entry.at + 4);
    tiff.writeUInt32LE(value, entry.at + 8);
  } else {
    tiff.writeUInt16BE(4, entry.at + 2);
    tiff.writeUInt32BE(1, entry.at + 4);
    tiff.writeUInt32BE(value, entry.at + 8);
  }
  return tiff;
}

const TIFF_MUTATIONS: Mutation[] = [
  {
    name: 'first IFD past the end of the file',
    apply(tiff, random) {
      const layout = tiffEntries(tiff);
      const beyond = tiff.length + between(random, 16, 100_000);
      if (layout.big) {
        if (layout.little) tiff.writeBigUInt64LE(BigInt(beyond), 8);
        else tiff.writeBigUInt64BE(BigInt(beyond), 8);
      } else if (layout.little) tiff.writeUInt32LE(beyond, 4);
      else tiff.writeUInt32BE(beyond, 4);
      return tiff;
    },
  },
  {
    name: 'image width zero',
    apply: (tiff) => tiffSetLong(tiff, tiffEntries(tiff), TIFF_TAGS.width, 0),
  },
  {
    name: 'compression scheme that does not exist',
    apply: (tiff, random) => tiffSetShort(tiff, tiffEntries(tiff), TIFF_TAGS.compression, pick(random, [2_222, 30_000, 65_000])),
  },
  {
    name: 'image data offset past the end of the file',
    apply(tiff, random) {
      const layout = tiffEntries(tiff);
      const tag = layout.entries.some((e) => e.tag === TIFF_TAGS.tileOffsets) ? TIFF_TAGS.tileOffsets : TIFF_TAGS.stripOffsets;
      return tiffSetLong(tiff, layout, tag, tiff.length + between(random, 1_000, 1_000_000));
    },
  },
];

const HEIF_MUTATIONS: Mutation[] = [
  {
    name: 'primary item that does not exist',
    apply(heif, random) {
      const pitm = mustFind(heifBoxes(heif).get('pitm'), 'a pitm box');
      heif.writeUInt16BE(between(random, 500, 60_000), pitm.at + 12);
      return heif;
    },
  },
  {
    name: 'image data located past the end of the file',
    apply(heif, random) {
      // iloc version 0/1 with 4-byte offsets and lengths, as heif-enc writes it: move the last extent away.
      const iloc = mustFind(heifBoxes(heif).get('iloc'), 'an iloc box');
      heif.writeUInt32BE(heif.length + between(random, 1, 1_000_000), iloc.at + iloc.size - 8);
      return heif;
    },
  },
  {
    name: 'meta box size past the end of the file',
    apply(heif, random) {
      const meta = mustFind(heifBoxes(heif).get('meta'), 'a meta box');
      heif.writeUInt32BE(heif.length + between(random, 1, 1_000_000), meta.at);
      return heif;
    },
  },
  {
    name: 'image size property zero',
    apply(heif) {
      const ispe = mustFind(heifBoxes(heif).get('ispe'), 'an ispe box');
      heif.writeUInt32BE(0, ispe.at + 12);
      heif.writeUInt32BE(0, ispe.at + 16);
      return heif;
    },
  },
  {
    name: 'coded data of the image overwritten',
    apply(heif, random) {
      const mdat = mustFind(heifBoxes(heif).get('mdat'), 'an mdat box');
      // The length prefix and slice header of the first NAL unit: the decoder cannot find its way.
      for (let at = mdat.at + 8; at < Math.min(mdat.at + 24, heif.length); at++) heif[at] = between(random, 0, 255);
      heif.writeUInt32BE(0xfffffff0, mdat.at + 8);
      return heif;
    },
  },
];

function pdfMutations(layout: PdfLayout): Mutation[] {
  const object = (number: number) => mustFind(layout.objects.get(number), `object ${number}`);
  const replaceIn = (bytes: Buffer, number: number, from: string, to: string) => {
    const { start, end } = object(number);
    const at = bytes.indexOf(from, start, 'latin1');
    if (at < 0 || at >= end) throw new Error(`the corpus expected "${from}" in object ${number}`);
    Buffer.from(to.padEnd(from.length, ' ').slice(0, from.length), 'latin1').copy(bytes, at);
    return bytes;
  };
  return [
    { name: 'catalog is not a dictionary', apply: (pdf) => replaceIn(pdf, layout.catalog, '<< /Type /Catalog', '[( /Type /Catalog') },
    {
      name: 'catalog points at a page tree that does not exist',
      apply: (pdf, random) => replaceIn(pdf, layout.catalog, `/Pages ${layout.pagesTree} 0 R`, `/Pages ${between(random, 500, 900)} 0 R`),
    },
    {
      name: 'a page of the tree does not exist',
      apply: (pdf, random) => {
        const page = pick(random, layout.pages);
        return replaceIn(pdf, layout.pagesTree, `${page} 0 R`, `${between(random, 500, 900)} 0 R`.slice(0, `${page} 0 R`.length));
      },
    },
    {
      name: 'a page object is not a dictionary',
      apply: (pdf, random) => replaceIn(pdf, pick(random, layout.pages), '<< /Type /Page', '(( /Type /Page'),
    },
    {
      name: 'body bytes scrambled after the header',
      apply(pdf, random) {
        for (let at = 16; at < layout.xref; at++) pdf[at] = between(random, 0, 255);
        return pdf;
      },
    },
  ];
}

/** Changes `count` copies of `files`, each with a mutation chosen by the seed. */
function fuzz(type: string, files: readonly Buffer[], mutations: (file: Buffer) => Mutation[], count: number, random: () => number, filename: (i: number) => string): RefusedFile[] {
  return Array.from({ length: count }, (_, i) => {
    const original = files[i % files.length] as Buffer;
    const mutation = pick(random, mutations(original));
    return { label: `${type} with ${mutation.name} (${i})`, filename: filename(i), bytes: mutation.apply(Buffer.from(original), random), codes: mutation.codes ?? CORRUPT };
  });
}

/** Cut points inside a file, past its first 32 bytes (shorter, it is not even recognised) and before its end. */
const cuts = (length: number, random: () => number, count: number) =>
  Array.from({ length: count }, (_, i) => Math.max(32, Math.min(length - 1, Math.floor(((i + random()) / count) * length))));

/**
 * At least `minimum` files that must be refused. `valid` is a corpus from validCorpus: its files are cut
 * and changed, so both sets come from the same encoders.
 */
export async function refusedCorpus(valid: readonly ValidFile[], seed = 2): Promise<RefusedFile[]> {
  const random = seeded(seed);
  const of = (type: ValidType) => valid.filter((file) => file.type === type);
  const refused: RefusedFile[] = [];

  // Cut short: images anywhere, PDFs before their xref table (written by writePdf, catalog last).
  for (const type of ['jpeg', 'png', 'tiff', 'bigtiff', 'heic', 'hif'] as const) {
    for (const file of of(type).slice(0, 6)) {
      for (const cut of cuts(file.bytes.length, random, 3)) {
        refused.push({ label: `${file.label} cut at ${cut} of ${file.bytes.length} bytes`, filename: file.filename, bytes: file.bytes.subarray(0, cut), codes: CORRUPT });
      }
    }
  }
  const layouts = Array.from({ length: 6 }, (_, i) =>
    writePdf({ pages: between(random, 1, 4), text: `Medical form ${i}`, compress: i % 2 === 0, version: '1.7' }),
  );
  for (const [i, layout] of layouts.entries()) {
    for (const cut of cuts(layout.xref, random, 3)) {
      refused.push({ label: `PDF ${i} cut at ${cut} of ${layout.bytes.length} bytes`, filename: `medical-${i}.pdf`, bytes: layout.bytes.subarray(0, cut), codes: CORRUPT });
    }
  }

  // Damaged in their structure by seeded changes to headers and tables.
  const originals = (type: ValidType) => of(type).slice(0, 8).map((file) => file.bytes);
  refused.push(...fuzz('JPEG', originals('jpeg'), () => JPEG_MUTATIONS, 14, random, (i) => `damaged-${i}.jpg`));
  refused.push(...fuzz('PNG', originals('png'), () => PNG_MUTATIONS, 12, random, (i) => `damaged-${i}.png`));
  refused.push(...fuzz('TIFF', originals('tiff'), () => TIFF_MUTATIONS, 10, random, (i) => `damaged-${i}.tif`));
  refused.push(...fuzz('BigTIFF', originals('bigtiff'), () => TIFF_MUTATIONS, 10, random, (i) => `damaged-big-${i}.tif`));
  refused.push(...fuzz('HEIC', originals('heic').slice(0, 6), () => HEIF_MUTATIONS, 10, random, (i) => `damaged-${i}.heic`));
  refused.push(...fuzz('camera .hif', originals('hif').slice(0, 6), () => HEIF_MUTATIONS, 6, random, (i) => `damaged-${i}.hif`));
  const pdfLayouts = new Map(layouts.map((layout) => [layout.bytes, layout]));
  refused.push(
    ...fuzz('PDF', [...pdfLayouts.keys()], (bytes) => pdfMutations(mustFind(pdfLayouts.get(bytes), 'its layout')), 14, random, (i) => `damaged-${i}.pdf`),
  );

  // Password-protected, with every cipher qpdf writes.
  const ciphers: Array<{ name: string; args: string[] }> = [
    { name: 'AES-256', args: ['256'] },
    { name: 'AES-128', args: ['128', '--use-aes=y'] },
    { name: 'RC4 128-bit', args: ['--allow-weak-crypto', '128'] },
    { name: 'RC4 40-bit', args: ['--allow-weak-crypto', '40'] },
  ];
  for (let i = 0; i < 12; i++) {
    const cipher = ciphers[i % ciphers.length] as { name: string; args: string[] };
    const weak = cipher.args[0] === '--allow-weak-crypto';
    const [, ...rest] = cipher.args;
    const args = weak ? ['--allow-weak-crypto', '--encrypt', `user-${i}`, `owner-${i}`, ...rest, '--'] : ['--encrypt', `user-${i}`, `owner-${i}`, ...cipher.args, '--'];
    const pdf = await qpdf(writePdf({ pages: between(random, 1, 3), text: `Waiver ${i}`, compress: true }).bytes, args);
    refused.push({ label: `PDF with a user password (${cipher.name}) ${i}`, filename: `waiver-${i}.pdf`, bytes: pdf, codes: ['PASSWORD_PROTECTED'] });
  }

  // Named for another type, or not a document at all.
  const one = (type: ValidType) => mustFind(of(type)[0], `a valid ${type}`).bytes;
  const misnamed: Array<[string, Buffer, string]> = [
    ['a PNG named .pdf', one('png'), 'photo.pdf'],
    ['a JPEG named .png', one('jpeg'), 'scan.png'],
    ['a PDF named .jpg', one('pdf'), 'form.jpg'],
    ['a TIFF named .heic', one('tiff'), 'scan.heic'],
    ['a HEIC named .tiff', one('heic'), 'IMG_1.tiff'],
    ['a BigTIFF named .png', one('bigtiff'), 'scan.png'],
    ['a camera .hif named .jpg', one('hif'), 'DSC.jpg'],
    ['a PDF named .docx', one('pdf'), 'form.docx'],
  ];
  for (const [label, bytes, filename] of misnamed) refused.push({ label, filename, bytes, codes: ['EXTENSION_MISMATCH'] });
  const gif = await image(random, 20, 20, 3).gif().toBuffer();
  const webp = await image(random, 20, 20, 3).webp().toBuffer();
  const avif = await image(random, 16, 16, 3).avif().toBuffer();
  const foreign: Array<[string, Buffer, string]> = [
    ['a GIF named .jpg', gif, 'photo.jpg'],
    ['a WebP named .png', webp, 'photo.png'],
    ['an AVIF named .heic', avif, 'photo.heic'],
    ['plain text named .pdf', Buffer.from('Dear league, the form is attached.\n'.repeat(20)), 'form.pdf'],
    ['HTML named .pdf', Buffer.from('<!doctype html><html><body><p>Download your PDF here</p></body></html>'), 'form.pdf'],
    ['a Word document (zip) named .pdf', Buffer.concat([Buffer.from('PK\x03\x04\x14\x00\x06\x00', 'latin1'), Buffer.alloc(300, 7), Buffer.from('%PDF-1.7')]), 'form.pdf'],
    ['a Windows program named .pdf', Buffer.concat([Buffer.from('MZ\x90\x00', 'latin1'), Buffer.alloc(500, 1)]), 'form.pdf'],
    ['a BMP named .jpg', Buffer.concat([Buffer.from('BM', 'latin1'), Buffer.alloc(200, 3)]), 'photo.jpg'],
    ['an MP4 video named .heic', Buffer.concat([Buffer.from('\x00\x00\x00\x18ftypisom\x00\x00\x02\x00isomiso2', 'latin1'), Buffer.alloc(400, 9)]), 'clip.heic'],
  ];
  for (const [label, bytes, filename] of foreign) refused.push({ label, filename, bytes, codes: ['UNSUPPORTED_TYPE'] });

  // The first bytes of a type and nothing of a document after them.
  const noise = (length: number) => Buffer.from(Array.from({ length }, () => between(random, 0, 255)));
  const fakes: Array<[string, Buffer, string]> = [
    ['a PNG signature and noise', Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), noise(3_000)]), 'photo.png'],
    ['a JPEG start and noise', Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), noise(3_000)]), 'photo.jpg'],
    ['a TIFF header and noise', Buffer.concat([Buffer.from('II*\x00\x08\x00\x00\x00', 'latin1'), noise(3_000)]), 'scan.tif'],
    ['a BigTIFF header and noise', Buffer.concat([Buffer.from('II+\x00\x08\x00\x00\x00\x10\x00\x00\x00\x00\x00\x00\x00', 'latin1'), noise(3_000)]), 'scan.tif'],
    ['a HEIC ftyp and noise', Buffer.concat([Buffer.from('\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic', 'latin1'), noise(3_000)]), 'IMG.heic'],
    ['a PDF header and noise', Buffer.concat([Buffer.from('%PDF-1.7\n', 'latin1'), noise(3_000)]), 'form.pdf'],
    ['a PDF of no pages', writePdf({ pages: 0, text: '' }).bytes, 'empty.pdf'],
  ];
  for (const [label, bytes, filename] of fakes) refused.push({ label, filename, bytes, codes: CORRUPT });

  // Bombs: a small file that declares a huge picture, or too many pages.
  const bigPng = Buffer.from(one('png'));
  bigPng.writeUInt32BE(100_000, 16);
  bigPng.writeUInt32BE(100_000, 20);
  bigPng.writeUInt32BE(crc32(bigPng.subarray(12, 29)), 29);
  const bigJpeg = Buffer.from(one('jpeg'));
  const sof = mustFind(jpegSegments(bigJpeg).find((s) => s.marker === 0xc0 || s.marker === 0xc2), 'a SOF segment');
  bigJpeg.writeUInt16BE(65_000, sof.at + 5);
  bigJpeg.writeUInt16BE(65_000, sof.at + 7);
  const bigTiff = Buffer.from(one('tiff'));
  const layout = tiffEntries(bigTiff);
  tiffSetLong(bigTiff, layout, TIFF_TAGS.width, 200_000);
  tiffSetLong(bigTiff, layout, TIFF_TAGS.height, 200_000);
  const bigHeic = Buffer.from(one('heic'));
  const ispe = mustFind(heifBoxes(bigHeic).get('ispe'), 'an ispe box');
  bigHeic.writeUInt32BE(60_000, ispe.at + 12);
  bigHeic.writeUInt32BE(60_000, ispe.at + 16);
  refused.push(
    { label: 'a PNG declaring 100,000 × 100,000 pixels', filename: 'bomb.png', bytes: bigPng, codes: ['IMAGE_TOO_LARGE'] },
    { label: 'a JPEG declaring 65,000 × 65,000 pixels', filename: 'bomb.jpg', bytes: bigJpeg, codes: ['IMAGE_TOO_LARGE'] },
    { label: 'a TIFF declaring 200,000 × 200,000 pixels', filename: 'bomb.tif', bytes: bigTiff, codes: ['IMAGE_TOO_LARGE', 'CORRUPT_FILE'] },
    { label: 'a HEIC declaring 60,000 × 60,000 pixels', filename: 'bomb.heic', bytes: bigHeic, codes: ['IMAGE_TOO_LARGE', 'CORRUPT_FILE'] },
    { label: 'a PDF of 1,001 pages', filename: 'many.pdf', bytes: writePdf({ pages: 1_001, text: 'page' }).bytes, codes: ['TOO_MANY_PAGES'] },
    { label: 'an empty file', filename: 'nothing.pdf', bytes: Buffer.alloc(0), codes: ['EMPTY_FILE'] },
  );
  return refused;
}
