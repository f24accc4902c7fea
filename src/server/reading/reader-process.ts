import sharp from 'sharp';
import { startOcrEngine, type OcrEngine } from './ocr';
import { UnreadableFile } from './page-images';
import { readDocument } from './read-document';
import type { ReaderJob, ReaderReply } from './reader';

/**
 * The document reader process (reader.ts): reads one document at a time (pdf.js, sharp, libheif, and
 * tesseract in a thread of its own that it starts here on the first page to OCR, then keeps) and answers
 * with its text. Started by reader-process-boot.mjs; ended by its owner when idle or when a read takes too long.
 */
const send = process.send?.bind(process);
if (!send) throw new Error('reader-process.ts runs as a child process with an IPC channel');
const reply = (message: ReaderReply): void => {
  send(message);
};

// Pages are decoded once: libvips keeps none of them in its cache, and does not take every core of the machine.
sharp.cache(false);
sharp.concurrency(1);

let engine: Promise<OcrEngine> | undefined;
const ocr = (): Promise<OcrEngine> => {
  engine ??= startOcrEngine().catch((error: unknown) => {
    engine = undefined;
    throw error;
  });
  return engine;
};

let work = Promise.resolve();
process.on('message', (job: ReaderJob) => {
  // One document at a time, in the order they came (the owner sends one at a time too).
  work = work.then(async () => {
    let answer: ReaderReply;
    try {
      const read = await readDocument({ bytes: job.bytes, mime: job.mime }, job.limits, ocr);
      // libheif's WebAssembly memory only grows: after a HEIF photo the process asks to be ended.
      answer = { type: 'result', id: job.id, read, recycle: job.mime === 'image/heic' || job.mime === 'image/heif' };
    } catch (error) {
      // The detail is the library's own message, for the server's log; it holds no text of the document.
      answer = error instanceof UnreadableFile ? { type: 'unreadable', id: job.id, reason: error.reason } : { type: 'failed', id: job.id, detail: error instanceof Error ? error.message : String(error) };
    }
    reply(answer);
  }).catch(() => undefined);
});
reply({ type: 'ready' });
