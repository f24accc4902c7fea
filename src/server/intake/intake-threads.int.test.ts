import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMultipart, makePdf, makePng, PNG_HEADER, type Part } from '../../../tests/support/multipart';
import { createLocalStorage } from '../adapters/storage/local-storage';
import type { Storage } from '../adapters/storage/port';
import { decryptToBuffer } from '../platform/crypto/envelope';
import { AppError } from '../platform/errors';
import { createLogger } from '../platform/logger';
import type { StagedFile } from '../pipeline/types';
import { stagedKey } from '../pipeline/staging-sweeper';
import { signBody } from './form/form-webhook';
import { createIntakeThreads, type IntakeThreads, type StageMultipartRequest } from './intake-threads';

const SECRET = 'form-webhook-secret-for-thread-tests';
const MiB = 1 << 20;
const masterKey = randomBytes(32);
const log = createLogger('silent');

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

type BodyOptions = {
  chunkBytes?: number;
  /** Fails the stream, as a dropped connection does, once this many bytes have been delivered. */
  failAfter?: number;
  /** Delivers nothing more past `bytes` until `until` resolves. */
  hold?: { bytes: number; until: () => Promise<void> };
  onPull?: (pulled: number) => void;
};

/** A body delivered `chunkBytes` at a time, as a socket would, counting what has been pulled from it. */
function bodyStream(body: Buffer, options: BodyOptions = {}): Readable {
  const chunkBytes = options.chunkBytes ?? 64 * 1024;
  let pulled = 0;
  let held = false;
  const stream: Readable = new Readable({
    read() {
      if (options.hold && !held && pulled >= options.hold.bytes) {
        held = true;
        options.hold.until().then(deliver, (error: Error) => stream.destroy(error));
        return;
      }
      deliver();
    },
  });
  const deliver = () => {
    if (options.failAfter !== undefined && pulled >= options.failAfter) {
      stream.destroy(new Error('socket hang up'));
      return;
    }
    const chunk = body.subarray(pulled, pulled + chunkBytes);
    pulled += chunk.length;
    options.onPull?.(pulled);
    stream.push(chunk.length > 0 ? chunk : null);
  };
  return stream;
}

/** Every file under `root`, temporaries included: "nothing left" means nothing at all. */
async function filesUnder(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
}

