import { Readable } from 'node:stream';
import { MessageChannel, Worker } from 'node:worker_threads';
import type { TDocType } from '../../contract';
import { threadAccessOf, type Storage } from '../adapters/storage/port';
import { AppError } from '../platform/errors';
import type { Logger } from '../platform/logger';
import { discardStaged, type RefusedFile, type StagedFile } from '../pipeline';
import { toIntakeFile } from './file-sealer';
import { fromWireVerdict, type FromThread, type ThreadData, type ThreadTask, type ToThread } from './intake-thread-protocol';
import { MAX_FILES, type SessionOutcome } from './form/multipart-session';

/** Body bytes sent to a thread in one message: a 5 MB file is five messages, not eighty. */
const BATCH_BYTES = 1 << 20;
/**
 * Bytes of one request in memory at once: sent to its thread and not yet parsed, plus ciphertext back and
 * not yet taken by storage (of every file of the body: an ended file may still be draining). Past it the
 * request stream is paused, so a slow disk or S3 holds the client back instead of filling memory.
 */
const WINDOW_BYTES = 8 << 20;
/** A file's readable asks for more (read()) once storage has taken it below this. */
const FILE_BUFFER_BYTES = 1 << 20;

/**
 * What the form provider is told when the fault is ours. The lower layer's error (a file path, an errno,
 * a stack) is the AppError's cause: the error handler logs it with the request id, the answer never holds it.
 */
const UPLOAD_FAILED = 'The upload could not be processed. Send it again; if this keeps happening, the details are in the server log.';
const STORAGE_REFUSED = 'Storage is not accepting files right now. Send the form again later.';

export type StagedMultipart = Omit<SessionOutcome, 'hmacHex'> & {
  hmacHex: string;
  /** In the order the parts were sent. */
  files: Array<StagedFile | RefusedFile>;
  /** Deletes every staged object of this body (a refused request leaves nothing behind). */
  discard(): Promise<void>;
};

export type StageMultipartRequest = {
  body: Readable;
  contentType: string;
  secret: string;
  /** The request's signature header: files are decoded only in a body it signs (multipart-session.ts). */
  signature: string | undefined;
  maxFileBytes: number;
  /** Past this many body bytes the request is refused with 413 and nothing is kept. */
  maxBodyBytes: number;
  /** Where the file at `position` of the body is staged. */
  stagingKey(position: number): string;
  storage: Storage;
  /**
   * Aborted when the body has taken too long to arrive: the request is refused with the signal's reason
   * (an AppError) and whatever it staged is deleted, as for any other refusal.
   */
  deadline?: AbortSignal;
};

export interface IntakeThreads {
  /** The most threads that run at once. */
  readonly size: number;
  /** Threads running now: none before the first body, and none again once each has been idle for `idleMs`. */
  running(): number;
  /**
   * Streams a multipart body through an intake thread: HMAC over every byte, parsing, each file sealed
   * there and its ciphertext written here through the storage port. Resolves when the body is complete,
   * every file has its verdict and every staged object is written; the caller judges the signature.
   */
  stageMultipart(request: StageMultipartRequest): Promise<StagedMultipart>;
  close(): Promise<void>;
}

export type IntakeThreadsOptions = {
  masterKey: Buffer;
  /** The most threads at once (INTAKE_THREADS). */
  threads: number;
  log: Logger;
  /** A thread with no body for this long is ended; the next body starts one again. */
  idleMs?: number;
  /** Told when a thread starts and when it has ended: for the log, and for tests. */
  onThread?: (event: { type: 'started' | 'ended'; thread: number }) => void;
};

type Slot = { index: number; worker: Worker; active: Set<(error: Error) => void>; idleTimer?: NodeJS.Timeout };

const BOOT = new URL('./intake-thread-boot.mjs', import.meta.url);
/** Long enough for a family's or a form builder's next upload to find the thread still there. */
const DEFAULT_IDLE_MS = 5 * 60_000;

