import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Readable } from 'node:stream';
import { setImmediate } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Storage } from './port';

export type OpenStorage = () => Promise<{ storage: Storage; cleanup(): Promise<void> }>;

/** Above S3's 5 MiB minimum part size, so an S3 driver has to go multipart. */
const LARGE_BYTES = 6 * 1024 * 1024 + 123;
const CHUNK_BYTES = 64 * 1024;

/**
 * What every Storage driver must do, as one Vitest suite: call it from a driver's integration test with a
 * function that opens a fresh, empty storage. Each test writes under keys of its own.
 */
export function describeStorageContract(name: string, open: OpenStorage): void {
  describe(`${name} storage contract`, () => {
    let storage: Storage;
    let opened: Awaited<ReturnType<OpenStorage>> | undefined;
    beforeAll(async () => {
      opened = await open();
      storage = opened.storage;
    });
    afterAll(async () => {
      await opened?.cleanup();
    });

    const newKey = (leaf = 'file.bin') => `contract/${randomBytes(6).toString('hex')}/${leaf}`;

    it('round-trips a Buffer byte for byte, under a key with spaces and non-ASCII, and reports its size', async () => {
      const key = newKey('Jane Doe – birth certificate (1).pdf');
      const payload = randomBytes(100_003);
      const result = await storage.put(key, payload);
      expect(result).toEqual({ url: storage.urlFor(key), bytes: payload.length });
      expect((await readAll(await storage.get(key))).equals(payload)).toBe(true);
    });

    it('streams a multi-chunk Readable of over 5 MiB byte for byte and counts the bytes that went through', async () => {
      const key = newKey();
      const payload = randomBytes(LARGE_BYTES);
      const result = await storage.put(key, Readable.from(chunksOf(payload)));
      expect(result).toEqual({ url: storage.urlFor(key), bytes: LARGE_BYTES });
      const readBack = await readAll(await storage.get(key));
      expect(readBack.length).toBe(LARGE_BYTES);
      expect(readBack.equals(payload)).toBe(true);
    });

    it('stores an empty body as an empty object', async () => {
      const key = newKey();
      expect(await storage.put(key, Readable.from([]))).toEqual({ url: storage.urlFor(key), bytes: 0 });
      expect(await storage.exists(key)).toBe(true);
      expect((await readAll(await storage.get(key))).length).toBe(0);
    });

    it('reports existence: true for a stored object, false for a missing one', async () => {
      const key = newKey();
      await storage.put(key, Buffer.from('here'));
      expect(await storage.exists(key)).toBe(true);
      expect(await storage.exists(newKey())).toBe(false);
    });

    it('deletes an object, after which it no longer exists and cannot be read', async () => {
      const key = newKey();
      await storage.put(key, Buffer.from('short-lived'));
      await storage.delete(key);
      expect(await storage.exists(key)).toBe(false);
      await expect(storage.get(key)).rejects.toThrow();
    });

    it('resolves when deleting a key that does not exist, so a retried delete is harmless', async () => {
      await expect(storage.delete(newKey())).resolves.toBeUndefined();
    });

    it('rejects a get of a missing key', async () => {
      await expect(storage.get(newKey())).rejects.toThrow();
    });

    it('replaces the content when the same key is written again', async () => {
      const key = newKey();
      await storage.put(key, Buffer.from('first version, longer than the second'));
      await storage.put(key, Readable.from([Buffer.from('second '), Buffer.from('version')]));
      expect((await readAll(await storage.get(key))).toString()).toBe('second version');
    });

    it.each([
      ['early, in the first part', 0],
      ['late, after more than 5 MiB', LARGE_BYTES],
    ])('rejects with the source error and stores nothing when the source stream fails %s', async (_when, before) => {
      const key = newKey();
      await expect(storage.put(key, failingStream(before, 'client went away'))).rejects.toThrow('client went away');
      expect(await storage.exists(key)).toBe(false);
    });

    it('keeps the previous content when an overwrite fails part-way', async () => {
      const key = newKey();
      await storage.put(key, Buffer.from('the good copy'));
      await expect(storage.put(key, failingStream(CHUNK_BYTES * 3, 'disk on fire'))).rejects.toThrow('disk on fire');
      expect((await readAll(await storage.get(key))).toString()).toBe('the good copy');
    });

    it.each([['../x'], ['/abs'], ['a//b'], ['a\0b'], ['a/./b'], ['a\\b']])('refuses the unsafe key %j in every operation', async (key) => {
      const unsafe = /unsafe storage key/;
      await expect(storage.put(key, Buffer.from('x'))).rejects.toThrow(unsafe);
      await expect(storage.get(key)).rejects.toThrow(unsafe);
      await expect(storage.delete(key)).rejects.toThrow(unsafe);
      expect(() => storage.urlFor(key)).toThrow(unsafe);
      await expect(storage.exists(key)).rejects.toThrow(unsafe);
    });

    it('gives a location URL of the driver’s own form, never a public link', () => {
      const key = 'seasons/2025/AAA-2025-0a1b2c3d/birth certificate.pdf';
      const expected =
        storage.driver === 's3' ? `${storage.location}/${key}` : pathToFileURL(path.join(storage.location, ...key.split('/'))).href;
      expect(storage.urlFor(key)).toBe(expected);
      expect(storage.urlFor(key)).not.toMatch(/^https?:/);
    });
  });
}

export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

function* chunksOf(payload: Buffer): Generator<Buffer> {
  for (let offset = 0; offset < payload.length; offset += CHUNK_BYTES) yield payload.subarray(offset, offset + CHUNK_BYTES);
}

/** A body that delivers `before` random bytes (at least a few) and then fails, like a client that hangs up. */
function failingStream(before: number, message: string): Readable {
  async function* produce(): AsyncGenerator<Buffer> {
    yield Buffer.from('partial');
    yield* chunksOf(randomBytes(before));
    // A turn of the event loop, as a real socket would take, so the failure is not synchronous with the data.
    await setImmediate();
    throw new Error(message);
  }
  return Readable.from(produce());
}
