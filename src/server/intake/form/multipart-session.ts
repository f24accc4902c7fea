import { createHmac } from 'node:crypto';
import Busboy from '@fastify/busboy';
import { DOC_TYPES, isStorableText } from '../../../contract';
import { sanitizeOriginalFilename } from '../../files';
import { checkSealed, createFileSealer, judgeSealed, type InspectFile, type SealOutcome, type SealVerdict } from '../file-sealer';
import { verifySignature } from './form-webhook';

export const FILE_FIELDS = [...DOC_TYPES, 'document'] as const;
export type FileField = (typeof FILE_FIELDS)[number];
export const MAX_FILES = 12;
const isFileField = (name: string): name is FileField => (FILE_FIELDS as readonly string[]).includes(name);

/** What a session tells its owner about each file, in order: start, its ciphertext, then its verdict. */
export type SessionFileEvent =
  | { type: 'file-start'; position: number; fieldName: FileField; originalFilename: string }
  | { type: 'file-data'; position: number; chunk: Buffer }
  | { type: 'file-end'; position: number; verdict: SealVerdict };

export type SessionOutcome = {
  /** HMAC-SHA256 of every byte of the body, keyed with the webhook secret, lowercase hex. */
  hmacHex: string;
  bytes: number;
  fields: Record<string, string>;
  /** Why the body could not be parsed (malformed, cut short, too many parts), or null. */
  parseError: string | null;
  /** The first file field that is not a document type, or null. */
  unknownField: string | null;
  /** The first file field whose file name holds text the database cannot store (a NUL byte, half a character), or null. */
  unstorableFilenameField: string | null;
};

type PartFile = { position: number; originalFilename: string; sealed?: SealOutcome; cutOff?: boolean };

export interface MultipartSession {
  /**
   * Feeds the next piece of the body; resolves once the parser has taken it. The piece's memory must not be
   * changed afterwards (a file's plaintext is kept in it, not copied, until the file is judged).
   */
  write(chunk: Buffer): Promise<void>;
  /** The body is complete: resolves once every file has its verdict (each opened by its decoder). */
  end(): Promise<SessionOutcome>;
}

/**
 * One multipart body, read once: every byte goes into the signature's HMAC and into the parser, and each
 * file part straight through the sealer (size cap, SHA-256, AES-256-GCM, the plaintext kept in memory).
 * When the body is complete each file is judged by its first bytes and opened by its decoder (`inspect`),
 * only if the body is signed and well formed: a decoder never sees bytes from a sender who is not
 * trusted, nor spends time on a request that will be refused. The owner judges the signature again and
 * records nothing until then; what was staged is discarded if it does not match (decision 011). After a
 * parse error the rest of the body is still hashed, so a bad signature answers 401 before a malformed
 * body answers 400.
 *
 * No I/O: it runs on an intake thread (intake-thread.ts), whose file inspector decodes the files in a
 * thread of its own, and in unit tests.
 */
