import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { constants, crc32, createDeflateRaw } from 'node:zlib';

/**
 * One file of a ZIP: its name inside the archive (slash-separated), when it was made, and its bytes, opened
 * only when its turn comes (a document is read from storage while it is written, never before).
 */
export type ZipEntry = {
  name: string;
  modifiedAt: Date;
  /** Deflate level: 6 for text, 1 for files that are mostly compressed already (a JPEG, a PDF). */
  level?: number;
  open(): Promise<Readable | Buffer | string>;
};

/** The classic ZIP format counts sizes and offsets in 32 bits; an archive that would pass 4 GiB is refused. */
const ZIP32_LIMIT = 0xffff_ffff;
/** Bit 3: sizes and CRC follow the data; bit 11: names are UTF-8. */
const FLAGS = 0x0808;
const DEFLATE = 8;
const VERSION_NEEDED = 20;
/** Made on Unix (3), format 2.0: the external attributes below are read as a Unix mode. */
const VERSION_MADE_BY = (3 << 8) | 20;
/** -rw-r--r-- regular file. */
const FILE_MODE = (0o100644 << 16) >>> 0;

type Written = { name: Buffer; crc: number; compressed: number; size: number; offset: number; time: number; date: number };

/** The MS-DOS time and date a ZIP header carries, in UTC (a ZIP has no time zone; a year before 1980 becomes 1980). */
function dosDateTime(at: Date): { time: number; date: number } {
  const year = Math.max(1980, at.getUTCFullYear());
  return {
    time: (at.getUTCHours() << 11) | (at.getUTCMinutes() << 5) | Math.floor(at.getUTCSeconds() / 2),
    date: ((year - 1980) << 9) | ((at.getUTCMonth() + 1) << 5) | at.getUTCDate(),
  };
}

function localHeader(entry: Written): Buffer {
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(VERSION_NEEDED, 4);
  header.writeUInt16LE(FLAGS, 6);
  header.writeUInt16LE(DEFLATE, 8);
  header.writeUInt16LE(entry.time, 10);
  header.writeUInt16LE(entry.date, 12);
  // CRC and sizes are zero here: they follow the data, in its descriptor.
  header.writeUInt16LE(entry.name.length, 26);
  return Buffer.concat([header, entry.name]);
}

function dataDescriptor(entry: Written): Buffer {
  const descriptor = Buffer.alloc(16);
  descriptor.writeUInt32LE(0x08074b50, 0);
  descriptor.writeUInt32LE(entry.crc, 4);
  descriptor.writeUInt32LE(entry.compressed, 8);
  descriptor.writeUInt32LE(entry.size, 12);
  return descriptor;
}

function centralHeader(entry: Written): Buffer {
  const header = Buffer.alloc(46);
  header.writeUInt32LE(0x02014b50, 0);
  header.writeUInt16LE(VERSION_MADE_BY, 4);
  header.writeUInt16LE(VERSION_NEEDED, 6);
  header.writeUInt16LE(FLAGS, 8);
  header.writeUInt16LE(DEFLATE, 10);
  header.writeUInt16LE(entry.time, 12);
  header.writeUInt16LE(entry.date, 14);
  header.writeUInt32LE(entry.crc, 16);
  header.writeUInt32LE(entry.compressed, 20);
  header.writeUInt32LE(entry.size, 24);
  header.writeUInt16LE(entry.name.length, 28);
  header.writeUInt32LE(FILE_MODE, 38);
  header.writeUInt32LE(entry.offset, 42);
  return Buffer.concat([header, entry.name]);
}

function endOfCentralDirectory(entries: number, size: number, offset: number): Buffer {
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries, 8);
  end.writeUInt16LE(entries, 10);
  end.writeUInt32LE(size, 12);
  end.writeUInt32LE(offset, 16);
  return end;
}

const asReadable = (body: Readable | Buffer | string): Readable =>
  body instanceof Readable ? body : Readable.from([typeof body === 'string' ? Buffer.from(body, 'utf8') : body]);

/**
 * A ZIP archive written as it is read: each entry's bytes are deflated on their way through, its CRC and
 * sizes written after it (bit 3), and the central directory at the end, so nothing but the list of names and
 * sizes is held in memory, and nothing is read ahead of what the reader of the archive takes. An entry whose
 * source fails ends the archive with that error. Every reader of ZIP files opens it (Windows, macOS, unzip).
 */
export async function* zipStream(entries: AsyncIterable<ZipEntry> | Iterable<ZipEntry>): AsyncGenerator<Buffer> {
  const written: Written[] = [];
  const names = new Set<string>();
  let offset = 0;
  for await (const entry of entries) {
    if (names.has(entry.name)) throw new Error('two entries of one ZIP have the same name');
    names.add(entry.name);
    const current: Written = { name: Buffer.from(entry.name, 'utf8'), crc: 0, compressed: 0, size: 0, offset, ...dosDateTime(entry.modifiedAt) };
    const header = localHeader(current);
    yield header;
    offset += header.length;

    const measure = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        current.crc = crc32(chunk, current.crc);
        current.size += chunk.length;
        done(null, chunk);
      },
    });
    const deflate = createDeflateRaw({ level: entry.level ?? constants.Z_DEFAULT_COMPRESSION });
    const piped = pipeline(asReadable(await entry.open()), measure, deflate);
    // Its failure is thrown by the loop below (the deflater is destroyed with it) and again by the await after it.
    piped.catch(() => undefined);
    for await (const chunk of deflate as AsyncIterable<Buffer>) {
      current.compressed += chunk.length;
      yield chunk;
    }
    await piped;
    offset += current.compressed;
    const descriptor = dataDescriptor(current);
    yield descriptor;
    offset += descriptor.length;
    if (offset > ZIP32_LIMIT || current.size > ZIP32_LIMIT) throw new Error('the archive would pass 4 GiB, which the ZIP format written here cannot hold');
    written.push(current);
  }
  if (written.length > 0xffff) throw new Error('a ZIP written here holds at most 65,535 files');
  const directoryAt = offset;
  let directorySize = 0;
  for (const entry of written) {
    const header = centralHeader(entry);
    directorySize += header.length;
    yield header;
  }
  yield endOfCentralDirectory(written.length, directorySize, directoryAt);
}
