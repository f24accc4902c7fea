import { readdirSync, readFileSync } from 'node:fs';
import { createDocumentReader } from '../src/server/reading/reader';
import { readingCorpus } from '../tests/support/reading-corpus';
import { processMemoryMB, processPssMB } from './server-process';

/**
 * `npx tsx bench/reader-memory.ts [N]`: the document reader process's memory while it reads N documents of the
 * reading corpus (scans and phone photos, all by OCR) one after another, as the server's reader works through
 * a run of uploads: its PSS and resident set after each document, and the highest PSS sampled every 100 ms.
 * Linux only (it reads /proc).
 */

const count = Number(process.argv[2] ?? 12);
const documents = [];
for await (const document of readingCorpus({ count, seed: 7 })) documents.push(document);

/** This process's reader: the child started from reader-process-boot.mjs. */
function readerPid(): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === process.pid && readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('reader-process-boot')) return Number(entry);
    } catch {
      // Gone meanwhile.
    }
  }
  return undefined;
}

const reader = createDocumentReader({ idleMs: 600_000 });
let peak = 0;
let sampling = true;
const sampler = (async () => {
  while (sampling) {
    const pid = readerPid();
    if (pid) peak = Math.max(peak, processPssMB(pid) ?? 0);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
})();
try {
  for (const document of documents) {
    const read = await reader.read({ bytes: document.bytes, mime: document.mime });
    const pid = readerPid();
    const memory = pid ? processMemoryMB(pid) : undefined;
    const pss = pid ? processPssMB(pid) : undefined;
    console.log(`${document.id.padEnd(30)} ${read.method.padEnd(8)} ${read.seconds.toFixed(1).padStart(5)} s   PSS ${pss?.toFixed(0) ?? '–'} MB   RSS ${memory?.rssMB.toFixed(0) ?? '–'} MB`);
  }
} finally {
  sampling = false;
  await sampler;
  await reader.close();
}
console.log(`${documents.length} documents; the reader's highest PSS, sampled every 100 ms: ${peak.toFixed(0)} MB`);
