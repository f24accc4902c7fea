import { Readable } from 'node:stream';
import { ZipFile } from 'yazl';

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

/**
 * A ZIP written as it is read (yazl): each entry opened in its turn and deflated on its way through, its
 * CRC and sizes after it, the directory at the end, ZIP64 where an archive passes 4 GiB, UTF-8 names. The
 * entries are listed first (cheap: nothing is opened), so two of one name are refused before a byte is
 * sent. A source that fails ends the archive with its error.
 */
export async function* zipStream(entries: AsyncIterable<ZipEntry> | Iterable<ZipEntry>): AsyncGenerator<Buffer> {
  const zip = new ZipFile();
  const output = zip.outputStream as Readable;
  // A source's failure ends the archive being read with it (yazl itself does not watch its sources' errors).
  const fail = (error: unknown) => output.destroy(error instanceof Error ? error : new Error(String(error)));
  zip.on('error', fail);
  const names = new Set<string>();
  for await (const entry of entries) {
    if (names.has(entry.name)) throw new Error(`two entries have the same name: ${entry.name}`);
    names.add(entry.name);
    zip.addReadStreamLazy(entry.name, { mtime: entry.modifiedAt, compress: true, compressionLevel: entry.level ?? 6 }, (callback) => {
      entry.open().then(
        (body) => {
          const source = typeof body === 'string' || Buffer.isBuffer(body) ? Readable.from([Buffer.from(body)]) : body;
          source.once('error', fail);
          callback(null, source);
        },
        (error: unknown) => fail(error),
      );
    });
  }
  zip.end();
  for await (const chunk of output) yield chunk as Buffer;
}
