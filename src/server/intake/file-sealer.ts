import type { TDocType } from '../../contract';
import { startEncryption, type EncryptionResult } from '../platform/crypto/envelope';
import { validateFile, type FileInspection, type TFileKind } from '../files';
import type { RefusedFile, StagedFile } from '../pipeline';

/** Bytes kept from the start of a file for type sniffing. */
export const HEAD_BYTES = 4_096;

export type SealOutcome =
  | {
      kind: 'sealed';
      head: Buffer;
      /** The whole file, in memory only (never on disk), for its decoder: at most `maxBytes`. */
      plaintext: Buffer;
      result: EncryptionResult;
    }
  | { kind: 'too-large'; bytesSeen: number };

/**
 * Opens a file with its decoder (the files module's inspector). The bytes are handed over: the caller does
 * not use them again, so the inspector may move them to its thread rather than copy them.
 */
export type InspectFile = (kind: TFileKind, bytes: Uint8Array) => Promise<FileInspection>;

/**
 * One file's bytes in, ciphertext out, in a single synchronous pass that also hashes the plaintext, keeps
 * it in memory for the decoder that judges it once it is complete, and enforces the size cap: past
 * `maxBytes` nothing more is returned or kept. The same core runs wherever a file is staged (the request
 * thread for downloads, an intake thread for multipart uploads), so both sides apply exactly the same rules.
 */
export interface FileSealer {
  /**
   * Ciphertext for this chunk, or undefined once the file is over the cap (drop the object). The chunk is
   * copied to be kept, unless `stays` says its memory is never written again (a piece of a body the caller
   * owns): then the chunk itself is kept, and the plaintext is copied once only, when the file ends.
   */
  write(chunk: Buffer, stays?: boolean): Buffer | undefined;
  readonly tooLarge: boolean;
  end(): SealOutcome;
}

export function createFileSealer(masterKey: Buffer, maxBytes: number): FileSealer {
  const encryption = startEncryption(masterKey);
  let chunks: Buffer[] = [];
  let seen = 0;
  let tooLarge = false;
  return {
    write(chunk, stays = false) {
      seen += chunk.length;
      if (tooLarge || seen > maxBytes) {
        tooLarge = true;
        chunks = [];
        return undefined;
      }
      // A copy unless told otherwise: the chunk's memory may be reused or handed to another thread once this returns.
      chunks.push(stays ? chunk : Buffer.from(chunk));
      return encryption.update(chunk);
    },
    get tooLarge() {
      return tooLarge;
    },
    end() {
      if (tooLarge) return { kind: 'too-large', bytesSeen: seen };
      // Over 4 KiB, a buffer with an ArrayBuffer of its own (not a slice of node's pool), so the decoder's thread can take it over.
      const plaintext = Buffer.concat(chunks, seen);
      chunks = [];
      return { kind: 'sealed', head: plaintext.subarray(0, HEAD_BYTES), plaintext, result: encryption.finish() };
    },
  };
}

/** What a sealed file turned out to be: accepted (with its type) or refused with a reason staff can read. */
export type SealVerdict =
  | { kind: 'accepted'; mime: string; extension: string; result: EncryptionResult }
  | { kind: 'refused'; code: string; message: string; bytes: number };

/** A sealed file that passed the checks on its first bytes, name and size: what its decoder is asked to open. */
export type CheckedFile = { kind: 'checked'; fileKind: TFileKind; mime: string; extension: string; plaintext: Buffer; result: EncryptionResult };

/** Judges a sealed file by its first bytes, its name and its size (stages/validate), without opening it. */
export function checkSealed(outcome: SealOutcome, file: { originalFilename: string; maxBytes: number }): CheckedFile | Extract<SealVerdict, { kind: 'refused' }> {
  if (outcome.kind === 'too-large') {
    const verdict = validateFile({ head: Buffer.alloc(0), filename: file.originalFilename, bytes: outcome.bytesSeen, maxBytes: file.maxBytes });
    return verdict.ok
      ? { kind: 'refused', code: 'TOO_LARGE', message: 'The file is too large.', bytes: outcome.bytesSeen }
      : { kind: 'refused', code: verdict.code, message: verdict.message, bytes: outcome.bytesSeen };
  }
  const bytes = outcome.result.bytes;
  const verdict = validateFile({ head: outcome.head, filename: file.originalFilename, bytes, maxBytes: file.maxBytes });
  if (!verdict.ok) return { kind: 'refused', code: verdict.code, message: verdict.message, bytes };
  return { kind: 'checked', fileKind: verdict.kind, mime: verdict.mime, extension: verdict.extension, plaintext: outcome.plaintext, result: outcome.result };
}

/**
 * Judges a sealed file by its first bytes, its name and its size (checkSealed), then opens it with its
 * decoder: a damaged, incomplete or password-protected file is refused before it counts as staged.
 * Rejects only when the decoder could not be asked (the inspector did not start): a fault of the server.
 */
export async function judgeSealed(outcome: SealOutcome, file: { originalFilename: string; maxBytes: number }, inspect: InspectFile): Promise<SealVerdict> {
  const checked = checkSealed(outcome, file);
  if (checked.kind === 'refused') return checked;
  const inspection = await inspect(checked.fileKind, checked.plaintext);
  if (!inspection.ok) return { kind: 'refused', code: inspection.code, message: inspection.message, bytes: checked.result.bytes };
  return { kind: 'accepted', mime: checked.mime, extension: checked.extension, result: checked.result };
}

/** A file of a submission as the recorder wants it, from its verdict and where its ciphertext was staged. */
export function toIntakeFile(
  verdict: SealVerdict,
  file: { originalFilename: string; declaredType: TDocType | null; stagedKey: string },
): StagedFile | RefusedFile {
  if (verdict.kind === 'refused') {
    return { kind: 'refused', originalFilename: file.originalFilename, declaredType: file.declaredType, code: verdict.code, message: verdict.message, bytes: verdict.bytes };
  }
  const { result } = verdict;
  return {
    kind: 'staged',
    originalFilename: file.originalFilename,
    declaredType: file.declaredType,
    stagedKey: file.stagedKey,
    envelope: { wrappedKey: result.wrappedKey, iv: result.iv, authTag: result.authTag },
    sha256: result.sha256,
    bytes: result.bytes,
    mime: verdict.mime,
    extension: verdict.extension,
  };
}
