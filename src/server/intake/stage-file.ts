import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Storage } from '../adapters/storage/port';
import { createEncryptor, type EncryptionResult } from '../crypto/envelope';

/** Bytes kept from the start of a file for type sniffing. */
export const HEAD_BYTES = 4_096;

export type StagingOutcome =
  | { kind: 'staged'; head: Buffer; result: EncryptionResult }
  | { kind: 'too-large'; bytesSeen: number };

/**
 * Streams one uploaded file into storage under `key`, encrypted, in a single pass that also hashes it
 * and keeps its first bytes. Past `maxBytes` nothing more is written and the object is removed.
 *
 * The source is consumed to its end rather than destroyed: a multipart parser waits for every file part
 * to be read before it finishes (its own `fileSize` limit ends the part just past the cap). A source that
 * may never end (a download) passes `cutOffSource` and is destroyed at the cap instead.
 */
export async function stageFile(
  source: Readable,
  deps: { storage: Storage; masterKey: Buffer; maxBytes: number; cutOffSource?: boolean },
  key: string,
): Promise<StagingOutcome> {
  const headChunks: Buffer[] = [];
  let headLength = 0;
  let seen = 0;
  let tooLarge = false;
  const guard = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (tooLarge || seen > deps.maxBytes) {
        tooLarge = true;
        callback(); // drop it: nothing past the cap reaches storage
        if (deps.cutOffSource) source.destroy();
        return;
      }
      if (headLength < HEAD_BYTES) {
        headChunks.push(chunk.subarray(0, HEAD_BYTES - headLength));
        headLength += Math.min(chunk.length, HEAD_BYTES - headLength);
      }
      callback(null, chunk);
    },
  });
  const encryptor = createEncryptor(deps.masterKey);
  const discard = () => deps.storage.delete(key).catch(() => undefined);
  try {
    const [result] = await Promise.all([
      encryptor.result,
      deps.storage.put(key, encryptor.transform),
      pipeline(source, guard, encryptor.transform),
    ]);
    if (tooLarge) {
      await discard();
      return { kind: 'too-large', bytesSeen: seen };
    }
    return { kind: 'staged', head: Buffer.concat(headChunks), result };
  } catch (error) {
    await discard();
    // A cut-off source ends the pipeline with an error; the real outcome is the size.
    if (tooLarge) return { kind: 'too-large', bytesSeen: seen };
    throw error;
  }
}
