import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { access, mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { pathToFileURL } from 'node:url';
import { assertSafeKey, type Storage } from './port';

/**
 * Files under one directory. A write goes to a temporary name, is fsynced, then renamed into place and
 * the directory fsynced: a crash leaves either the whole object or none, never half of one.
 */
export function createLocalStorage(root: string): Storage {
  const resolve = (key: string) => {
    assertSafeKey(key);
    return path.join(root, ...key.split('/'));
  };

  return {
    driver: 'local',
    location: root,

    async put(key, body) {
      const target = resolve(key);
      const directory = path.dirname(target);
      await mkdir(directory, { recursive: true, mode: 0o700 });
      const temporary = path.join(directory, `.${path.basename(target)}.${randomBytes(6).toString('hex')}.tmp`);
      let bytes = 0;
      const source = Buffer.isBuffer(body) ? Readable.from([body]) : body;
      source.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
      });
      try {
        await pipeline(source, createWriteStream(temporary, { mode: 0o600, flags: 'wx' }));
        const handle = await open(temporary, 'r');
        await handle.sync().finally(() => handle.close());
        await rename(temporary, target);
        const dirHandle = await open(directory, 'r');
        await dirHandle.sync().finally(() => dirHandle.close());
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
      return { url: pathToFileURL(target).href, bytes };
    },

    async get(key) {
      const file = resolve(key);
      await access(file);
      return createReadStream(file);
    },

    async exists(key) {
      const file = resolve(key); // an unsafe key is an error, not a missing object
      try {
        await access(file);
        return true;
      } catch {
        return false;
      }
    },

    async delete(key) {
      await rm(resolve(key), { force: true });
    },

    urlFor: (key) => pathToFileURL(resolve(key)).href,
  };
}
