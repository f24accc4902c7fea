import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { childEnvironment } from '../platform/child-environment';
import type { UnreadableReason } from './page-images';
import type { DocumentText, ReadLimits } from './read-document';
import type { DocumentReader, TextRead } from './types';

/**
 * Documents read in a process of their own (reader-process.ts), one at a time, on this machine only: a PDF's
 * text layer by pdf.js, scans and photos by tesseract after their lighting, contrast and slant are
 * corrected. The server only sends bytes and waits. A read past `timeoutMs` ends the process (and tesseract
 * with it); so does `idleMs` without a read. A process, not a thread: reading a page takes some 75 MB for
 * pdf.js and 150-250 MB more for tesseract, and what a thread frees stays in the server's own allocator
 * (about 200 MB more resident after the demo's documents were read at a first start), while a process gives
 * all of it back when it ends. The next read starts it again (a second or two).
 */
export type ReaderOptions = {
  /** An idle reader process (and its tesseract) is ended after this long. */
  idleMs?: number;
  /** Pages read by OCR, from the first; a PDF's text-layer pages are cheap and read up to MAX_PAGES. */
  maxPages?: number;
  /** Longest one document may take, once the process has started. */
  timeoutMs?: number;
  /** Told when the reader process starts and when it has ended (and why): for the log, and for tests. */
  onProcess?: (event: ReaderProcessEvent) => void;
};

export type ReaderProcessEvent = { type: 'started' } | { type: 'ended'; why: 'closed' | 'timeout' | 'idle' | 'recycled' | 'crashed' };

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

/** Messages with the reader process. */
export type ReaderJob = { id: number; bytes: Uint8Array; mime: string; limits: ReadLimits };
export type ReaderReply =
  | { type: 'ready' }
  | { type: 'result'; id: number; read: DocumentText; recycle?: boolean }
  | { type: 'unreadable'; id: number; reason: UnreadableReason }
  | { type: 'failed'; id: number; detail: string };

const DEFAULTS = { idleMs: 60_000, maxPages: 5, timeoutMs: 120_000 };
/** Pages read in all (text layers are cheap; a registration document is a few pages). */
const MAX_PAGES = 50;
/** The process's JavaScript heap (pdf.js's objects; pictures and tesseract live outside it). */
const MAX_HEAP_MB = 512;
/** Starting takes a second or two (tsx, sharp, pdf.js); longer means it will not start. */
const START_TIMEOUT_MS = 60_000;
const ENTRY = fileURLToPath(new URL('./reader-process-boot.mjs', import.meta.url));
/**
 * glibc's allocator in the reader gives back what a page took once it is freed: blocks of 128 KiB and more
 * (a page's pixels, libvips' and the canvas's buffers) are mapped on their own and unmapped when freed, and
 * the heap's free top is returned past 128 KiB. By default glibc raises its mapping threshold after the first
 * such block is freed and keeps the rest in its arenas: the reader held some 420 MB after a dozen scans and
 * photos, against about 300 MB with these. Other C libraries ignore the names.
 */
const ALLOCATOR_ENVIRONMENT = { MALLOC_MMAP_THRESHOLD_: '131072', MALLOC_TRIM_THRESHOLD_: '131072' };

type Job = { id: number; bytes: Uint8Array; mime: string; resolve(read: TextRead): void; reject(error: Error): void };
type Reader = {
  child: ChildProcess;
  /** Resolves once the process has exited. */
  exited: Promise<void>;
  ready: Promise<void>;
  /** Why its owner ended it, when it did. */
  ended?: 'closed' | 'timeout' | 'idle' | 'recycled';
  /** Whether its end was told to onProcess. */
  told?: boolean;
  onReply?: (reply: ReaderReply) => void;
  onEnd?: (error: Error) => void;
};

const closedError = () => new Error('the document reader was closed');

export function createDocumentReader(options: ReaderOptions = {}): DocumentReader {
  const { idleMs, maxPages, timeoutMs } = { ...DEFAULTS, ...options };
  const tell = (event: ReaderProcessEvent) => options.onProcess?.(event);
  const limits: ReadLimits = { maxOcrPages: maxPages, maxPages: Math.max(MAX_PAGES, maxPages) };
  const queue: Job[] = [];
  let reader: Reader | undefined;
  let running = false;
  let idleTimer: NodeJS.Timeout | undefined;
  let nextId = 1;

  // Ends the process at once, as a thread is terminated (it holds nothing to save, and tesseract's threads go
  // with it); resolves once it has exited.
  const end = async (ending: Reader, why: NonNullable<Reader['ended']>): Promise<void> => {
    ending.ended ??= why;
    if (reader === ending) reader = undefined;
    if (ending.child.exitCode === null && ending.child.signalCode === null) ending.child.kill('SIGKILL');
    await ending.exited;
    if (!ending.told) tell({ type: 'ended', why });
    ending.told = true;
  };

  const start = (): Reader => {
    // execArgv: not the server's loader flags (tsx), see reader-process-boot.mjs; advanced serialization
    // carries the file's bytes as they are.
    const child = fork(ENTRY, [], {
      execArgv: [`--max-old-space-size=${MAX_HEAP_MB}`],
      env: { ...childEnvironment(), ...ALLOCATOR_ENVIRONMENT },
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    // A process that never started has no exit to wait for.
    const exited = new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.once('error', () => {
        if (child.pid === undefined) resolve();
      });
    });
    const started: Reader = { child, exited, ready: Promise.resolve() };
    started.ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the document reader process did not start in time')), START_TIMEOUT_MS);
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
    child.on('message', (reply: ReaderReply) => started.onReply?.(reply));
    child.on('error', (error) => {
      if (reader === started) reader = undefined;
      started.onEnd?.(error);
    });
    child.on('exit', (code, signal) => {
      if (reader === started) reader = undefined;
      started.onEnd?.(new Error(`the document reader process exited with ${signal ?? `code ${code}`}`));
      if (!started.told) tell({ type: 'ended', why: started.ended ?? 'crashed' });
      started.told = true;
    });
    tell({ type: 'started' });
    return started;
  };

  const runOne = async (job: Job): Promise<DocumentText> => {
    const current = (reader ??= start());
    hold(current, true);
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
        // Answered once the process (and tesseract with it) has gone.
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
      current.child.send(message);
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
    const idle = reader;
    if (idle) {
      // An idle reader does not hold the server's process open, and does not stay for long.
      hold(idle, false);
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
      const current = reader;
      reader = undefined;
      if (current) await end(current, 'closed');
    },
  };
}

/** Whether the reader (its process and its channel) keeps the server's event loop alive. */
function hold(reader: Reader, held: boolean): void {
  if (held) {
    reader.child.ref();
    reader.child.channel?.ref();
  } else {
    reader.child.unref();
    reader.child.channel?.unref();
  }
}

function toError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
