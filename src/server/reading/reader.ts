import { Worker } from 'node:worker_threads';
// libvips must be loaded by the thread that starts the reader thread, and stay loaded after it ends
// (sharp's advice for worker threads on glibc Linux), as for the file inspector.
import 'sharp';
import type { UnreadableReason } from './page-images';
import type { DocumentText, ReadLimits } from './read-document';
import type { DocumentReader, TextRead } from './types';

/**
 * Documents read in a thread of their own (reader-thread.ts), one at a time, on this machine only: a PDF's
 * text layer by pdf.js, scans and photos by tesseract after their lighting, contrast and slant are
 * corrected. The request thread only sends bytes and waits. A read past `timeoutMs` ends the thread (and
 * tesseract with it); so does `idleMs` without a read, so the memory they hold (some 75 MB for the thread
 * and pdf.js, 150–250 MB more once tesseract has read a page) goes back to the system. The next read starts them again (a second or two).
 */
export type ReaderOptions = {
  /** An idle thread (and its tesseract) is ended after this long. */
  idleMs?: number;
  /** Pages read by OCR, from the first; a PDF's text-layer pages are cheap and read up to MAX_PAGES. */
  maxPages?: number;
  /** Longest one document may take, once the thread has started. */
  timeoutMs?: number;
  /** Told when the reading thread starts and when it has ended (and why): for the log, and for tests. */
  onThread?: (event: ThreadEvent) => void;
};

export type ThreadEvent = { type: 'started' } | { type: 'ended'; why: 'closed' | 'timeout' | 'idle' | 'recycled' | 'crashed' };

/** A staff member reads this: what went wrong, never a path or a library's message. */
export class ReadingError extends Error {
  constructor(reason: string, options?: { cause?: unknown }) {
    super(`This file could not be read: ${reason}`, options);
    this.name = 'ReadingError';
  }
}

const REASONS: Record<UnreadableReason | 'timeout' | 'crashed' | 'failed', string> = {
  damaged: 'it is damaged or incomplete.',
  password: 'the PDF is password-protected.',
  unsupported: 'only PDFs and pictures (JPEG, PNG, TIFF, HEIC) can be read.',
  timeout: 'it took too long to read.',
  crashed: 'it is too large or too complex to read.',
  failed: 'the text reader stopped with an error.',
};

/** Messages with the reader thread. */
export type ReaderJob = { id: number; bytes: Uint8Array; mime: string; limits: ReadLimits };
export type ReaderReply =
  | { type: 'ready' }
  | { type: 'result'; id: number; read: DocumentText; recycle?: boolean }
  | { type: 'unreadable'; id: number; reason: UnreadableReason }
  | { type: 'failed'; id: number; detail: string };

const DEFAULTS = { idleMs: 60_000, maxPages: 5, timeoutMs: 120_000 };
/** Pages read in all (text layers are cheap; a registration document is a few pages). */
const MAX_PAGES = 50;
/** The thread's JavaScript heap (pdf.js's objects; pictures and tesseract live outside it). */
const MAX_HEAP_MB = 512;
/** Starting takes a second or two (tsx, sharp, pdf.js); longer means it will not start. */
const START_TIMEOUT_MS = 60_000;
const ENTRY = new URL('./reader-thread-boot.mjs', import.meta.url);

type Job = { id: number; bytes: Uint8Array; mime: string; resolve(read: TextRead): void; reject(error: Error): void };
type Thread = {
  worker: Worker;
  ready: Promise<void>;
  /** Why its owner ended it, when it did. */
  ended?: 'closed' | 'timeout' | 'idle' | 'recycled';
  /** Whether its end was told to onThread. */
  told?: boolean;
  onReply?: (reply: ReaderReply) => void;
  onEnd?: (error: Error) => void;
};

const closedError = () => new Error('the document reader was closed');

