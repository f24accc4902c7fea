import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Storage } from '../adapters/storage/port';
import { createEncryptor, type EncryptionResult } from '../crypto/envelope';

/** Bytes kept from the start of a file for type sniffing. */
export const HEAD_BYTES = 4_096;

export type StagingOutcome =
  | { kind: 'staged'; head: Buffer; result: EncryptionResult }
  | { kind: 'too-large'; bytesSeen: number };

export class FileTooLargeError extends Error {
  constructor(readonly bytesSeen: number) {
    super('file exceeds the size limit');
  }
}

/**
 * Streams one uploaded file into storage under `key`, encrypted, in a single pass that also hashes it
 * and keeps its first bytes. Over `maxBytes` the write is aborted and nothing is left in storage.
 */
export async function stageFile(
  source: Readable,
  deps: { storage: Storage; masterKey: Buffer; maxBytes: number },
  key: string,
): Promise<StagingOutcome> {
  const headChunks: Buffer[] = [];
  let headLength = 0;
  let seen = 0;
  const guard = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen > deps.maxBytes) {
        callback(new FileTooLargeError(seen));
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
  try {
    const [result] = await Promise.all([
      encryptor.result,
      deps.storage.put(key, encryptor.transform),
      pipeline(source, guard, encryptor.transform),
    ]);
    return { kind: 'staged', head: Buffer.concat(headChunks), result };
  } catch (error) {
    await deps.storage.delete(key).catch(() => undefined);
    if (error instanceof FileTooLargeError) {
      source.resume(); // drain the rest so the request (or multipart parser) can finish
      return { kind: 'too-large', bytesSeen: error.bytesSeen };
    }
    throw error;
  }
}
