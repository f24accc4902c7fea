import { createHash, randomBytes } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import {
  AUTH_TAG_BYTES,
  createDecryptor,
  createEncryptor,
  decryptToBuffer,
  DecryptionError,
  IV_BYTES,
  sha256Of,
  WRAPPED_KEY_BYTES,
  type EncryptionResult,
  type Envelope,
} from './envelope';

const masterKey = randomBytes(32);
const CHUNK = 64 * 1024;

/** Feeds `plaintext` through an encryptor in 64 KiB chunks, as a file read would. */
async function encrypt(plaintext: Buffer, key = masterKey): Promise<{ ciphertext: Buffer } & EncryptionResult> {
  const { transform, result } = createEncryptor(key);
  const chunks: Buffer[] = [];
  await pipeline(Readable.from(chunksOf(plaintext)), transform, async (out: AsyncIterable<Buffer>) => {
    for await (const chunk of out) chunks.push(chunk);
  });
  return { ciphertext: Buffer.concat(chunks), ...(await result) };
}

function* chunksOf(bytes: Buffer): Generator<Buffer> {
  for (let at = 0; at < bytes.length; at += CHUNK) yield bytes.subarray(at, at + CHUNK);
}

function flipBit(buffer: Buffer, index: number): Buffer {
  const copy = Buffer.from(buffer);
  copy[index] = (copy[index] ?? 0) ^ 0x01;
  return copy;
}

describe('createEncryptor / createDecryptor', () => {
  it.each([
    ['an empty file', 0],
    ['a 1-byte file', 1],
    ['a 5 MB file in many chunks', 5 * 1024 * 1024 + 7],
  ])('round-trips %s', async (_label, size) => {
    const plaintext = randomBytes(size);
    const sealed = await encrypt(plaintext);
    expect(sealed.ciphertext.length).toBe(size);
    expect(sealed.bytes).toBe(size);
    // Buffer.equals: a deep toEqual over megabytes takes seconds.
    expect((await decryptToBuffer(masterKey, sealed, sealed.ciphertext)).equals(plaintext)).toBe(true);
  });

  it('decrypts as a stream when the ciphertext arrives in many chunks', async () => {
    const plaintext = randomBytes(300_000);
    const sealed = await encrypt(plaintext);
    const out: Buffer[] = [];
    await pipeline(
      Readable.from(chunksOf(sealed.ciphertext)),
      createDecryptor(masterKey, sealed),
      new Writable({
        write(chunk: Buffer, _encoding, callback) {
          out.push(chunk);
          callback();
        },
      }),
    );
    expect(Buffer.concat(out).equals(plaintext)).toBe(true);
  });

  it('reports the SHA-256 of the plaintext, as node computes it', async () => {
    const plaintext = randomBytes(200_000);
    const sealed = await encrypt(plaintext);
    expect(sealed.sha256).toBe(createHash('sha256').update(plaintext).digest('hex'));
    expect((await encrypt(Buffer.alloc(0))).sha256).toBe(createHash('sha256').digest('hex'));
  });

  it('produces ciphertext unlike the plaintext, and unlike another encryption of the same file', async () => {
    const plaintext = Buffer.alloc(4096, 'a');
    const first = await encrypt(plaintext);
    const second = await encrypt(plaintext);
    expect(first.ciphertext.equals(plaintext)).toBe(false);
    expect(first.ciphertext.equals(second.ciphertext)).toBe(false);
    expect(first.iv.equals(second.iv)).toBe(false);
    expect(first.wrappedKey.equals(second.wrappedKey)).toBe(false);
  });

  it('stores a 60-byte wrapped key, a 12-byte IV and a 16-byte tag', async () => {
    const sealed = await encrypt(Buffer.from('hello'));
    expect(WRAPPED_KEY_BYTES).toBe(60);
    expect(sealed.wrappedKey.length).toBe(60);
    expect(sealed.iv.length).toBe(IV_BYTES);
    expect(sealed.authTag.length).toBe(AUTH_TAG_BYTES);
  });

  it('rejects the result when the stream is destroyed before the end', async () => {
    const { transform, result } = createEncryptor(masterKey);
    transform.on('error', () => undefined);
    transform.write(Buffer.from('partial'));
    transform.destroy(new Error('upload aborted'));
    await expect(result).rejects.toThrow('upload aborted');
  });

  it('refuses a master key that is not 32 bytes', () => {
    expect(() => createEncryptor(randomBytes(16))).toThrow(RangeError);
  });
});

