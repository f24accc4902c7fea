import { parentPort, workerData } from 'node:worker_threads';
import { createFileInspector } from '../files';
import { type FromThread, type ThreadData, type ThreadTask, type ToThread, transferable } from './intake-thread-protocol';
import type { InspectFile } from './file-sealer';
import { createMultipartSession, type SessionFileEvent } from './form/multipart-session';

/**
 * An intake thread: parses multipart bodies, computes their signature HMAC and seals their files
 * (SHA-256 + AES-256-GCM), off the request thread, which keeps only the I/O and the database (decision 011).
 * Each file is then opened by its decoder in this thread's file inspector, a thread of its own that is
 * ended if a file hangs it (decision 022). Started by intake-threads.ts through intake-thread-boot.mjs.
 */
if (!parentPort) throw new Error('intake-thread.ts runs as a worker thread');
const { masterKey } = workerData as ThreadData;
const key = Buffer.from(masterKey);
const inspector = createFileInspector();
// A sealed file's plaintext is not used once it is judged: it moves to the inspector's thread, uncopied.
const inspect: InspectFile = (kind, bytes) => inspector.inspect(kind, bytes, { handOver: true });

parentPort.on('message', (task: ThreadTask) => run(task));

function run(task: ThreadTask): void {
  const { port } = task;
  const post = (message: FromThread, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);
  const session = createMultipartSession({
    contentType: task.contentType,
    secret: task.secret,
    signature: task.signature,
    masterKey: key,
    maxFileBytes: task.maxFileBytes,
    inspect,
    emit(event: SessionFileEvent) {
      if (event.type === 'file-data') {
        const chunk = transferable(event.chunk);
        post({ type: 'file-data', position: event.position, chunk }, [chunk.buffer as ArrayBuffer]);
      } else {
        post(event);
      }
    },
  });
  // One message at a time, in order: a chunk is parsed before the next is looked at.
  let queue = Promise.resolve();
  port.on('message', (message: ToThread) => {
    queue = queue
      .then(async () => {
        if (message.type === 'chunk') {
          await session.write(Buffer.from(message.chunk.buffer, message.chunk.byteOffset, message.chunk.byteLength));
          post({ type: 'ack', bytes: message.chunk.byteLength });
        } else if (message.type === 'end') {
          post({ type: 'done', outcome: await session.end() });
          port.close();
        } else {
          port.close();
        }
      })
      .catch((error: unknown) => {
        post({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
        port.close();
      });
  });
}
