// A stand-in inspector thread for inspector.test.ts: answers like the real one (inspector-thread.ts), with its
// thread id as the page count so a test can tell threads apart, except for files whose first bytes ask it to
// misbehave as a broken decoder could: loop forever, crash the thread with an error nobody catches, or use
// memory until the thread's heap limit ends it; or to ask to be ended after the file, as after a large photo.
import { parentPort, threadId } from 'node:worker_threads';

const hoard = [];
parentPort.on('message', (job) => {
  const text = Buffer.from(job.bytes).toString('latin1');
  if (text.startsWith('LOOP')) for (;;);
  if (text.startsWith('CRASH')) {
    setTimeout(() => {
      throw new Error('the decoder crashed');
    });
    return;
  }
  if (text.startsWith('HOARD')) {
    for (;;) hoard.push(new Array(1_000_000).fill(hoard.length));
  }
  parentPort.postMessage({ type: 'result', id: job.id, inspection: { ok: true, pages: threadId }, recycle: text.startsWith('RECYCLE') });
});
parentPort.postMessage({ type: 'ready' });