describe('authentication failures', () => {
  const plaintext = randomBytes(100_000);
  const sealedPromise = encrypt(plaintext);

  const tampered: Array<[string, (sealed: { ciphertext: Buffer } & Envelope) => [Envelope, Buffer]]> = [
    ['a flipped bit in the ciphertext', (s) => [s, flipBit(s.ciphertext, 54_321)]],
    ['a flipped bit in the last byte of the ciphertext', (s) => [s, flipBit(s.ciphertext, s.ciphertext.length - 1)]],
    ['a flipped bit in the tag', (s) => [{ ...s, authTag: flipBit(s.authTag, 3) }, s.ciphertext]],
    ['a flipped bit in the IV', (s) => [{ ...s, iv: flipBit(s.iv, 0) }, s.ciphertext]],
    ['a flipped bit in the wrapped key (its IV part)', (s) => [{ ...s, wrappedKey: flipBit(s.wrappedKey, 1) }, s.ciphertext]],
    ['a flipped bit in the wrapped key (its key part)', (s) => [{ ...s, wrappedKey: flipBit(s.wrappedKey, 20) }, s.ciphertext]],
    ['a flipped bit in the wrapped key (its tag part)', (s) => [{ ...s, wrappedKey: flipBit(s.wrappedKey, 59) }, s.ciphertext]],
    ['a tag cut to 4 bytes', (s) => [{ ...s, authTag: s.authTag.subarray(0, 4) }, s.ciphertext]],
    ['a wrapped key cut to 59 bytes', (s) => [{ ...s, wrappedKey: s.wrappedKey.subarray(0, 59) }, s.ciphertext]],
    ['a ciphertext missing its last byte', (s) => [s, s.ciphertext.subarray(0, s.ciphertext.length - 1)]],
  ];

  it.each(tampered)('fails with DecryptionError given %s', async (_label, alter) => {
    const [envelope, ciphertext] = alter(await sealedPromise);
    const failure = decryptToBuffer(masterKey, envelope, ciphertext);
    await expect(failure).rejects.toBeInstanceOf(DecryptionError);
    await expect(failure).rejects.toThrow('stored file failed authentication: it was altered or the key is wrong');
  });

  it('fails with DecryptionError under the wrong master key', async () => {
    const sealed = await sealedPromise;
    await expect(decryptToBuffer(randomBytes(32), sealed, sealed.ciphertext)).rejects.toBeInstanceOf(DecryptionError);
  });

  it('fails an empty file whose tag was altered', async () => {
    const sealed = await encrypt(Buffer.alloc(0));
    await expect(
      decryptToBuffer(masterKey, { ...sealed, authTag: flipBit(sealed.authTag, 15) }, sealed.ciphertext),
    ).rejects.toBeInstanceOf(DecryptionError);
  });

  it('emits plaintext before the late tag failure, so a stream consumer sees the error last', async () => {
    const sealed = await sealedPromise;
    const decryptor = createDecryptor(masterKey, { ...sealed, authTag: flipBit(sealed.authTag, 0) });
    let received = 0;
    const consume = pipeline(
      Readable.from(chunksOf(sealed.ciphertext)),
      decryptor,
      new Writable({
        write(chunk: Buffer, _encoding, callback) {
          received += chunk.length;
          callback();
        },
      }),
    );
    await expect(consume).rejects.toBeInstanceOf(DecryptionError);
    expect(received).toBe(plaintext.length);
  });

  it('fails before any output when the wrapped key does not unwrap', async () => {
    const sealed = await sealedPromise;
    let received = 0;
    const consume = pipeline(
      Readable.from(chunksOf(sealed.ciphertext)),
      createDecryptor(randomBytes(32), sealed),
      new Writable({
        write(chunk: Buffer, _encoding, callback) {
          received += chunk.length;
          callback();
        },
      }),
    );
    await expect(consume).rejects.toBeInstanceOf(DecryptionError);
    expect(received).toBe(0);
  });
});

describe('sha256Of', () => {
  it('hashes and counts a stream and a buffer alike', async () => {
    const bytes = randomBytes(150_000);
    const expected = { sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length };
    expect(await sha256Of(Readable.from(chunksOf(bytes)))).toEqual(expected);
    expect(await sha256Of(bytes)).toEqual(expected);
  });
});
