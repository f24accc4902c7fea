import type { MessagePort } from 'node:worker_threads';
import type { ThreadAccess } from '../adapters/storage/port';
import type { SealVerdict } from './file-sealer';
import type { FileField, SessionOutcome } from './form/multipart-session';

/**
 * Messages between the request thread and an intake thread (intake-threads.ts ↔ intake-thread.ts).
 * Both ends are this program, in one process, so the types are the contract; bytes travel as transferred
 * Uint8Arrays (structured clone turns a Buffer into one), never copied twice.
 */

/** workerData of every intake thread. */
export type ThreadData = { masterKey: Uint8Array };

/**
 * Posted on the thread's parent port: one per multipart body, with the body's own channel. With `staging`,
 * the thread opens that storage itself and writes the body's files into it, under the key of each file's
 * position; without it, their ciphertext comes back in file-data messages for the request thread to store.
 */
export type ThreadTask = {
  port: MessagePort;
  contentType: string;
  secret: string;
  signature: string | undefined;
  maxFileBytes: number;
  staging?: ThreadStaging;
};

/** How the thread opens the storage (the storage port's ThreadAccess), and the staging key of each file position (MAX_FILES of them). */
export type ThreadStaging = { access: ThreadAccess; keys: string[] };

/**
 * Request thread → intake thread, on the task's port. After `abort` the thread answers `aborted` once the
 * files it was writing itself are settled (each removed, or written and left for the request thread to delete).
 */
export type ToThread = { type: 'chunk'; chunk: Uint8Array } | { type: 'end' } | { type: 'abort' };

/** A verdict as it arrives: its Buffers were cloned into Uint8Arrays. */
export type WireVerdict =
  | { kind: 'accepted'; mime: string; extension: string; result: { sha256: string; bytes: number; wrappedKey: Uint8Array; iv: Uint8Array; authTag: Uint8Array } }
  | { kind: 'refused'; code: string; message: string; bytes: number };

/**
 * Intake thread → request thread, on the task's port. `done`, `failed` and `aborted` come once the files the
 * thread writes itself are settled; `done` says why one could not be written, if one could not.
 */
export type FromThread =
  | { type: 'ack'; bytes: number }
  | { type: 'file-start'; position: number; fieldName: FileField; originalFilename: string }
  | { type: 'file-data'; position: number; chunk: Uint8Array }
  | { type: 'file-temporary'; position: number; temporary: string }
  | { type: 'file-end'; position: number; verdict: WireVerdict }
  | { type: 'done'; outcome: SessionOutcome; writeFailure?: string }
  | { type: 'failed'; message: string }
  | { type: 'aborted' };

/** The verdict with Buffers again, as the recorder expects them. */
export function fromWireVerdict(verdict: WireVerdict): SealVerdict {
  if (verdict.kind === 'refused') return verdict;
  const { result } = verdict;
  return {
    ...verdict,
    result: { ...result, wrappedKey: Buffer.from(result.wrappedKey), iv: Buffer.from(result.iv), authTag: Buffer.from(result.authTag) },
  };
}

/** The bytes of a view, ready to transfer: its own ArrayBuffer when it has one, else a copy of just the view. */
export function transferable(bytes: Uint8Array): Uint8Array {
  return bytes.byteOffset === 0 && bytes.buffer.byteLength === bytes.byteLength && bytes.buffer instanceof ArrayBuffer ? bytes : new Uint8Array(bytes);
}
