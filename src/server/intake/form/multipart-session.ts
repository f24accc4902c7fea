import { createHmac } from 'node:crypto';
import Busboy from '@fastify/busboy';
import { DOC_TYPES, isStorableText } from '../../../contract';
import { sanitizeOriginalFilename } from '../../files';
import { createFileSealer, judgeSealed, type SealVerdict } from '../file-sealer';

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

export interface MultipartSession {
  /** Feeds the next piece of the body; resolves once the parser has taken it. */
  write(chunk: Buffer): Promise<void>;
  /** The body is complete: resolves once every file has its verdict. */
  end(): Promise<SessionOutcome>;
}

/**
 * One multipart body, read once: every byte goes into the signature's HMAC and into the parser, and each
 * file part straight through the sealer (size cap, head for sniffing, SHA-256, AES-256-GCM). The signature
 * is judged by the owner when the body is complete; until then nothing is recorded, and what was staged
 * is discarded if it does not match (decision 011). After a parse error the rest of the body is still
 * hashed, so a bad signature answers 401 before a malformed body answers 400.
 *
 * Synchronous work only, no I/O: it runs on an intake thread (intake-thread.ts), and in unit tests.
 */
export function createMultipartSession(options: {
  contentType: string;
  secret: string;
  masterKey: Buffer;
  maxFileBytes: number;
  emit(event: SessionFileEvent): void;
}): MultipartSession {
  const hmac = createHmac('sha256', options.secret);
  const fields = new Map<string, string>();
  const fileDone: Array<Promise<void>> = [];
  /** Files whose part has not ended yet, by position: closed as cut off if the body fails first. */
  const openFiles = new Map<number, (verdict: SealVerdict) => void>();
  const cutOff: SealVerdict = { kind: 'refused', code: 'INCOMPLETE', message: 'The file was cut off.', bytes: 0 };
  let bytes = 0;
  let parseError: string | null = null;
  let unknownField: string | null = null;
  let unstorableFilenameField: string | null = null;
  let position = 0;

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
      options.emit({ type: 'file-start', position: at, fieldName, originalFilename });
      fileDone.push(
        new Promise<void>((resolve) => {
          const close = (verdict: SealVerdict) => {
            if (!openFiles.delete(at)) return;
            options.emit({ type: 'file-end', position: at, verdict });
            resolve();
          };
          openFiles.set(at, close);
          stream.on('data', (chunk: Buffer) => {
            const ciphertext = sealer.write(chunk);
            if (ciphertext && ciphertext.length > 0) options.emit({ type: 'file-data', position: at, chunk: ciphertext });
          });
          stream.on('end', () => close(judgeSealed(sealer.end(), { originalFilename, maxBytes: options.maxFileBytes })));
          stream.on('error', () => close(cutOff));
        }),
      );
    });
  }

  return {
    write(chunk) {
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
      for (const close of [...openFiles.values()]) close(cutOff);
      await Promise.all(fileDone);
      return { hmacHex: hmac.digest('hex'), bytes, fields: Object.fromEntries(fields), parseError, unknownField, unstorableFilenameField };
    },
  };
}
