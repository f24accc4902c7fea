import { crc32, inflateRawSync } from 'node:zlib';

export type UnzippedEntry = { name: string; bytes: Buffer; modifiedAt: Date };

/**
 * Reads a whole ZIP by its central directory (as unzip does), inflating each entry and checking its CRC
 * against the directory's: for tests of archives Clearbase writes (stored or deflated entries only).
 */
export function unzip(archive: Buffer): UnzippedEntry[] {
  const endAt = archive.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (endAt < 0) throw new Error('no end of central directory');
  const count = archive.readUInt16LE(endAt + 10);
  let at = archive.readUInt32LE(endAt + 16);
  const entries: UnzippedEntry[] = [];
  for (let index = 0; index < count; index++) {
    if (archive.readUInt32LE(at) !== 0x02014b50) throw new Error(`central header ${index} is not where it should be`);
    const method = archive.readUInt16LE(at + 10);
    const time = archive.readUInt16LE(at + 12);
    const date = archive.readUInt16LE(at + 14);
    const crc = archive.readUInt32LE(at + 16);
    const compressed = archive.readUInt32LE(at + 20);
    const size = archive.readUInt32LE(at + 24);
    const nameLength = archive.readUInt16LE(at + 28);
    const extraLength = archive.readUInt16LE(at + 30);
    const commentLength = archive.readUInt16LE(at + 32);
    const localAt = archive.readUInt32LE(at + 42);
    const name = archive.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    if (archive.readUInt32LE(localAt) !== 0x04034b50) throw new Error(`local header of ${name} is not where the directory says`);
    const dataAt = localAt + 30 + archive.readUInt16LE(localAt + 26) + archive.readUInt16LE(localAt + 28);
    const data = archive.subarray(dataAt, dataAt + compressed);
    const bytes = method === 8 ? inflateRawSync(data) : Buffer.from(data);
    if (bytes.length !== size) throw new Error(`${name}: ${bytes.length} bytes, the directory says ${size}`);
    if (crc32(bytes) !== crc) throw new Error(`${name}: CRC differs from the directory's`);
    const modifiedAt = new Date(Date.UTC(1980 + (date >> 9), ((date >> 5) & 15) - 1, date & 31, time >> 11, (time >> 5) & 63, (time & 31) * 2));
    entries.push({ name, bytes, modifiedAt });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}