/**
 * A few worker threads that do the CPU-heavy part of multipart intake (decision 011): the request thread
 * only moves bytes, talks to storage and the database. Threads start on demand: the first body starts one
 * (a second or so, loading the parser and the sealer), a body arriving while every running thread has one
 * starts another, up to `threads`; a thread idle for `idleMs` is ended, so a server nobody uploads to holds
 * none (each is a JavaScript isolate of its own, with tsx's loader thread beside it). A thread that dies
 * fails the bodies it had; the next body starts a new one.
 */
export function createIntakeThreads(options: IntakeThreadsOptions): IntakeThreads {
  const data: ThreadData = { masterKey: new Uint8Array(options.masterKey) };
  const most = Math.max(1, options.threads);
  const idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
  let closed = false;
  const slots: Array<Slot | undefined> = Array.from({ length: most }, () => undefined);

  const spawn = (index: number): Slot => {
    const worker = new Worker(BOOT, { workerData: data, name: `clearbase-intake-${index}` });
    const slot: Slot = { index, worker, active: new Set() };
    const failAll = (error: Error) => {
      for (const fail of [...slot.active]) fail(error);
    };
    worker.on('error', (error) => {
      options.log.error({ err: error, thread: index }, 'intake thread failed');
      failAll(error);
    });
    worker.on('exit', (code) => {
      clearTimeout(slot.idleTimer);
      if (slots[index] === slot) slots[index] = undefined;
      failAll(new Error(`intake thread exited with code ${code}`));
      options.onThread?.({ type: 'ended', thread: index });
    });
    // Idle threads must not keep the process alive; a task in flight keeps its request open anyway.
    worker.unref();
    slots[index] = slot;
    options.onThread?.({ type: 'started', thread: index });
    return slot;
  };

  const end = (slot: Slot): Promise<number> => {
    clearTimeout(slot.idleTimer);
    if (slots[slot.index] === slot) slots[slot.index] = undefined;
    return slot.worker.terminate();
  };

  /** An idle running thread, else a new one while fewer than `most` run, else the least busy. */
  const pick = (): Slot => {
    const running = slots.filter((slot): slot is Slot => slot !== undefined);
    const idle = running.find((slot) => slot.active.size === 0);
    if (idle) return idle;
    const free = slots.indexOf(undefined);
    if (free !== -1) return spawn(free);
    return running.reduce((best, slot) => (slot.active.size < best.active.size ? slot : best));
  };

  const endWhenIdle = (slot: Slot) => {
    if (slot.active.size > 0 || slots[slot.index] !== slot) return;
    clearTimeout(slot.idleTimer);
    slot.idleTimer = setTimeout(() => {
      if (slot.active.size === 0) void end(slot);
    }, idleMs);
    slot.idleTimer.unref();
  };

  return {
    size: most,
    running: () => slots.filter((slot) => slot !== undefined).length,
    stageMultipart(request) {
      if (closed) return Promise.reject(new AppError('SERVICE_UNAVAILABLE', 'Clearbase is shutting down.'));
      const slot = pick();
      clearTimeout(slot.idleTimer);
      const staged = runTask(slot, request);
      const settled = () => endWhenIdle(slot);
      staged.then(settled, settled);
      return staged;
    },
    async close() {
      closed = true;
      await Promise.all(slots.filter((slot) => slot !== undefined).map(end));
    },
  };
}

type OpenFile = {
  key: string;
  originalFilename: string;
  declaredType: TDocType | null;
  /** What storage reads the ciphertext from, when it comes here; undefined when the thread writes the file itself. */
  readable: Readable | undefined;
  /** Why the file could not be written, once it is written or given up. */
  written: Promise<Error | undefined>;
  /** The temporary files the thread said it writes the file through (removed here if the thread ends first). */
  temporaries: string[];
};

