import type { TDocType } from '../../contract';
import { startEncryption, type EncryptionResult } from '../platform/crypto/envelope';
import { validateFile } from '../files';
import type { RefusedFile, StagedFile } from '../pipeline';

/** Bytes kept from the start of a file for type sniffing. */
export const HEAD_BYTES = 4_096;

export type SealOutcome = { kind: 'sealed'; head: Buffer; result: EncryptionResult } | { kind: 'too-large'; bytesSeen: number };

/**
 * One file's bytes in, ciphertext out, in a single synchronous pass that also hashes the plaintext, keeps
 * its first bytes for type sniffing and enforces the size cap: past `maxBytes` nothing more is returned.
 * The same core runs wherever a file is staged (the request thread for downloads, an intake thread for
 * multipart uploads), so both sides apply exactly the same rules.
 */
export interface FileSealer {
  /** Ciphertext for this chunk, or undefined once the file is over the cap (drop the object). */
  write(chunk: Buffer): Buffer | undefined;
  readonly tooLarge: boolean;
  end(): SealOutcome;
}

export function createFileSealer(masterKey: Buffer, maxBytes: number): FileSealer {
  const encryption = startEncryption(masterKey);
  const headChunks: Buffer[] = [];
  let headLength = 0;
  let seen = 0;
  let tooLarge = false;
  return {
    write(chunk) {
      seen += chunk.length;
      if (tooLarge || seen > maxBytes) {
        tooLarge = true;
        return undefined;
      }
      if (headLength < HEAD_BYTES) {
        // A copy: the chunk's memory may be reused or handed to another thread once this returns.
        const piece = Buffer.from(chunk.subarray(0, HEAD_BYTES - headLength));
        headChunks.push(piece);
        headLength += piece.length;
      }
      return encryption.update(chunk);
    },
    get tooLarge() {
      return tooLarge;
    },
    end() {
      if (tooLarge) return { kind: 'too-large', bytesSeen: seen };
      return { kind: 'sealed', head: Buffer.concat(headChunks), result: encryption.finish() };
    },
  };
}

/** What a sealed file turned out to be: accepted (with its type) or refused with a reason staff can read. */
export type SealVerdict =
  | { kind: 'accepted'; mime: string; extension: string; result: EncryptionResult }
  | { kind: 'refused'; code: string; message: string; bytes: number };

/** Judges a sealed file by its first bytes, its name and its size (stages/validate). */
export function judgeSealed(outcome: SealOutcome, file: { originalFilename: string; maxBytes: number }): SealVerdict {
  if (outcome.kind === 'too-large') {
    const verdict = validateFile({ head: Buffer.alloc(0), filename: file.originalFilename, bytes: outcome.bytesSeen, maxBytes: file.maxBytes });
    return verdict.ok
      ? { kind: 'refused', code: 'TOO_LARGE', message: 'The file is too large.', bytes: outcome.bytesSeen }
      : { kind: 'refused', code: verdict.code, message: verdict.message, bytes: outcome.bytesSeen };
  }
  const verdict = validateFile({ head: outcome.head, filename: file.originalFilename, bytes: outcome.result.bytes, maxBytes: file.maxBytes });
  if (!verdict.ok) return { kind: 'refused', code: verdict.code, message: verdict.message, bytes: outcome.result.bytes };
  return { kind: 'accepted', mime: verdict.mime, extension: verdict.extension, result: outcome.result };
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
