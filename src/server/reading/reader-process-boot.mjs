// Entry of the document reader process. pdf.js (and its parser, which pdf.js runs in this process when it has
// no worker) is loaded first, by Node itself: tsx would transform its 5 MB of JavaScript at every start. The
// process is started without the parent's loader flags (reader.ts), so only what follows goes through tsx.
// The server runs from TypeScript source (decision 001): register tsx for the reader's own code.
import * as pdfjsWorker from 'pdfjs-dist/legacy/build/pdf.worker.mjs';
import { register } from 'tsx/esm/api';

// The server that started it has gone (or closed the channel): nothing will ask this process for anything.
process.on('disconnect', () => process.exit(0));
globalThis.pdfjsWorker = pdfjsWorker;
await import('pdfjs-dist/legacy/build/pdf.mjs');
register();
await import(new URL('./reader-process.ts', import.meta.url).href);