export function createMultipartSession(options: {
  contentType: string;
  secret: string;
  masterKey: Buffer;
  maxFileBytes: number;
  /** The request's signature header: only a body it signs, and that will be recorded, has its files decoded. */
  signature: string | undefined;
  inspect: InspectFile;
  emit(event: SessionFileEvent): void;
}): MultipartSession {
  const hmac = createHmac('sha256', options.secret);
  const fields = new Map<string, string>();
  /** The file parts in order; a part that has not ended when the body does was cut off. */
  const files: PartFile[] = [];
  const cutOff: SealVerdict = { kind: 'refused', code: 'INCOMPLETE', message: 'The file was cut off.', bytes: 0 };
  const notOpened = { kind: 'refused', code: 'NOT_OPENED', message: 'The file was not opened: the request was refused.' } as const;
  let bytes = 0;
  let parseError: string | null = null;
  let unknownField: string | null = null;
  let unstorableFilenameField: string | null = null;
  let position = 0;
  /**
   * The memory of the body's pieces as they were given: the owner never changes a piece once written. A
   * file chunk in one of them is kept as it is; any other is copied (the parser hands the bytes it set aside
   * while matching a boundary from a buffer of its own, which it reuses).
   */
  const bodyMemory = new WeakSet<ArrayBufferLike>();

  const fail = (message: string) => {
    parseError ??= message;
  };

  let parser: ReturnType<typeof Busboy> | undefined;
  let finished: Promise<void> = Promise.resolve();
  try {
    parser = Busboy({
      headers: { 'content-type': options.contentType },
      // One byte over the cap, so a file exactly at the cap is told from one over it.
      limits: { fileSize: options.maxFileBytes + 1, files: MAX_FILES, fields: 50, fieldSize: 10_000, parts: MAX_FILES + 50 },
    });
  } catch (error) {
    fail(`The multipart body cannot be read: ${error instanceof Error ? error.message : String(error)}.`);
  }

  if (parser) {
    const busboy = parser;
    finished = new Promise<void>((resolve) => {
      busboy.on('finish', resolve);
      busboy.on('error', (error: Error) => {
        fail(`The multipart body is malformed or incomplete: ${error.message}.`);
        resolve();
      });
    });
    busboy.on('field', (name: string, value: string) => {
      fields.set(name, value);
    });
    busboy.on('filesLimit', () => fail(`At most ${MAX_FILES} files per submission.`));
    busboy.on('fieldsLimit', () => fail('Too many fields in the form.'));
    busboy.on('partsLimit', () => fail('Too many parts in the form.'));
    busboy.on('file', (fieldName: string, stream: NodeJS.ReadableStream, filename: string | undefined) => {
      if (!isFileField(fieldName)) {
        unknownField ??= fieldName;
        stream.resume();
        return;
      }
      // Judged as sent: the display name below drops such characters, but the sender is told, as for a bad text field.
      if (filename !== undefined && !isStorableText(filename)) unstorableFilenameField ??= fieldName;
      const at = position++;
      const originalFilename = sanitizeOriginalFilename(filename ?? '');
      const sealer = createFileSealer(options.masterKey, options.maxFileBytes);
      const file: PartFile = { position: at, originalFilename };
      files.push(file);
      options.emit({ type: 'file-start', position: at, fieldName, originalFilename });
      stream.on('data', (chunk: Buffer) => {
        const ciphertext = sealer.write(chunk, bodyMemory.has(chunk.buffer));
        if (ciphertext && ciphertext.length > 0) options.emit({ type: 'file-data', position: at, chunk: ciphertext });
      });
      stream.on('end', () => {
        if (!file.cutOff) file.sealed ??= sealer.end();
      });
      stream.on('error', () => {
        file.cutOff = true;
      });
    });
  }

  /** Each file's verdict, in order: opened by its decoder only in a body that will be recorded. */
  const judgeFiles = async (hmacHex: string) => {
    const recorded =
      parseError === null && unknownField === null && unstorableFilenameField === null && verifySignature(options.signature, { hmacHex });
    for (const file of files) {
      const { sealed } = file;
      let verdict: SealVerdict;
      const judged = { originalFilename: file.originalFilename, maxBytes: options.maxFileBytes };
      if (file.cutOff || !sealed) verdict = cutOff;
      else if (recorded) verdict = await judgeSealed(sealed, judged, options.inspect);
      else {
        // Checked by its first bytes, name and size, as before; never opened.
        const checked = checkSealed(sealed, judged);
        verdict = checked.kind === 'refused' ? checked : { ...notOpened, bytes: checked.result.bytes };
      }
      // Its plaintext is no longer needed: let it go before the next file is decoded.
      file.sealed = undefined;
      options.emit({ type: 'file-end', position: file.position, verdict });
    }
  };

  return {
    write(chunk) {
      bodyMemory.add(chunk.buffer);
      hmac.update(chunk);
      bytes += chunk.length;
      if (!parser || parseError !== null) return Promise.resolve();
      const busboy = parser;
      return new Promise<void>((resolve) => {
        // The callback also fires, with the error, when the parser has failed; the error is reported by end().
        busboy.write(chunk, () => resolve());
      });
    },
    async end() {
      if (parser && parseError === null) {
        parser.end();
        await finished;
      } else {
        // Fed no more once it failed: it will never finish on its own.
        parser?.destroy();
      }
      const hmacHex = hmac.digest('hex');
      // Rejects when the inspector could not start: a fault of this server, not of a file.
      await judgeFiles(hmacHex);
      return { hmacHex, bytes, fields: Object.fromEntries(fields), parseError, unknownField, unstorableFilenameField };
    },
  };
}