function runTask(slot: Slot, request: StageMultipartRequest): Promise<StagedMultipart> {
  const { body, storage } = request;
  const { port1: port, port2 } = new MessageChannel();
  const files = new Map<number, OpenFile>();
  const verdicts = new Map<number, StagedFile | RefusedFile>();
  let sentNotParsed = 0;
  let received = 0;
  let batch: Buffer[] = [];
  let batchBytes = 0;
  let settled = false;
  // A storage the thread can open for itself (a local folder) it writes the files into itself (decision 035):
  // their ciphertext never comes to this thread. Any other (S3, or an object built around a storage) is written from here.
  const access = threadAccessOf(storage);
  const staging = access && {
    access: { module: access.module, settings: access.settings },
    keys: Array.from({ length: MAX_FILES }, (_, position) => request.stagingKey(position)),
  };
  /** Settles once the thread's own writes have all ended, or the thread has: with why one failed, if one did. */
  let settleThreadWrites: (failure: Error | undefined) => void = () => undefined;
  const threadWrites = new Promise<Error | undefined>((resolve) => {
    settleThreadWrites = resolve;
  });

  const keys = () => [...files.values()].map((file) => file.key);
  const discard = async () => {
    for (const file of files.values()) file.readable?.destroy();
    await Promise.allSettled([...files.values()].map((file) => file.written));
    if (access) {
      // Only a thread that ended mid-write leaves a temporary file behind; a finished or abandoned write removed
      // its own. As for the objects, what cannot be removed now the sweep of abandoned writes removes later.
      const temporaries = [...files.values()].flatMap((file) => file.temporaries);
      await Promise.all(temporaries.map((temporary) => access.removeTemporary(temporary).catch(() => undefined)));
    }
    await discardStaged(storage, keys());
  };
  const buffered = () => sentNotParsed + batchBytes + [...files.values()].reduce((sum, file) => sum + (file.readable?.readableLength ?? 0), 0);
  const relieve = () => {
    if (body.isPaused() && buffered() < WINDOW_BYTES) body.resume();
  };
  // read() runs before the bytes it hands out leave the buffer (a `for await` reader takes them all at
  // once), so look again once they have: otherwise the last read() could leave the body paused for good.
  const relieveSoon = () => {
    relieve();
    setImmediate(relieve);
  };
  const send = (message: ToThread, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);
  const flush = () => {
    if (batchBytes === 0) return;
    // allocUnsafeSlow: a buffer with an ArrayBuffer of its own, so it can be handed over without a copy.
    const chunk = Buffer.allocUnsafeSlow(batchBytes);
    let at = 0;
    for (const piece of batch) at += piece.copy(chunk, at);
    batch = [];
    sentNotParsed += batchBytes;
    batchBytes = 0;
    const bytes = new Uint8Array(chunk.buffer, 0, chunk.length);
    send({ type: 'chunk', chunk: bytes }, [bytes.buffer]);
  };

  return new Promise<StagedMultipart>((resolve, reject) => {
    const finish = (outcome: { ok: true; value: StagedMultipart } | { ok: false; error: Error }) => {
      if (settled) return;
      settled = true;
      request.deadline?.removeEventListener('abort', onDeadline);
      body.off('data', onData).off('end', onEnd).off('error', onBodyError).off('aborted', onAborted);
      if (outcome.ok) {
        slot.active.delete(onThreadFailure);
        port.close();
        resolve(outcome.value);
        return;
      }
      // The thread gives its writes up and says so (aborted); until then its death still matters here.
      send({ type: 'abort' });
      body.resume(); // let the rest of a refused body drain instead of stalling the connection
      void discard().then(() => {
        slot.active.delete(onThreadFailure);
        port.close();
        reject(outcome.error);
      });
    };
    const fail = (error: Error) => finish({ ok: false, error });
    const onThreadFailure = (error: Error) => {
      settleThreadWrites(undefined);
      fail(new AppError('INTERNAL', UPLOAD_FAILED, undefined, { cause: error }));
    };
    slot.active.add(onThreadFailure);
    // Without writes of its own, the thread has nothing to settle once the request is.
    if (!staging) settleThreadWrites(undefined);

    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > request.maxBodyBytes) {
        fail(new AppError('PAYLOAD_TOO_LARGE', `The request is larger than ${Math.round(request.maxBodyBytes / 1_048_576)} MB.`));
        return;
      }
      batch.push(chunk);
      batchBytes += chunk.length;
      if (batchBytes >= BATCH_BYTES) flush();
      if (buffered() >= WINDOW_BYTES) body.pause();
    };
    const onEnd = () => {
      flush();
      send({ type: 'end' });
    };
    const onBodyError = () => fail(new AppError('VALIDATION_FAILED', 'The request body ended before it was complete.'));
    const onAborted = onBodyError;
    const onDeadline = () => fail(deadlineError(request.deadline));

    port.on('message', (message: FromThread) => {
      // How the thread's own writes went, heard even once the request is settled: its discard waits for them.
      switch (message.type) {
        case 'file-temporary':
          files.get(message.position)?.temporaries.push(message.temporary);
          return;
        case 'aborted':
          settleThreadWrites(undefined);
          return;
        case 'failed':
          settleThreadWrites(undefined);
          fail(new AppError('INTERNAL', UPLOAD_FAILED, undefined, { cause: new Error(message.message) }));
          return;
        case 'done':
          settleThreadWrites(message.writeFailure === undefined ? undefined : new Error(message.writeFailure));
          if (!settled) void complete(message.outcome).then((value) => finish({ ok: true, value }), fail);
          return;
      }
      if (settled) return;
      switch (message.type) {
        case 'ack':
          sentNotParsed -= message.bytes;
          relieve();
          return;
        case 'file-start': {
          const key = request.stagingKey(message.position);
          const declaredType = message.fieldName === 'document' ? null : message.fieldName;
          const file = { key, originalFilename: message.originalFilename, declaredType, temporaries: [] };
          if (staging) {
            files.set(message.position, { ...file, readable: undefined, written: threadWrites });
            return;
          }
          // read() is storage asking for more; 'end' is an ended file fully taken (it asks no more).
          const readable = new Readable({ highWaterMark: FILE_BUFFER_BYTES, read: relieveSoon });
          readable.on('end', relieveSoon);
          // Caught here and looked at once the body is done: a storage failure fails the request then.
          const written = storage.put(key, readable).then(
            () => undefined,
            (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
          );
          files.set(message.position, { ...file, readable, written });
          return;
        }
        case 'file-data': {
          files.get(message.position)?.readable?.push(Buffer.from(message.chunk.buffer, message.chunk.byteOffset, message.chunk.byteLength));
          if (buffered() >= WINDOW_BYTES) body.pause();
          return;
        }
        case 'file-end': {
          const file = files.get(message.position);
          if (!file) return;
          file.readable?.push(null);
          verdicts.set(message.position, toIntakeFile(fromWireVerdict(message.verdict), { ...file, stagedKey: file.key }));
          return;
        }
      }
    });

    const complete = async (outcome: SessionOutcome): Promise<StagedMultipart> => {
      const failures = (await Promise.all([...files.values()].map((file) => file.written))).filter((e): e is Error => e instanceof Error);
      if (failures[0]) throw new AppError('SERVICE_UNAVAILABLE', STORAGE_REFUSED, undefined, { cause: failures[0] });
      const ordered = [...verdicts.entries()].sort(([a], [b]) => a - b);
      // A refused file's object holds at most its first bytes: it must not stay.
      await Promise.all(ordered.flatMap(([position, file]) => (file.kind === 'refused' ? [storage.delete(request.stagingKey(position))] : [])));
      return { ...outcome, files: ordered.map(([, file]) => file), discard };
    };

    const task: ThreadTask = {
      port: port2,
      contentType: request.contentType,
      secret: request.secret,
      signature: request.signature,
      maxFileBytes: request.maxFileBytes,
      ...(staging ? { staging } : {}),
    };
    slot.worker.postMessage(task, [port2]);
    body.on('data', onData).on('end', onEnd).on('error', onBodyError).on('aborted', onAborted);
    request.deadline?.addEventListener('abort', onDeadline, { once: true });
    // A connection cut (or a deadline passed) before these listeners were attached sends no event again.
    if (body.destroyed || body.readableAborted) onBodyError();
    else if (request.deadline?.aborted) onDeadline();
  });
}

/** The reason a deadline was aborted with, when it is an error to answer with; else a generic timeout. */
export function deadlineError(deadline: AbortSignal | undefined): Error {
  const reason: unknown = deadline?.reason;
  return reason instanceof AppError ? reason : new AppError('REQUEST_TIMEOUT', 'The request body did not arrive in time.');
}
