import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Storage } from '../adapters/storage/port';
import type { TDocType } from '../../contract';
import { sharedFileInspector } from '../files';
import type { RefusedFile, StagedFile } from '../pipeline';
import { createFileSealer, judgeSealed, toIntakeFile, type InspectFile, type SealOutcome } from './file-sealer';

export { HEAD_BYTES } from './file-sealer';

/**
 * Streams one file into storage under `key`, encrypted, in a single pass that also hashes it and keeps
 * its first bytes (file-sealer.ts). Past `maxBytes` nothing more is written and the object is removed.
 *
 * The source is consumed to its end rather than destroyed: a multipart parser waits for every file part
 * to be read before it finishes (its own `fileSize` limit ends the part just past the cap). A source that
 * may never end (a download) passes `cutOffSource` and is destroyed at the cap instead.
 */
export async function stageFile(
  source: Readable,
  deps: { storage: Storage; masterKey: Buffer; maxBytes: number; cutOffSource?: boolean },
  key: string,
): Promise<SealOutcome> {
  const sealer = createFileSealer(deps.masterKey, deps.maxBytes);
  let outcome: SealOutcome | undefined;
  const seal = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      const ciphertext = sealer.write(chunk);
      if (ciphertext === undefined && deps.cutOffSource) source.destroy();
      callback(null, ciphertext); // past the cap nothing reaches storage
    },
    flush(callback) {
      try {
        outcome = sealer.end();
        callback();
      } catch (error) {
        callback(error as Error);
      }
    },
  });
  const discard = () => deps.storage.delete(key).catch(() => undefined);
  // Both settle before anything is decided: when the source fails, storage is still removing its temporary
  // file, and a caller told of the failure before that would find it (the staging folder must be empty then).
  // A failure of either ends the other: a failed source destroys `seal` (pipeline does), which fails the
  // write; a failed write destroys `seal` here (a storage need not destroy a body it gave up on), which ends
  // the pipeline, so neither waits forever on a stream nobody reads.
  // Destroyed without an error: the pipeline may already have finished and let go of its listeners (a small
  // file, a storage that fails at its first mkdir), and an 'error' event nobody listens to ends the process.
  // A pipeline still running ends with a premature close, after the write's failure that is reported.
  const stored = deps.storage.put(key, seal).catch((error: unknown) => {
    seal.destroy();
    throw error;
  });
  const failure = await firstFailure([stored, pipeline(source, seal)]);
  if (failure) {
    await discard();
    // A cut-off source ends the pipeline with an error; the real outcome is the size.
    if (sealer.tooLarge) return sealer.end();
    throw failure.error;
  }
  if (!outcome) throw new Error('the file ended without being sealed');
  if (outcome.kind === 'too-large') await discard();
  return outcome;
}

/** Waits for every promise to settle; the first rejection in time (the cause; the others follow from it), if any. */
async function firstFailure(promises: ReadonlyArray<Promise<unknown>>): Promise<{ error: unknown } | undefined> {
  let first: { error: unknown } | undefined;
  await Promise.all(
    promises.map((promise) =>
      promise.then(
        () => undefined,
        (error: unknown) => {
          first ??= { error };
        },
      ),
    ),
  );
  return first;
}

/**
 * One uploaded, downloaded or generated file into staging: streamed, size-capped, hashed and encrypted,
 * then judged by its first bytes and opened by its decoder (in this thread's file inspector, whose own
 * thread a hanging decoder cannot take down with it). A file that fails is refused with a reason and
 * leaves nothing in storage.
 */
export async function stageUpload(
  stream: Readable,
  file: { originalFilename: string; declaredType: TDocType | null; key: string },
  deps: { storage: Storage; masterKey: Buffer; maxFileBytes: number; cutOffSource?: boolean; inspect?: InspectFile },
): Promise<StagedFile | RefusedFile> {
  const outcome = await stageFile(stream, { storage: deps.storage, masterKey: deps.masterKey, maxBytes: deps.maxFileBytes, cutOffSource: deps.cutOffSource }, file.key);
  // The plaintext is not used once it is judged: it moves to the inspector's thread, uncopied.
  const inspect = deps.inspect ?? ((kind, bytes) => sharedFileInspector().inspect(kind, bytes, { handOver: true }));
  const verdict = await judgeSealed(outcome, { originalFilename: file.originalFilename, maxBytes: deps.maxFileBytes }, inspect).catch(async (error: unknown) => {
    // The inspector could not start (a fault of this server, not of the file): nothing may stay staged.
    if (outcome.kind === 'sealed') await deps.storage.delete(file.key).catch(() => undefined);
    throw error;
  });
  if (verdict.kind === 'refused' && outcome.kind === 'sealed') await deps.storage.delete(file.key);
  return toIntakeFile(verdict, { ...file, stagedKey: file.key });
}
