import { parentPort } from 'node:worker_threads';
import sharp from 'sharp';
import { INSPECTION_LIMITS, inspectFile, loadPdfJs } from './inspect';
import type { InspectorJob, InspectorReply } from './inspector';

/**
 * A file inspector thread (inspector.ts): opens one file at a time with its decoder and answers with the
 * inspection. Started by inspector-thread-boot.mjs; ended by its owner when a file takes too long.
 */
if (!parentPort) throw new Error('inspector-thread.ts runs as a worker thread');
const port = parentPort;

// Decoded pixels are read once: libvips keeps none of them in its cache, and this thread's decoding does
// not take every core of the machine.
sharp.cache(false);
sharp.concurrency(1);
// pdf.js is the decoder most files need; load it before saying ready, so its start is not a file's time.
await loadPdfJs();

/** Past this many pixels a HEIF photo has grown the WebAssembly memory for good: the thread asks to be ended. */
const RECYCLE_AFTER_HEIF_PIXELS = 16_000_000;

port.on('message', (job: InspectorJob) => {
  // The bytes are this thread's own (copied or moved here by postMessage): the decoder may take them over.
  void inspectFile(job.kind, job.bytes, INSPECTION_LIMITS, { handOver: true }).then((inspection) => {
    const pixels = inspection.ok ? (inspection.width ?? 0) * (inspection.height ?? 0) : 0;
    const reply: InspectorReply = { type: 'result', id: job.id, inspection, recycle: job.kind === 'heic' && pixels > RECYCLE_AFTER_HEIF_PIXELS };
    port.postMessage(reply);
  });
});
const ready: InspectorReply = { type: 'ready' };
port.postMessage(ready);