async function readObject(storage: Storage, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await storage.get(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Resolves once something (a temporary included) has been written under `folder`. */
async function somethingWrittenUnder(folder: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while ((await filesUnder(folder)).length === 0) {
    if (Date.now() > deadline) throw new Error(`nothing was written under ${folder}`);
    await delay(5);
  }
}

const staged = (file: unknown): StagedFile => {
  const f = file as StagedFile | undefined;
  if (f?.kind !== 'staged') throw new Error(`expected a staged file, got ${JSON.stringify(file)}`);
  return f;
};

/** The rejection of `promise`, which must be an AppError. */
async function appErrorOf(promise: Promise<unknown>): Promise<{ code: string; message: string; cause?: string }> {
  const error = await promise.then(
    () => new Error('expected a rejection'),
    (reason: unknown) => reason,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return { code: error.code, message: error.message, ...(error.cause instanceof Error ? { cause: error.cause.message } : {}) };
}

describe('intake threads', () => {
  let threads: IntakeThreads;
  let root = '';

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'cb-intake-threads-'));
    threads = createIntakeThreads({ masterKey, threads: 2, log });
  });
  afterAll(async () => {
    await threads.close();
    await rm(root, { recursive: true, force: true });
  });

  /** A storage of its own per test, so "nothing left" is not disturbed by another test's objects. */
  const freshStorage = async () => {
    const folder = await mkdtemp(path.join(root, 'storage-'));
    return { folder, storage: createLocalStorage(folder) };
  };

  /** A request for `body` (streamed by `stream`), signed as a form provider signs it. */
  const request = (storage: Storage, stream: Readable, body: Buffer, contentType: string, overrides: Partial<StageMultipartRequest> = {}): StageMultipartRequest => {
    const submissionId = randomUUID();
    return {
      body: stream,
      contentType,
      secret: SECRET,
      signature: signBody(SECRET, body),
      maxFileBytes: 2 * MiB,
      maxBodyBytes: 16 * MiB,
      stagingKey: (position) => stagedKey(submissionId, position),
      storage,
      ...overrides,
    };
  };

  it('stages each file encrypted under its staging key, in the order of the parts', async () => {
    const { storage } = await freshStorage();
    const birth = makePdf('birth certificate', 1_500_000);
    const photo = makePng(320, 320, 11);
    const waiver = makePdf('waiver');
    const { body, contentType } = buildMultipart([
      { name: 'submissionId', value: 'form-1' },
      { name: 'birth_certificate', filename: 'birth.pdf', content: birth },
      { name: 'playerFirstName', value: 'Ada' },
      { name: 'medical', filename: 'physical.png', content: photo },
      { name: 'document', filename: 'waiver.pdf', content: waiver },
    ]);
    const submissionId = randomUUID();
    const result = await threads.stageMultipart(request(storage, bodyStream(body), body, contentType, { stagingKey: (position) => stagedKey(submissionId, position) }));

    expect(result.hmacHex).toBe(signBody(SECRET, body).slice('sha256='.length));
    expect(result.bytes).toBe(body.length);
    expect(result.fields).toEqual({ submissionId: 'form-1', playerFirstName: 'Ada' });
    expect(result.parseError).toBeNull();
    expect(result.unknownField).toBeNull();
    expect(result.files.map((file) => [file.kind, file.originalFilename, file.declaredType, file.kind === 'staged' ? file.stagedKey : null])).toEqual([
      ['staged', 'birth.pdf', 'birth_certificate', `staging/${submissionId}-0`],
      ['staged', 'physical.png', 'medical', `staging/${submissionId}-1`],
      ['staged', 'waiver.pdf', null, `staging/${submissionId}-2`],
    ]);

    for (const [position, original] of [birth, photo, waiver].entries()) {
      const file = staged(result.files[position]);
      expect(file).toMatchObject({ sha256: sha256(original), bytes: original.length, mime: position === 1 ? 'image/png' : 'application/pdf' });
      const ciphertext = await readObject(storage, file.stagedKey);
      expect(ciphertext.length).toBe(original.length);
      expect(ciphertext.includes(Buffer.from('%PDF'))).toBe(false);
      expect((await decryptToBuffer(masterKey, file.envelope, ciphertext)).equals(original)).toBe(true);
    }
  });

  it('refuses a body over maxBodyBytes with PAYLOAD_TOO_LARGE and leaves nothing in storage', async () => {
    const { folder, storage } = await freshStorage();
    const { body, contentType } = buildMultipart([
      { name: 'birth_certificate', filename: 'a.pdf', content: makePdf('a', 1_500_000) },
      { name: 'residency', filename: 'b.pdf', content: makePdf('b', 1_500_000) },
    ]);
    // The first file is being written when the body goes over the cap.
    let writing = false;
    const hold = { bytes: 1.5 * MiB, until: () => somethingWrittenUnder(folder).then(() => void (writing = true)) };
    const error = await appErrorOf(threads.stageMultipart(request(storage, bodyStream(body, { hold }), body, contentType, { maxBodyBytes: 2 * MiB })));
    expect(error).toEqual({ code: 'PAYLOAD_TOO_LARGE', message: 'The request is larger than 2 MB.' });
    expect(writing).toBe(true);
    expect(await filesUnder(folder)).toEqual([]);
  });

  it('refuses a body that fails part way with VALIDATION_FAILED and leaves nothing in storage', async () => {
    const { folder, storage } = await freshStorage();
    const { body, contentType } = buildMultipart([{ name: 'birth_certificate', filename: 'a.pdf', content: makePdf('a', 4 * MiB) }]);
    let writing = false;
    const hold = { bytes: 2 * MiB, until: () => somethingWrittenUnder(folder).then(() => void (writing = true)) };
    const error = await appErrorOf(threads.stageMultipart(request(storage, bodyStream(body, { failAfter: 3 * MiB, hold }), body, contentType, { maxFileBytes: 8 * MiB })));
    expect(error).toEqual({ code: 'VALIDATION_FAILED', message: 'The request body ended before it was complete.' });
    expect(writing).toBe(true);
    expect(await filesUnder(folder)).toEqual([]);
  });

  it('reports a refused file with its reason and keeps no object for it', async () => {
    const { folder, storage } = await freshStorage();
    const pngNamedPdf = Buffer.concat([PNG_HEADER, randomBytes(200_000)]);
    const pdf = makePdf('kept');
    const cutPhoto = makePng(300, 300, 12).subarray(0, 150_000);
    const { body, contentType } = buildMultipart([
      { name: 'medical', filename: 'photo.pdf', content: pngNamedPdf },
      { name: 'waiver', filename: 'waiver.pdf', content: pdf },
      { name: 'residency', filename: 'empty.pdf', content: Buffer.alloc(0) },
      { name: 'birth_certificate', filename: 'birth.png', content: cutPhoto },
    ]);
    const submissionId = randomUUID();
    const result = await threads.stageMultipart(request(storage, bodyStream(body), body, contentType, { stagingKey: (position) => stagedKey(submissionId, position) }));
    expect(result.files[0]).toEqual({
      kind: 'refused',
      originalFilename: 'photo.pdf',
      declaredType: 'medical',
      code: 'EXTENSION_MISMATCH',
      message: 'The file is a PNG image but is named .pdf',
      bytes: pngNamedPdf.length,
    });
    expect(result.files[2]).toEqual({ kind: 'refused', originalFilename: 'empty.pdf', declaredType: 'residency', code: 'EMPTY_FILE', message: 'The file is empty', bytes: 0 });
    // Opened by its decoder in the thread's file inspector: cut short, so refused, and its object deleted.
    expect(result.files[3]).toEqual({
      kind: 'refused',
      originalFilename: 'birth.png',
      declaredType: 'birth_certificate',
      code: 'CORRUPT_FILE',
      message: 'This image is damaged or incomplete (it could not be opened); please take the photo again.',
      bytes: cutPhoto.length,
    });
    expect(staged(result.files[1]).sha256).toBe(sha256(pdf));
    expect(await filesUnder(folder)).toEqual([path.join('staging', `${submissionId}-1`)]);
  });

  it('opens no file of a body its signature does not sign, and still stages and reports each', async () => {
    const { storage } = await freshStorage();
    const pdf = makePdf('unsigned');
    const { body, contentType } = buildMultipart([
      { name: 'waiver', filename: 'waiver.pdf', content: pdf },
      { name: 'residency', filename: 'empty.pdf', content: Buffer.alloc(0) },
    ]);
    const result = await threads.stageMultipart(request(storage, bodyStream(body), body, contentType, { signature: `sha256=${'0'.repeat(64)}` }));
    expect(result.files).toEqual([
      { kind: 'refused', originalFilename: 'waiver.pdf', declaredType: 'waiver', code: 'NOT_OPENED', message: 'The file was not opened: the request was refused.', bytes: pdf.length },
      { kind: 'refused', originalFilename: 'empty.pdf', declaredType: 'residency', code: 'EMPTY_FILE', message: 'The file is empty', bytes: 0 },
    ]);
    await result.discard();
  });

  it('refuses a file over maxFileBytes and keeps no object for it', async () => {
    const { folder, storage } = await freshStorage();
    const { body, contentType } = buildMultipart([{ name: 'medical', filename: 'big.pdf', content: makePdf('big', 3 * MiB) }]);
    const result = await threads.stageMultipart(request(storage, bodyStream(body), body, contentType, { maxFileBytes: 2 * MiB }));
    expect(result.files).toEqual([
      { kind: 'refused', originalFilename: 'big.pdf', declaredType: 'medical', code: 'TOO_LARGE', message: 'The file is 2.1 MB; the limit is 2 MB', bytes: 2 * MiB + 1 },
    ]);
    expect(await filesUnder(folder)).toEqual([]);
  });

  it('fails with SERVICE_UNAVAILABLE when the thread cannot write a file into the local folder, and leaves nothing', async () => {
    const { folder, storage } = await freshStorage();
    // A file where the staging folder should be: the thread writing there itself cannot make it.
    await writeFile(path.join(folder, 'staging'), '');
    const { body, contentType } = buildMultipart([
      { name: 'birth_certificate', filename: 'a.pdf', content: makePdf('a', 500_000) },
      { name: 'waiver', filename: 'b.pdf', content: makePdf('b') },
    ]);
    const error = await appErrorOf(threads.stageMultipart(request(storage, bodyStream(body), body, contentType)));
    expect(error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: 'Storage is not accepting files right now. Send the form again later.' });
    expect(error.cause).toMatch(/EEXIST|ENOTDIR/);
    expect(await filesUnder(folder)).toEqual(['staging']);
  });

  it('discard() removes every staged object of the body', async () => {
    const { folder, storage } = await freshStorage();
    const { body, contentType } = buildMultipart([
      { name: 'birth_certificate', filename: 'a.pdf', content: makePdf('a', 500_000) },
      { name: 'residency', filename: 'b.pdf', content: makePdf('b') },
      { name: 'waiver', filename: 'c.pdf', content: makePdf('c') },
    ]);
    const result = await threads.stageMultipart(request(storage, bodyStream(body), body, contentType));
    expect((await filesUnder(folder)).length).toBe(3);
    await result.discard();
    expect(await filesUnder(folder)).toEqual([]);
  });

  it('holds the client back while a storage reading with for await is slow, and never stalls', async () => {
    // How the S3 driver reads: for await takes the whole buffer in one read(), which once left the body paused for good.
    let pulled = 0;
    let consumed = 0;
    let maxInFlight = 0;
    const { storage: local } = await freshStorage();
    const slow: Storage = {
      ...local,
      async put(_key, body) {
        let bytes = 0;
        for await (const chunk of Buffer.isBuffer(body) ? Readable.from([body]) : body) {
          const piece = chunk as Buffer;
          bytes += piece.length;
          consumed += piece.length;
          await new Promise((resolve) => setTimeout(resolve, Math.ceil((piece.length / MiB) * 20)));
        }
        return { url: 'memory://discarded', bytes };
      },
      delete: () => Promise.resolve(),
    };
    const file = makePdf('forty', 40 * MiB);
    const { body, contentType } = buildMultipart([{ name: 'document', filename: 'forty.pdf', content: file }]);
    const stream = bodyStream(body, {
      onPull: (total) => {
        pulled = total;
        maxInFlight = Math.max(maxInFlight, pulled - consumed);
      },
    });
    const result = await threads.stageMultipart(request(slow, stream, body, contentType, { maxFileBytes: 41 * MiB, maxBodyBytes: 64 * MiB }));
    expect(result.files.map((f) => staged(f).sha256)).toEqual([sha256(file)]);
    expect(pulled).toBe(body.length);
    expect(maxInFlight).toBeLessThanOrEqual(10 * MiB);
  }, 20_000);

  it('holds the client back while storage is slow: no more than the window is ever in memory', async () => {
    const { storage: local } = await freshStorage();
    let pulled = 0;
    let consumed = 0;
    let maxInFlight = 0;
    // Storage that takes 1 MiB per 20 ms (50 MiB/s), far slower than the body arrives; it reads as local
    // storage does, by piping the stream.
    const slow: Storage = {
      ...local,
      put(key, body) {
        let owed = 0;
        const paced = new Transform({
          transform(chunk: Buffer, _encoding, callback) {
            consumed += chunk.length;
            owed += chunk.length;
            if (owed < MiB) return callback(null, chunk);
            owed -= MiB;
            setTimeout(() => callback(null, chunk), 20);
          },
        });
        (Buffer.isBuffer(body) ? Readable.from([body]) : body).pipe(paced);
        return local.put(key, paced);
      },
    };
    const files = Array.from({ length: 4 }, (_, index) => makePdf(`large file ${index}`, 10 * MiB));
    const { body, contentType } = buildMultipart(files.map((content, index): Part => ({ name: 'document', filename: `f${index}.pdf`, content })));
    const stream = bodyStream(body, {
      onPull: (total) => {
        pulled = total;
        maxInFlight = Math.max(maxInFlight, pulled - consumed);
      },
    });
    const result = await threads.stageMultipart(request(slow, stream, body, contentType, { maxFileBytes: 11 * MiB, maxBodyBytes: 64 * MiB }));

    expect(result.files.map((file) => staged(file).sha256)).toEqual(files.map(sha256));
    expect(pulled).toBe(body.length);
    // The window is 8 MiB; allow a batch in the thread and a chunk or two in the streams on top.
    expect(maxInFlight).toBeLessThanOrEqual(10 * MiB);
    // Storage really was the bottleneck: the window filled up.
    expect(maxInFlight).toBeGreaterThan(4 * MiB);
  });

  it('stages several bodies at once on a pool of two threads, each with its own HMAC and files', async () => {
    const { storage } = await freshStorage();
    const bodies = Array.from({ length: 6 }, (_, index) => {
      const content = [makePdf(`first of ${index}`, 700_000 + index), makePdf(`second of ${index}`, 300_000 * index)];
      return { content, ...buildMultipart([{ name: 'submissionId', value: `form-${index}` }, ...content.map((c, i): Part => ({ name: 'document', filename: `${i}.pdf`, content: c }))]) };
    });
    expect(threads.size).toBe(2);
    const results = await Promise.all(bodies.map(({ body, contentType }) => threads.stageMultipart(request(storage, bodyStream(body, { chunkBytes: 16_384 }), body, contentType))));
    for (const [index, result] of results.entries()) {
      const sent = bodies[index];
      if (!sent) throw new Error('missing body');
      expect(result.fields).toEqual({ submissionId: `form-${index}` });
      expect(result.hmacHex).toBe(signBody(SECRET, sent.body).slice('sha256='.length));
      expect(result.files.map((file) => staged(file).sha256)).toEqual(sent.content.map(sha256));
      const last = staged(result.files[1]);
      expect((await decryptToBuffer(masterKey, last.envelope, await readObject(storage, last.stagedKey))).equals(sent.content[1] ?? Buffer.alloc(0))).toBe(true);
    }
  });

  it('starts no thread before the first body, one for it, and ends it once idle; the next body starts one again', async () => {
    const events: string[] = [];
    let ended: () => void = () => undefined;
    const pool = createIntakeThreads({
      masterKey,
      threads: 2,
      log,
      idleMs: 50,
      onThread: (event) => {
        events.push(`${event.type} ${event.thread}`);
        if (event.type === 'ended') ended();
      },
    });
    try {
      const { storage } = await freshStorage();
      const content = makePdf('lazy', 200_000);
      const { body, contentType } = buildMultipart([{ name: 'document', filename: 'a.pdf', content }]);
      expect(pool.running()).toBe(0);
      expect(events).toEqual([]);

      const isEnded = new Promise<void>((resolve) => (ended = resolve));
      const first = await pool.stageMultipart(request(storage, bodyStream(body), body, contentType));
      expect(staged(first.files[0]).sha256).toBe(sha256(content));
      expect(events).toEqual(['started 0']);
      await isEnded;
      expect(pool.running()).toBe(0);
      expect(events).toEqual(['started 0', 'ended 0']);

      const second = await pool.stageMultipart(request(storage, bodyStream(body), body, contentType));
      expect(staged(second.files[0]).sha256).toBe(sha256(content));
      expect(events).toEqual(['started 0', 'ended 0', 'started 0']);
    } finally {
      await pool.close();
    }
  });

  it('starts a second thread only for a body that arrives while the first has one, and never more than its size', async () => {
    const events: string[] = [];
    const pool = createIntakeThreads({ masterKey, threads: 2, log, onThread: (event) => events.push(`${event.type} ${event.thread}`) });
    try {
      const { storage } = await freshStorage();
      const bodies = Array.from({ length: 3 }, (_, index) => buildMultipart([{ name: 'document', filename: `${index}.pdf`, content: makePdf(`body ${index}`, 300_000) }]));
      // Held after its first bytes until the others have been handed to a thread, so all three overlap.
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      const results = bodies.map(({ body, contentType }) =>
        pool.stageMultipart(request(storage, bodyStream(body, { chunkBytes: 16_384, hold: { bytes: 16_384, until: () => held } }), body, contentType)),
      );
      expect(pool.running()).toBe(2);
      expect(events).toEqual(['started 0', 'started 1']);
      release();
      expect((await Promise.all(results)).map((result) => result.files.length)).toEqual([1, 1, 1]);
      // A later body goes to a thread already running.
      const { body, contentType } = bodies[0] ?? buildMultipart([]);
      await pool.stageMultipart(request(storage, bodyStream(body), body, contentType));
      expect(events).toEqual(['started 0', 'started 1']);
    } finally {
      await pool.close();
    }
  });

  it('close() ends the threads: a body in flight fails, and a later one is refused', async () => {
    const pool = createIntakeThreads({ masterKey, threads: 1, log });
    const { folder, storage } = await freshStorage();
    const { body, contentType } = buildMultipart([{ name: 'medical', filename: 'm.pdf', content: makePdf('m', 3 * MiB) }]);
    // Sends the first 2 MiB, then waits for bytes that never come.
    let sent = false;
    const stalled = new Readable({
      read() {
        if (!sent) this.push(body.subarray(0, 2 * MiB));
        sent = true;
      },
    });
    const inFlight = appErrorOf(pool.stageMultipart(request(storage, stalled, body, contentType, { maxFileBytes: 4 * MiB })));
    await somethingWrittenUnder(folder);
    await pool.close();
    // In plain words for the client; what happened to the thread is the error's cause, for the log.
    expect(await inFlight).toEqual({
      code: 'INTERNAL',
      message: 'The upload could not be processed. Send it again; if this keeps happening, the details are in the server log.',
      cause: 'intake thread exited with code 1',
    });
    expect(await filesUnder(folder)).toEqual([]);
    const after = await appErrorOf(pool.stageMultipart(request(storage, bodyStream(body), body, contentType)));
    expect(after).toEqual({ code: 'SERVICE_UNAVAILABLE', message: 'Clearbase is shutting down.' });
  });
});
