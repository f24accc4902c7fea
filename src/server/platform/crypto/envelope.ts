import { createCipheriv, createDecipheriv, createHash, randomBytes, type DecipherGCM } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { MASTER_KEY_BYTES } from './master-key';

/**
 * Encryption at rest, by envelope: every stored file gets its own random 32-byte data key and is encrypted
 * with AES-256-GCM; the data key is in turn encrypted ("wrapped") by the master key, also with AES-256-GCM.
 *
 * What is kept where:
 * - the object in storage holds the file's ciphertext only, exactly as long as the plaintext;
 * - the `documents` row holds `wrapped_key`, `iv` and `auth_tag`. The tag is only known once the last
 *   byte has gone through the cipher, after the object has already been streamed out, which is why it
 *   lives in the database and not in a header of the object.
 *
 * Wrapped key format (60 bytes): `iv (12) ‖ AES-256-GCM(masterKey, iv, dataKey) (32) ‖ tag (16)`.
 *
 * A fresh key per file means each key encrypts exactly one message, so a random 96-bit IV can never
 * repeat under a key, and GCM's per-message limit (~64 GiB) is far above any upload cap.
 */

const ALGORITHM = 'aes-256-gcm';
const DATA_KEY_BYTES = 32;
export const IV_BYTES = 12;
export const AUTH_TAG_BYTES = 16;
export const WRAPPED_KEY_BYTES = IV_BYTES + DATA_KEY_BYTES + AUTH_TAG_BYTES;

/** What must be stored beside the ciphertext to decrypt it again. */
export interface Envelope {
  /** The data key wrapped by the master key, 60 bytes (format above). */
  wrappedKey: Buffer;
  /** IV of the file's ciphertext, 12 bytes. */
  iv: Buffer;
  /** GCM tag of the file's ciphertext, 16 bytes. */
  authTag: Buffer;
}

export interface EncryptionResult extends Envelope {
  /** SHA-256 of the plaintext, lowercase hex. */
  sha256: string;
  /** Plaintext length, which is also the ciphertext length. */
  bytes: number;
}

/** One message for every way a stored file can fail to decrypt: telling them apart would only help an attacker. */
export class DecryptionError extends Error {
  constructor(options?: { cause?: unknown }) {
    super('stored file failed authentication: it was altered or the key is wrong', options);
    this.name = 'DecryptionError';
  }
}

/**
 * The synchronous core of encryption: plaintext chunks in, ciphertext chunks out, the plaintext hashed and
 * counted in the same pass. `finish()` completes the tag; GCM is a stream mode, so it emits no more bytes.
 * For code that already has its chunks in hand (an intake thread); streams use createEncryptor.
 */
export interface FileEncryption {
  update(chunk: Buffer): Buffer;
  finish(): EncryptionResult;
}

export function startEncryption(masterKey: Buffer): FileEncryption {
  assertMasterKey(masterKey);
  // One call for the data key and both IVs: each randomBytes call costs a few microseconds per file.
  const random = randomBytes(DATA_KEY_BYTES + 2 * IV_BYTES);
  const dataKey = random.subarray(0, DATA_KEY_BYTES);
  const iv = Buffer.from(random.subarray(DATA_KEY_BYTES, DATA_KEY_BYTES + IV_BYTES));
  const cipher = createCipheriv(ALGORITHM, dataKey, iv, { authTagLength: AUTH_TAG_BYTES });
  const wrappedKey = wrapDataKey(masterKey, dataKey, random.subarray(DATA_KEY_BYTES + IV_BYTES));
  // The cipher and the wrapped copy are all that is needed from here on; don't leave the key lying in memory.
  random.fill(0);
  const hash = createHash('sha256');
  let bytes = 0;
  return {
    update(chunk) {
      hash.update(chunk);
      bytes += chunk.length;
      return cipher.update(chunk);
    },
    finish() {
      if (cipher.final().length > 0) throw new Error('AES-256-GCM emitted bytes at final()');
      return { sha256: hash.digest('hex'), bytes, wrappedKey, iv, authTag: cipher.getAuthTag() };
    },
  };
}

/**
 * Pipe plaintext in, ciphertext out. In the same pass the plaintext is hashed and counted, so the
 * pipeline reads each file once. `result` resolves once the input has ended and rejects if the stream
 * fails or is destroyed first (a rejection nobody awaits is not reported as unhandled).
 */
export function createEncryptor(masterKey: Buffer): { transform: Transform; result: Promise<EncryptionResult> } {
  const encryption = startEncryption(masterKey);
  let settle: { resolve: (value: EncryptionResult) => void; reject: (reason: Error) => void } | undefined;
  const result = new Promise<EncryptionResult>((resolve, reject) => {
    settle = { resolve, reject };
  });
  result.catch(() => undefined);

  const transform = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      callback(null, encryption.update(chunk));
    },
    flush(callback) {
      try {
        settle?.resolve(encryption.finish());
        settle = undefined;
        callback();
      } catch (error) {
        callback(error as Error);
      }
    },
    destroy(error, callback) {
      settle?.reject(error ?? new Error('encryption stream closed before the end of the file'));
      settle = undefined;
      callback(error);
    },
  });
  return { transform, result };
}

