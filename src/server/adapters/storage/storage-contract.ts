import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { setImmediate } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Storage, StoredObject } from './port';

export type OpenStorage = () => Promise<{ storage: Storage; cleanup(): Promise<void> }>;

/** Above S3's 5 MiB minimum part size, so an S3 driver has to go multipart. */
const LARGE_BYTES = 6 * 1024 * 1024 + 123;
const CHUNK_BYTES = 64 * 1024;
/**
 * Objects in the pagination test: several pages for a driver opened with a small page size (S3's
 * `listPageSize`), few enough to write in a moment.
 */
const LIST_KEYS = 11;

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

    it('copies an object to another key without touching the source, replacing what was there', async () => {
      const from = newKey();
      const to = newKey();
      await storage.put(from, Buffer.from('ciphertext bytes'));
      await storage.put(to, Buffer.from('older content'));
      await storage.copy(from, to);
      expect((await readAll(await storage.get(to))).toString()).toBe('ciphertext bytes');
      expect((await readAll(await storage.get(from))).toString()).toBe('ciphertext bytes');
      await storage.delete(from);
      expect((await readAll(await storage.get(to))).toString()).toBe('ciphertext bytes');
    });

    it('rejects a copy of a missing object and refuses unsafe keys', async () => {
      await expect(storage.copy(newKey(), newKey())).rejects.toThrow();
      await expect(storage.copy('../x', newKey())).rejects.toThrow(/unsafe storage key/);
      await expect(storage.copy(newKey(), '/abs')).rejects.toThrow(/unsafe storage key/);
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
      await expect(listKeys(storage, key)).rejects.toThrow(unsafe);
    });

    it.each([[''], ['/']])('refuses to list the whole storage through the prefix %j', async (prefix) => {
      await expect(listKeys(storage, prefix)).rejects.toThrow(/unsafe storage key/);
    });

    it('lists every object under a folder at any depth, with when it was written, and nothing beside it', async () => {
      const folder = `contract/${randomBytes(6).toString('hex')}`;
      const inside = [`${folder}/0`, `${folder}/1`, `${folder}/deeper/2`, `${folder}/deeper/still/Jane Doe – 3.pdf`];
      // Siblings that share the folder's name as a string prefix, and a neighbour: none of them is inside.
      const beside = [`${folder}-old/0`, `${folder}x`, `${folder}.bin`, `contract/${randomBytes(6).toString('hex')}/0`];
      const before = Date.now();
      for (const key of [...inside, ...beside]) await storage.put(key, Buffer.from(key));
      const after = Date.now();

      const listed = await listAll(storage, folder);
      expect(listed.map((o) => o.key).sort()).toEqual([...inside].sort());
      for (const { lastModified } of listed) {
        expect(lastModified).toBeInstanceOf(Date);
        // S3 keeps whole seconds: allow for the rounding, nothing more.
        expect(lastModified.getTime()).toBeGreaterThanOrEqual(before - 2_000);
        expect(lastModified.getTime()).toBeLessThanOrEqual(after + 2_000);
      }
      expect((await listKeys(storage, `${folder}/`)).sort()).toEqual([...inside].sort());
      expect((await listKeys(storage, `${folder}/deeper`)).sort()).toEqual([`${folder}/deeper/2`, `${folder}/deeper/still/Jane Doe – 3.pdf`]);
    });

    it('lists nothing under a folder that never existed, or whose objects were all deleted', async () => {
      expect(await listKeys(storage, `contract/${randomBytes(6).toString('hex')}`)).toEqual([]);
      const folder = `contract/${randomBytes(6).toString('hex')}`;
      await storage.put(`${folder}/sub/only`, Buffer.from('soon gone'));
      await storage.delete(`${folder}/sub/only`);
      expect(await listKeys(storage, folder)).toEqual([]);
    });

    it('lists nothing under a prefix that names an object rather than a folder', async () => {
      const key = newKey();
      await storage.put(key, Buffer.from('a file, not a folder'));
      expect(await listKeys(storage, key)).toEqual([]);
    });

    it('lists every key of a folder that spans several pages, each once', async () => {
      const folder = `contract/${randomBytes(6).toString('hex')}`;
      const keys = Array.from({ length: LIST_KEYS }, (_, i) => `${folder}/${String(i).padStart(2, '0')}`);
      await Promise.all(keys.map((key) => storage.put(key, Buffer.from(key))));
      expect((await listKeys(storage, folder)).sort()).toEqual(keys);
    });

    it('does not list an overwrite twice, nor an object after it is deleted', async () => {
      const folder = `contract/${randomBytes(6).toString('hex')}`;
      await storage.put(`${folder}/kept`, Buffer.from('v1'));
      await storage.put(`${folder}/kept`, Buffer.from('v2'));
      await storage.put(`${folder}/gone`, Buffer.from('x'));
      await storage.delete(`${folder}/gone`);
      expect(await listKeys(storage, folder)).toEqual([`${folder}/kept`]);
    });

    it('gives a location URL of the driver’s own form, never a public link', () => {
      const key = 'seasons/2025/AAA-2025-0a1b2c3d/birth certificate.pdf';
      const expected = storage.driver === 's3' ? `${storage.location}/${key}` : `local:${key}`;
      expect(storage.urlFor(key)).toBe(expected);
      expect(storage.urlFor(key)).not.toMatch(/^https?:|^file:/);
    });
  });
}

export async function listAll(storage: Storage, prefix: string): Promise<StoredObject[]> {
  const objects: StoredObject[] = [];
  for await (const object of storage.list(prefix)) objects.push(object);
  return objects;
}

export async function listKeys(storage: Storage, prefix: string): Promise<string[]> {
  return (await listAll(storage, prefix)).map((object) => object.key);
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
