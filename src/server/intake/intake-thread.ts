import { Readable } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import type { Storage, ThreadAccess, ThreadStorageModule } from '../adapters/storage/port';
import { createFileInspector } from '../files';
import { type FromThread, type ThreadData, type ThreadStaging, type ThreadTask, type ToThread, transferable } from './intake-thread-protocol';
import type { InspectFile } from './file-sealer';
import { createMultipartSession, type SessionFileEvent } from './form/multipart-session';

/**
 * An intake thread: parses multipart bodies, computes their signature HMAC and seals their files
 * (SHA-256 + AES-256-GCM), off the request thread, which keeps only the I/O and the database (decision 011).
 * Each file is then opened by its decoder in this thread's file inspector, a thread of its own that is
 * ended if a file hangs it (decision 022). When the storage can be opened here (a local folder), the thread
 * also writes the files' ciphertext into it itself (decision 035). Started by intake-threads.ts through
 * intake-thread-boot.mjs.
 */
if (!parentPort) throw new Error('intake-thread.ts runs as a worker thread');
const { masterKey } = workerData as ThreadData;
const key = Buffer.from(masterKey);
const inspector = createFileInspector();
// A sealed file's plaintext is not used once it is judged: it moves to the inspector's thread, uncopied.
const inspect: InspectFile = (kind, bytes) => inspector.inspect(kind, bytes, { handOver: true });

/** Ciphertext of one file waiting for the disk; past it the body is not acknowledged, which holds its sender back. */
const FILE_BUFFER_BYTES = 1 << 20;

parentPort.on('message', (task: ThreadTask) => run(task));

function run(task: ThreadTask): void {
  const { port } = task;
  const post = (message: FromThread, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);
  const writes = task.staging ? stageHere(task.staging, post) : undefined;
  const session = createMultipartSession({
    contentType: task.contentType,
    secret: task.secret,
    signature: task.signature,
    masterKey: key,
    maxFileBytes: task.maxFileBytes,
    inspect,
    emit(event: SessionFileEvent) {
      if (event.type === 'file-data') {
        if (writes) {
          writes.push(event.position, event.chunk);
          return;
        }
        const chunk = transferable(event.chunk);
        post({ type: 'file-data', position: event.position, chunk }, [chunk.buffer as ArrayBuffer]);
        return;
      }
      // Started here once the request thread knows the file: the temporary file it goes through is told next.
      if (event.type === 'file-start') {
        post(event);
        writes?.open(event.position);
        return;
      }
      writes?.end(event.position);
      post(event);
    },
  });
  let aborted = false;
  // One message at a time, in order: a chunk is parsed before the next is looked at. An abort is not queued
  // behind them: the files being written are given up at once.
  let queue = Promise.resolve();
  port.on('message', (message: ToThread) => {
    if (message.type === 'abort') {
      aborted = true;
      void (writes?.abandon() ?? Promise.resolve()).then(() => {
        post({ type: 'aborted' });
        port.close();
      });
      return;
    }
    queue = queue
      .then(async () => {
        if (aborted) return;
        if (message.type === 'chunk') {
          await session.write(Buffer.from(message.chunk.buffer, message.chunk.byteOffset, message.chunk.byteLength));
          // Acknowledged once the disk has taken what this piece added: the request thread keeps the window.
          await writes?.room();
          post({ type: 'ack', bytes: message.chunk.byteLength });
        } else {
          const outcome = await session.end();
          const writeFailure = await writes?.settled();
          post({ type: 'done', outcome, ...(writeFailure === undefined ? {} : { writeFailure }) });
          port.close();
        }
      })
      .catch(async (error: unknown) => {
        await writes?.abandon();
        post({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
        port.close();
      });
  });
}

/** This thread's own copy of each storage it was told about, telling the owner of each key the temporary file it writes. */
const storages = new Map<string, Promise<Storage>>();
const temporaryListeners = new Map<string, (temporary: string) => void>();
const storageFor = (access: ThreadAccess): Promise<Storage> => {
  const id = `${access.module} ${JSON.stringify(access.settings)}`;
  let storage = storages.get(id);
  if (!storage) {
    storage = import(access.module).then((module: Partial<ThreadStorageModule>) => {
      if (typeof module.openInThread !== 'function') throw new Error(`${access.module} cannot open a storage in a thread`);
      return module.openInThread(access.settings, { onTemporary: (stagingKey, temporary) => temporaryListeners.get(stagingKey)?.(temporary) });
    });
    storages.set(id, storage);
  }
  return storage;
};

type Write = { readable: Readable; done: Promise<Error | undefined>; settled: boolean };

/**
 * The files of one body, written by this thread into its own copy of the request's storage, each as the
 * request thread's would write it (local disk: a temporary file, fsynced, renamed into place). Each temporary
 * file is told to the request thread as soon as it is named: if this thread ends before its writes do, that
 * one removes them.
 */
function stageHere(staging: ThreadStaging, post: (message: FromThread) => void) {
  const storage = storageFor(staging.access);
  const open = new Map<number, Write>();
  let abandoned = false;
  let waiting: Array<() => void> = [];
  const roomy = () => abandoned || [...open.values()].every((write) => write.settled || write.readable.readableLength < FILE_BUFFER_BYTES);
  const wake = () => {
    if (!roomy()) return;
    const waiters = waiting;
    waiting = [];
    for (const resume of waiters) resume();
  };
  return {
    open(position: number) {
      const stagingKey = staging.keys[position];
      if (stagingKey === undefined) throw new Error(`no staging key for file ${position}`);
      if (abandoned) return;
      // read() runs before the bytes it hands out leave the buffer: look again once they have.
      const readable = new Readable({ highWaterMark: FILE_BUFFER_BYTES, read: () => setImmediate(wake) });
      temporaryListeners.set(stagingKey, (temporary) => post({ type: 'file-temporary', position, temporary }));
      const write: Write = { readable, settled: false, done: Promise.resolve(undefined) };
      write.done = storage.then((opened) => opened.put(stagingKey, readable)).then(
        () => undefined,
        (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
      );
      void write.done.then(() => {
        write.settled = true;
        temporaryListeners.delete(stagingKey);
        // A write that failed takes no more: what it holds and what still comes for it is dropped.
        if (!readable.readableEnded) readable.destroy();
        wake();
      });
      open.set(position, write);
    },
    push(position: number, chunk: Buffer) {
      const write = open.get(position);
      if (!abandoned && write && !write.settled) write.readable.push(chunk);
    },
    end(position: number) {
      const write = open.get(position);
      if (!abandoned && write && !write.settled) write.readable.push(null);
    },
    /** Resolves once every file's ciphertext waiting for the disk is below FILE_BUFFER_BYTES. */
    room(): Promise<void> {
      if (roomy()) return Promise.resolve();
      return new Promise<void>((resolve) => waiting.push(resolve));
    },
    /** Waits for every write to end; why the first that failed did, if one did. */
    async settled(): Promise<string | undefined> {
      const failures = await Promise.all([...open.values()].map((write) => write.done));
      return failures.find((failure) => failure !== undefined)?.message;
    },
    /** Gives every write up (each removes its temporary file) and waits until they have ended. */
    async abandon(): Promise<void> {
      abandoned = true;
      for (const write of open.values()) write.readable.destroy();
      wake();
      await Promise.all([...open.values()].map((write) => write.done));
    },
  };
}
