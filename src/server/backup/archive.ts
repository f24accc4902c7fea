import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Decrypter, Encrypter } from 'age-encryption';
import tar from 'tar-stream';

/**
 * A backup archive: a tar stream of named entries, encrypted as one age file with a passphrase (age's
 * scrypt recipient: the passphrase is stretched with scrypt, the contents sealed with ChaCha20-Poly1305 in
 * 64 KiB chunks, each authenticated, the last one marked, so a changed byte or a cut-off end is refused).
 * Nothing of it is readable without the passphrase, and it is a standard format: `age -d` and `tar -x`
 * open it without Clearbase.
 *
 * Entries are written in order, each with its size known before its bytes (tar's header says it), and
 * read back in the same order, one at a time, without holding the archive in memory.
 */

export type ArchiveEntry = { name: string; size: number; body: Buffer | Readable };

/** age's default: about a second and 256 MiB to stretch the passphrase, once per archive. */
export const DEFAULT_WORK_FACTOR = 18;
/** A passphrase a person keeps apart from the archive; shorter ones fall to a guessing machine. */
export const MIN_PASSPHRASE_LENGTH = 12;

/** The archive's passphrase was wrong, or what was read is not a Clearbase backup, or it is damaged. */
export class ArchiveError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ArchiveError';
  }
}

export function passphraseProblem(passphrase: string): string | undefined {
  if (passphrase.trim().length < MIN_PASSPHRASE_LENGTH) return `The backup passphrase must have at least ${MIN_PASSPHRASE_LENGTH} characters.`;
  return undefined;
}

/** Writes `entries` into `out` as an encrypted archive; resolves once every byte is in `out` and it has ended. */
export async function writeArchive(entries: AsyncIterable<ArchiveEntry>, passphrase: string, out: Writable, options: { workFactor?: number } = {}): Promise<void> {
  const problem = passphraseProblem(passphrase);
  if (problem) throw new ArchiveError(problem);
  const pack = tar.pack();
  const encrypter = new Encrypter();
  encrypter.setPassphrase(passphrase);
  encrypter.setScryptWorkFactor(options.workFactor ?? DEFAULT_WORK_FACTOR);
  const filling = (async () => {
    try {
      for await (const entry of entries) await addEntry(pack, entry);
      pack.finalize();
    } catch (error) {
      pack.destroy(error instanceof Error ? error : new Error(String(error)));
      throw error;
    }
  })();
  const encrypted = await encrypter.encrypt(webStreamOf(pack));
  await Promise.all([pipeline(Readable.from(chunksOf(encrypted), { objectMode: false }), out), filling]);
}

function addEntry(pack: tar.Pack, entry: ArchiveEntry): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const header = { name: entry.name, size: entry.size, mode: 0o600, mtime: new Date(0), type: 'file' as const };
    if (Buffer.isBuffer(entry.body)) {
      pack.entry(header, entry.body, (error) => (error ? reject(error) : resolve()));
      return;
    }
    const sink = pack.entry(header, (error) => (error ? reject(error) : resolve()));
    pipeline(entry.body, sink).catch(reject);
  });
}

export type ReadEntry = { name: string; size: number; body: Readable };

/**
 * Reads an archive's entries in order. Each entry's body must be read to its end (or drained) before the
 * next is given. A wrong passphrase, a file that is not an age file, or a damaged or cut-off archive
 * throws an ArchiveError with a sentence a volunteer can act on.
 */
export async function* readArchive(input: Readable, passphrase: string): AsyncGenerator<ReadEntry> {
  const decrypter = new Decrypter();
  decrypter.addPassphrase(passphrase);
  let plain: Readable;
  try {
    const decrypted = await decrypter.decrypt(webStreamOf(input));
    plain = Readable.from(chunksOf(decrypted), { objectMode: false });
  } catch (error) {
    throw new ArchiveError(describeOpenFailure(error), { cause: error });
  }
  const extract = tar.extract();
  const feeding = pipeline(plain, extract).catch((error: unknown) => {
    extract.destroy(new ArchiveError(DAMAGED, { cause: error }));
  });
  try {
    for await (const entry of extract) {
      yield { name: entry.header.name, size: entry.header.size ?? 0, body: Readable.from(guarded(entry), { objectMode: false }) };
    }
  } catch (error) {
    throw error instanceof ArchiveError ? error : new ArchiveError(DAMAGED, { cause: error });
  } finally {
    extract.destroy();
    await feeding;
  }
}

/** The chunks of a web stream (what age writes), read one at a time as they are asked for. */
async function* chunksOf(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  let ended = false;
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) {
        ended = true;
        return;
      }
      yield next.value;
    }
  } finally {
    // Left before its end (the archive failed, or a restore stopped): what feeds it is told to stop too.
    if (!ended) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

/** An entry's bytes, any failure while they are read (a chunk that fails authentication) said as damage. */
async function* guarded(entry: AsyncIterable<unknown>): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of entry) yield chunk instanceof Buffer ? chunk : Buffer.from(chunk as Uint8Array);
  } catch (error) {
    throw error instanceof ArchiveError ? error : new ArchiveError(DAMAGED, { cause: error });
  }
}

/**
 * A web stream (what age reads) over a Node or streamx stream, pulled one chunk at a time, so the source
 * is read no faster than age encrypts or decrypts it. (tar-stream's streams are streamx ones, which
 * `Readable.toWeb` does not take.)
 */
function webStreamOf(source: AsyncIterable<unknown>): ReadableStream<Uint8Array> {
  const iterator = source[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value instanceof Uint8Array ? next.value : Buffer.from(String(next.value)));
    },
    async cancel(reason) {
      await iterator.return?.(reason);
    },
  });
}

const DAMAGED = 'The backup archive is damaged or incomplete: it could not be read to its end.';

function describeOpenFailure(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/no identity matched|incorrect passphrase|failed to decrypt|invalid header mac|mac/i.test(message)) {
    return 'The passphrase does not open this backup archive.';
  }
  return 'This file is not a Clearbase backup archive, or its beginning is damaged.';
}
