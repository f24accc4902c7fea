import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writePdf } from '../../../tests/support/file-corpus';
import { makePdf, makePng } from '../../../tests/support/multipart';
import { createLocalStorage } from '../adapters/storage/local-storage';
import type { Storage } from '../adapters/storage/port';
import { stageFile, stageUpload } from './stage-file';

const masterKey = randomBytes(32);
const KEY = 'staging/2025/upload-1.bin';

/** `bytes` in 64 KiB pieces, then an error, as a connection dropped inside a file delivers it. */
function failingSource(bytes: Buffer, failAfter: number): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= failAfter) {
        this.destroy(new Error('connection dropped'));
        return;
      }
      const piece = bytes.subarray(sent, Math.min(sent + 64 * 1024, failAfter));
      sent += piece.length;
      this.push(piece);
    },
  });
}

describe('stageFile on local storage', () => {
  let root: string;
  let local: Storage;

  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'clearbase-stage-file-'));
    local = createLocalStorage(root);
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  const filesIn = async (folder: string) => (await readdir(path.join(root, folder)).catch(() => [])).sort();

  it('answers a failed source only after storage has settled, and leaves no file behind, not even a temporary one', async () => {
    let putSettled = false;
    // Local storage whose put takes a moment longer to settle after the stream fails, as a slow disk's cleanup does.
    const storage: Storage = {
      ...local,
      async put(key, body) {
        try {
          return await local.put(key, body);
        } finally {
          await delay(50);
          putSettled = true;
        }
      },
    };
    const pdf = makePdf('medical form', 700_000);

    await expect(stageFile(failingSource(pdf, 400_000), { storage, masterKey, maxBytes: 1 << 20 }, KEY)).rejects.toThrow('connection dropped');

    expect(putSettled).toBe(true);
    expect(await filesIn('staging/2025')).toEqual([]);
  });

  it('answers a storage failure with its message at once, even when storage gave up without reading the body', async () => {
    // As an object store that refuses the upload: the body is never read, so it is never drained either.
    const storage: Storage = {
      ...local,
      put: () => Promise.reject(new Error('The bucket is not accepting uploads.')),
    };
    const pdf = makePdf('residency proof', 4 << 20);
    let read = 0;
    const source = Readable.from(
      (function* () {
        for (let at = 0; at < pdf.length; at += 64 * 1024) {
          read += 1;
          yield pdf.subarray(at, at + 64 * 1024);
        }
      })(),
    );

    await expect(stageFile(source, { storage, masterKey, maxBytes: 8 << 20 }, KEY)).rejects.toThrow('The bucket is not accepting uploads.');

    // The source was let go of, not read to its end into a stream nobody reads.
    expect(read).toBeLessThan(pdf.length / (64 * 1024));
    expect(source.destroyed).toBe(true);
    expect(await filesIn('staging/2025')).toEqual([]);
  }, 5_000);

  it('answers a storage that fails after a small file has already passed through, with no error left unheard', async () => {
    // A read-only storage folder: the write fails at its first mkdir, after the whole small file went into the
    // sealer. Telling the sealer of the failure then must not raise an 'error' event nobody listens to (it
    // would end the server's process).
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.prependListener('uncaughtException', onUncaught);
    try {
      const storage: Storage = {
        ...local,
        put: async () => {
          await delay(20);
          throw new Error('EPERM: operation not permitted, mkdir');
        },
      };
      await expect(stageFile(Readable.from([makePdf('waiver', 2_000)]), { storage, masterKey, maxBytes: 1 << 20 }, KEY)).rejects.toThrow('EPERM');
      await delay(20);
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', onUncaught);
    }
  });

  it('stores the whole file when the source ends well', async () => {
    const pdf = makePdf('birth certificate', 300_000);

    const outcome = await stageFile(Readable.from([pdf]), { storage: local, masterKey, maxBytes: 1 << 20 }, KEY);

    expect(outcome).toMatchObject({ kind: 'sealed', result: { bytes: pdf.length } });
    expect(await filesIn('staging/2025')).toEqual(['upload-1.bin']);
  });

  describe('stageUpload: the file opened by its decoder, in the request path', () => {
    const cutPdf = writePdf({ pages: 2, text: 'medical' });
    const upload = (bytes: Buffer, originalFilename: string) =>
      stageUpload(Readable.from([bytes]), { originalFilename, declaredType: 'medical', key: KEY }, { storage: local, masterKey, maxFileBytes: 1 << 20 });

    it('stages a file that opens', async () => {
      const photo = makePng(120, 90, 4);
      expect(await upload(photo, 'medical.png')).toMatchObject({ kind: 'staged', mime: 'image/png', bytes: photo.length, stagedKey: KEY });
      expect(await filesIn('staging/2025')).toEqual(['upload-1.bin']);
    }, 60_000);

    it.each([
      ['a photo cut short', makePng(120, 90, 5).subarray(0, 20_000), 'medical.png', 'CORRUPT_FILE', 'This image is damaged or incomplete (it could not be opened); please take the photo again.'],
      ['a PDF cut before its pages', cutPdf.bytes.subarray(0, cutPdf.xref / 2), 'medical.pdf', 'CORRUPT_FILE', 'This PDF is damaged and cannot be opened; please export it again.'],
    ])('refuses %s and keeps nothing of it', async (_label, bytes, originalFilename, code, message) => {
      expect(await upload(bytes, originalFilename)).toEqual({ kind: 'refused', originalFilename, declaredType: 'medical', code, message, bytes: bytes.length });
      expect(await filesIn('staging/2025')).toEqual([]);
    }, 60_000);

    it('fails, and keeps nothing, when the file cannot be opened for a reason of the server’s', async () => {
      const pdf = makePdf('waiver');
      const broken = () => Promise.reject(new Error('the file inspector thread did not start in time'));
      await expect(
        stageUpload(Readable.from([pdf]), { originalFilename: 'waiver.pdf', declaredType: 'waiver', key: KEY }, { storage: local, masterKey, maxFileBytes: 1 << 20, inspect: broken }),
      ).rejects.toThrow('did not start in time');
      expect(await filesIn('staging/2025')).toEqual([]);
    });
  });
});