/**
 * Ciphertext in, plaintext out. Fails with DecryptionError when the wrapped key does not unwrap (wrong
 * master key, altered key) or when the file's tag does not verify at the end (altered ciphertext, IV or tag).
 *
 * GCM can only verify at the end, so plaintext flows out BEFORE it is known to be authentic. A caller
 * that serves a download must treat an error at any point, even after the last byte was written, as
 * fatal: abort the response (destroy the socket) so the client sees a failed transfer, never a complete
 * file. Anything that needs verified bytes in hand should use decryptToBuffer.
 */
export function createDecryptor(masterKey: Buffer, envelope: Envelope): Transform {
  assertMasterKey(masterKey);
  let decipher: DecipherGCM | undefined;
  let failure: DecryptionError | undefined;
  try {
    decipher = openDecipher(masterKey, envelope);
  } catch (error) {
    // Reported through the stream rather than thrown, so a bad row surfaces where callers already
    // handle stream errors; nothing is emitted before it.
    failure = error instanceof DecryptionError ? error : new DecryptionError({ cause: error });
  }

  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (!decipher) return callback(failure);
      callback(null, decipher.update(chunk));
    },
    flush(callback) {
      if (!decipher) return callback(failure);
      try {
        const tail = decipher.final();
        callback(null, tail.length > 0 ? tail : null);
      } catch (error) {
        callback(new DecryptionError({ cause: error }));
      }
    },
  });
}

/** Decrypts a whole (small) file and returns it only once it has been authenticated. */
export async function decryptToBuffer(masterKey: Buffer, envelope: Envelope, ciphertext: Buffer | Readable): Promise<Buffer> {
  const source = Buffer.isBuffer(ciphertext) ? Readable.from([ciphertext]) : ciphertext;
  const chunks: Buffer[] = [];
  await pipeline(source, createDecryptor(masterKey, envelope), async (plaintext: AsyncIterable<Buffer>) => {
    for await (const chunk of plaintext) chunks.push(chunk);
  });
  return Buffer.concat(chunks);
}

/** SHA-256 (lowercase hex) and length of everything a stream yields. */
export async function sha256Of(source: Readable | Buffer): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  if (Buffer.isBuffer(source)) return { sha256: hash.update(source).digest('hex'), bytes: source.length };
  let bytes = 0;
  for await (const chunk of source) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    hash.update(buffer);
    bytes += buffer.length;
  }
  return { sha256: hash.digest('hex'), bytes };
}

/**
 * The same data key, wrapped by `to` instead of `from`, under a fresh IV: what a change of master key does to
 * each stored file, whose own ciphertext, IV and tag stay as they are. DecryptionError when `from` does not
 * open it.
 */
export function rewrapDataKey(from: Buffer, to: Buffer, wrappedKey: Buffer): Buffer {
  assertMasterKey(from);
  assertMasterKey(to);
  const dataKey = unwrapDataKey(from, wrappedKey);
  try {
    return wrapDataKey(to, dataKey, randomBytes(IV_BYTES));
  } finally {
    dataKey.fill(0);
  }
}

/** Whether `masterKey` wrapped this data key: GCM authenticates the wrapping, so only the right key opens it. */
export function opensUnder(masterKey: Buffer, wrappedKey: Buffer): boolean {
  try {
    unwrapDataKey(masterKey, wrappedKey).fill(0);
    return true;
  } catch (error) {
    if (error instanceof DecryptionError) return false;
    throw error;
  }
}

function wrapDataKey(masterKey: Buffer, dataKey: Buffer, iv: Buffer): Buffer {
  const cipher = createCipheriv(ALGORITHM, masterKey, iv, { authTagLength: AUTH_TAG_BYTES });
  const encrypted = Buffer.concat([cipher.update(dataKey), cipher.final()]);
  return Buffer.concat([iv, encrypted, cipher.getAuthTag()]);
}

function unwrapDataKey(masterKey: Buffer, wrappedKey: Buffer): Buffer {
  if (wrappedKey.length !== WRAPPED_KEY_BYTES) throw new DecryptionError();
  const decipher = createDecipheriv(ALGORITHM, masterKey, wrappedKey.subarray(0, IV_BYTES), {
    authTagLength: AUTH_TAG_BYTES,
  });
  decipher.setAuthTag(wrappedKey.subarray(IV_BYTES + DATA_KEY_BYTES));
  try {
    return Buffer.concat([decipher.update(wrappedKey.subarray(IV_BYTES, IV_BYTES + DATA_KEY_BYTES)), decipher.final()]);
  } catch (error) {
    throw new DecryptionError({ cause: error });
  }
}

function openDecipher(masterKey: Buffer, envelope: Envelope): DecipherGCM {
  // Exact lengths: node would otherwise accept a tag as short as 4 bytes, which is far easier to forge.
  if (envelope.iv.length !== IV_BYTES || envelope.authTag.length !== AUTH_TAG_BYTES) throw new DecryptionError();
  const dataKey = unwrapDataKey(masterKey, envelope.wrappedKey);
  const decipher = createDecipheriv(ALGORITHM, dataKey, envelope.iv, { authTagLength: AUTH_TAG_BYTES });
  dataKey.fill(0);
  decipher.setAuthTag(envelope.authTag);
  return decipher;
}

function assertMasterKey(masterKey: Buffer): void {
  // A wrong-sized master key is a configuration bug, not a property of one file: fail loudly and at once.
  if (masterKey.length !== MASTER_KEY_BYTES) {
    throw new RangeError(`master key must be ${MASTER_KEY_BYTES} bytes, got ${masterKey.length}`);
  }
}