export function createDocumentReader(options: ReaderOptions = {}): DocumentReader {
  const { idleMs, maxPages, timeoutMs } = { ...DEFAULTS, ...options };
  const tell = (event: ThreadEvent) => options.onThread?.(event);
  const limits: ReadLimits = { maxOcrPages: maxPages, maxPages: Math.max(MAX_PAGES, maxPages) };
  const queue: Job[] = [];
  let thread: Thread | undefined;
  let running = false;
  let idleTimer: NodeJS.Timeout | undefined;
  let nextId = 1;

  const end = (ending: Thread, why: NonNullable<Thread['ended']>) => {
    ending.ended ??= why;
    if (thread === ending) thread = undefined;
    return ending.worker.terminate().then(() => {
      if (!ending.told) tell({ type: 'ended', why });
      ending.told = true;
    });
  };

  const start = (): Thread => {
    // execArgv []: not the parent's loader flags (tsx), see reader-thread-boot.mjs.
    const worker = new Worker(ENTRY, { name: 'clearbase-reader', execArgv: [], resourceLimits: { maxOldGenerationSizeMb: MAX_HEAP_MB } });
    const started: Thread = { worker, ready: Promise.resolve() };
    started.ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the document reader thread did not start in time')), START_TIMEOUT_MS);
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
    worker.on('message', (reply: ReaderReply) => started.onReply?.(reply));
    worker.on('error', (error) => {
      if (thread === started) thread = undefined;
      started.onEnd?.(error);
    });
    worker.on('exit', (code) => {
      if (thread === started) thread = undefined;
      started.onEnd?.(new Error(`the document reader thread exited with code ${code}`));
      if (!started.told) tell({ type: 'ended', why: started.ended ?? 'crashed' });
      started.told = true;
    });
    tell({ type: 'started' });
    return started;
  };

  const runOne = async (job: Job): Promise<DocumentText> => {
    const current = (thread ??= start());
    current.worker.ref();
    try {
      await current.ready;
    } catch (error) {
      const closedMeanwhile = current.ended === 'closed';
      void end(current, 'closed');
      // Not the file's fault: this server could not start its reader.
      throw closedMeanwhile ? closedError() : toError(error);
    }
    return new Promise<DocumentText>((resolve, reject) => {
      const timer = setTimeout(() => {
        // Answered once the thread (and tesseract with it) has gone.
        void end(current, 'timeout').finally(() => reject(new ReadingError(REASONS.timeout)));
      }, timeoutMs);
      current.onReply = (reply) => {
        if (reply.type === 'ready' || reply.id !== job.id) return;
        clearTimeout(timer);
        if (reply.type === 'result') {
          if (reply.recycle) void end(current, 'recycled');
          resolve(reply.read);
        }
        else if (reply.type === 'unreadable') reject(new ReadingError(REASONS[reply.reason]));
        else reject(new ReadingError(REASONS.failed, { cause: new Error(reply.detail) }));
      };
      // Out of memory, or a crash the decoders did not catch: the file did it (unless the reader was closed).
      current.onEnd = (error) => {
        clearTimeout(timer);
        if (current.ended === 'closed') reject(closedError());
        else if (current.ended !== 'timeout') reject(new ReadingError(REASONS.crashed, { cause: error }));
      };
      // Copied, not transferred: the caller's bytes stay usable.
      const message: ReaderJob = { id: job.id, bytes: job.bytes, mime: job.mime, limits };
      current.worker.postMessage(message);
    });
  };

  const drain = async () => {
    if (running) return;
    running = true;
    clearTimeout(idleTimer);
    for (let job = queue.shift(); job; job = queue.shift()) {
      const started = performance.now();
      try {
        const read = await runOne(job);
        job.resolve({ ...read, seconds: Math.round(performance.now() - started) / 1000 });
      } catch (error) {
        job.reject(toError(error));
      }
    }
    running = false;
    const idle = thread;
    if (idle) {
      // An idle thread does not hold the process open, and does not stay for long.
      idle.worker.unref();
      idleTimer = setTimeout(() => void end(idle, 'idle'), idleMs);
      idleTimer.unref();
    }
  };

  return {
    read({ bytes, mime }) {
      return new Promise<TextRead>((resolve, reject) => {
        queue.push({ id: nextId++, bytes, mime, resolve, reject });
        void drain();
      });
    },
    async close() {
      clearTimeout(idleTimer);
      for (const job of queue.splice(0)) job.reject(closedError());
      const current = thread;
      thread = undefined;
      if (current) await end(current, 'closed');
    },
  };
}

function toError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
