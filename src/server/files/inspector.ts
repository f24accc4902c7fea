import { Worker } from 'node:worker_threads';
// inspect.ts loads sharp here too: libvips must be loaded by the thread that starts the inspector threads,
// and stay loaded after one of them ends (sharp's advice for worker threads on glibc Linux).
import { tooComplex, type FileInspection } from './inspect';
import type { TFileKind } from './validate';

/**
 * Files opened by their decoders in a thread of their own (inspector-thread.ts), one file at a time. A
 * decoder that loops, runs out of memory or crashes its thread costs that file a refusal and the thread
 * its life, never the server: the thread is ended at `timeoutMs` and started again for the next file. It is
 * also ended after a large HEIF photo (WebAssembly memory never shrinks) and when idle, so the memory a
 * large image took goes back. A thread that cannot start at all is a fault of this server, not of the
 * file: `inspect` then rejects, and the upload fails as any other.
 */
export interface FileInspector {
  /**
   * Opens `bytes` as a file of `kind` in the thread. They are copied to it, unless `handOver` says the
   * caller will not use them again: then they are moved (transferred), and are empty here afterwards.
   */
  inspect(kind: TFileKind, bytes: Uint8Array, options?: { handOver?: boolean }): Promise<FileInspection>;
  close(): Promise<void>;
}

export type InspectorOptions = {
  /** Longest a file may take to open, from when its thread starts on it. */
  timeoutMs?: number;
  /** An idle thread is ended after this long (starting one takes a second or two, so not at once). */
  idleMs?: number;
  /** The thread's JavaScript heap (pdf.js's objects); past it the thread is ended and the file refused. */
  maxHeapMb?: number;
  /** The thread's entry; tests give one that hangs or crashes. */
  entry?: URL;
};

/** Messages with an inspector thread. */
export type InspectorJob = { id: number; kind: TFileKind; bytes: Uint8Array };
export type InspectorReply = { type: 'ready' } | { type: 'result'; id: number; inspection: FileInspection; recycle?: boolean };

const DEFAULTS = { timeoutMs: 60_000, idleMs: 5 * 60_000, maxHeapMb: 512 };
/** Starting takes about a second (tsx, sharp, pdf.js); longer means it will not start. */
const START_TIMEOUT_MS = 60_000;
const ENTRY = new URL('./inspector-thread-boot.mjs', import.meta.url);

type Job = InspectorJob & { handOver: boolean; resolve(inspection: FileInspection): void; reject(error: Error): void };
type Thread = { worker: Worker; ready: Promise<void>; onReply?: (reply: InspectorReply) => void; onEnd?: (error: Error) => void };

export function createFileInspector(options: InspectorOptions = {}): FileInspector {
  const { timeoutMs, idleMs, maxHeapMb } = { ...DEFAULTS, ...options };
  const entry = options.entry ?? ENTRY;
  const queue: Job[] = [];
  let thread: Thread | undefined;
  let running = false;
  let closed = false;
  let idleTimer: NodeJS.Timeout | undefined;
  let nextId = 1;

  const end = (ending: Thread) => {
    if (thread === ending) thread = undefined;
    void ending.worker.terminate();
  };

  const start = (): Thread => {
    // execArgv []: not the parent's loader flags (tsx), see inspector-thread-boot.mjs.
    const worker = new Worker(entry, { name: 'clearbase-inspector', execArgv: [], resourceLimits: { maxOldGenerationSizeMb: maxHeapMb } });
    const started: Thread = { worker, ready: Promise.resolve() };
    started.ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the file inspector thread did not start in time')), START_TIMEOUT_MS);
      started.onReply = (reply) => {
        if (reply.type !== 'ready') return;
        clearTimeout(timer);
        resolve();
      };
      started.onEnd = (error) => {
        clearTimeout(timer);
        reject(error);
      };
    });
    worker.on('message', (reply: InspectorReply) => started.onReply?.(reply));
    worker.on('error', (error) => {
      if (thread === started) thread = undefined;
      started.onEnd?.(error);
    });
    worker.on('exit', (code) => {
      if (thread === started) thread = undefined;
      started.onEnd?.(new Error(`the file inspector thread exited with code ${code}`));
    });
    return started;
  };

  const runOne = async (job: Job): Promise<FileInspection> => {
    const current = (thread ??= start());
    current.worker.ref();
    try {
      await current.ready;
    } catch (error) {
      end(current);
      throw error instanceof Error ? error : new Error(String(error));
    }
    return new Promise<FileInspection>((resolve, reject) => {
      const timer = setTimeout(() => {
        end(current);
        resolve(tooComplex(job.kind));
      }, timeoutMs);
      current.onReply = (reply) => {
        if (reply.type !== 'result' || reply.id !== job.id) return;
        clearTimeout(timer);
        if (reply.recycle) end(current);
        resolve(reply.inspection);
      };
      // Out of memory, or a crash the decoder did not catch: the file did it (unless the inspector was closed).
      current.onEnd = (error) => {
        clearTimeout(timer);
        if (closed) reject(error);
        else resolve(tooComplex(job.kind));
      };
      // Copied, so the caller's bytes stay usable, unless they were handed over and are a whole buffer of their own.
      const message: InspectorJob = { id: job.id, kind: job.kind, bytes: job.bytes };
      const { buffer, byteOffset, byteLength } = job.bytes;
      const movable = job.handOver && buffer instanceof ArrayBuffer && byteOffset === 0 && byteLength === buffer.byteLength;
      current.worker.postMessage(message, movable ? [buffer] : []);
    });
  };

  const drain = async () => {
    if (running) return;
    running = true;
    clearTimeout(idleTimer);
    for (let job = queue.shift(); job; job = queue.shift()) {
      try {
        job.resolve(await runOne(job));
      } catch (error) {
        job.reject(error instanceof Error ? error : new Error(String(error)));
      }
    }
    running = false;
    const idle = thread;
    if (idle) {
      // An idle thread does not hold the process open, and does not stay forever.
      idle.worker.unref();
      idleTimer = setTimeout(() => end(idle), idleMs);
      idleTimer.unref();
    }
  };

  return {
    inspect(kind, bytes, options = {}) {
      if (closed) return Promise.reject(new Error('the file inspector is closed'));
      return new Promise<FileInspection>((resolve, reject) => {
        queue.push({ id: nextId++, kind, bytes, handOver: options.handOver === true, resolve, reject });
        void drain();
      });
    },
    async close() {
      closed = true;
      clearTimeout(idleTimer);
      for (const job of queue.splice(0)) job.reject(new Error('the file inspector is closed'));
      const current = thread;
      thread = undefined;
      await current?.worker.terminate();
    },
  };
}

let shared: FileInspector | undefined;
/**
 * The inspector of this thread, started on first use: the request thread's for downloads and staff files,
 * each intake thread's for the files of the bodies it parses.
 */
export function sharedFileInspector(): FileInspector {
  shared ??= createFileInspector();
  return shared;
}
