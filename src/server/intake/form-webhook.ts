import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import Busboy from '@fastify/busboy';
import { z } from 'zod';
import { DOC_TYPES, ZDivision, type TDocType } from '../../contract';
import { IO_CHUNK_BYTES } from '../adapters/storage/local-storage';
import type { Storage } from '../adapters/storage/port';
import { AppError } from '../errors';
import type { RefusedFile, StagedFile, SubmittedPlayer } from '../pipeline/types';
import { sanitizeOriginalFilename, validateFile } from '../pipeline/stages/validate';
import { stageFile } from './stage-file';

export const SIGNATURE_HEADER = 'x-clearbase-signature';
export const FILE_FIELDS = [...DOC_TYPES, 'document'] as const;
const MAX_FILES = 12;

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date written YYYY-MM-DD')
  .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value), 'is not a real date')
  .refine((value) => value <= new Date().toISOString().slice(0, 10), 'is in the future');
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, `must be at most ${max} characters`)
    .transform((v) => (v === '' ? null : v))
    .nullable()
    .default(null);

/** The text fields of a registration form submission (shared by the multipart and JSON bodies). */
export const ZFormFields = z.object({
  submissionId: z.string().trim().min(1, 'is required').max(200, 'must be at most 200 characters'),
  season: z.string().trim().regex(/^(\d{4}|[a-z]+-\d{4})$/, 'must be a year (2025) or a season id (fall-2025)'),
  division: ZDivision,
  playerFirstName: z.string().trim().min(1, 'is required').max(100, 'must be at most 100 characters'),
  playerLastName: z.string().trim().min(1, 'is required').max(100, 'must be at most 100 characters'),
  playerBirthDate: isoDate,
  guardianName: optionalText(200),
  guardianEmail: z
    .string()
    .trim()
    .transform((v) => (v === '' ? null : v))
    .pipe(z.email('must be an e-mail address').nullable())
    .nullable()
    .default(null),
  guardianPhone: optionalText(40).refine((v) => v === null || /^[+0-9 ().-]{5,40}$/.test(v), 'must be a phone number'),
});
export type TFormFields = z.infer<typeof ZFormFields>;

export function toSubmittedPlayer(fields: TFormFields): SubmittedPlayer {
  return {
    season: fields.season,
    division: fields.division,
    firstName: fields.playerFirstName,
    lastName: fields.playerLastName,
    birthDate: fields.playerBirthDate,
    guardianName: fields.guardianName,
    guardianEmail: fields.guardianEmail,
    guardianPhone: fields.guardianPhone,
  };
}

/** Turns zod issues into the API's per-field details, every bad field named. */
export function fieldErrors(error: z.ZodError): Array<{ path: string; message: string }> {
  return error.issues.map((issue) => ({ path: issue.path.join('.') || '(body)', message: issue.message }));
}

/** `sha256=<64 hex>` over the raw body with the shared secret, compared in constant time. */
export function verifySignature(secret: string, header: string | undefined, body: { hmacHex: string }): boolean {
  const match = /^sha256=([0-9a-f]{64})$/i.exec(header?.trim() ?? '');
  if (!match?.[1]) return false;
  const expected = Buffer.from(body.hmacHex, 'hex');
  const given = Buffer.from(match[1].toLowerCase(), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function signBody(secret: string, body: Buffer | string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/**
 * Writes the raw request body to a temporary file while computing its HMAC, so the signature can be
 * checked before anything is parsed, stored or recorded, without holding the body in memory.
 */
export async function spoolBody(
  body: Readable,
  deps: { tmpDir: string; secret: string; maxBytes: number },
): Promise<{ file: string; hmacHex: string; bytes: number; discard(): Promise<void> }> {
  await mkdir(deps.tmpDir, { recursive: true, mode: 0o700 });
  const file = path.join(deps.tmpDir, `intake-${randomUUID()}.part`);
  const hmac = createHmac('sha256', deps.secret);
  let bytes = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      if (bytes > deps.maxBytes) {
        callback(new AppError('PAYLOAD_TOO_LARGE', `The request is larger than ${Math.round(deps.maxBytes / 1_048_576)} MB.`));
        return;
      }
      hmac.update(chunk);
      callback(null, chunk);
    },
  });
  const discard = () => rm(file, { force: true });
  try {
    await pipeline(body, meter, createWriteStream(file, { mode: 0o600, highWaterMark: IO_CHUNK_BYTES }));
  } catch (error) {
    await discard();
    if (error instanceof AppError) throw error;
    throw new AppError('VALIDATION_FAILED', 'The request body ended before it was complete.');
  }
  return { file, hmacHex: hmac.digest('hex'), bytes, discard };
}

export type ParsedForm = { fields: Record<string, string>; files: Array<StagedFile | RefusedFile> };

/**
 * Parses a spooled multipart body: text fields collected, each file streamed through validation,
 * hashing and encryption into staging (`staging/<submission uuid>/<n>`). Files over the size cap or of
 * an unaccepted type are refused, not stored. An unknown file field rejects the whole request.
 */
export async function parseMultipart(
  spooled: { file: string },
  contentType: string,
  deps: { storage: Storage; masterKey: Buffer; maxFileBytes: number; stagingPrefix: string },
): Promise<ParsedForm> {
  const fields: Record<string, string> = {};
  // Filled by position: files stage in parallel, but the answer lists them in the order they were sent.
  const files: Array<StagedFile | RefusedFile> = [];
  const work: Array<Promise<void>> = [];
  const stagedKeys: string[] = [];
  let unknownField: string | undefined;
  let index = 0;

  const parser = Busboy({
    headers: { 'content-type': contentType },
    limits: { fileSize: deps.maxFileBytes + 1, files: MAX_FILES, fields: 50, fieldSize: 10_000, parts: MAX_FILES + 50 },
  });
  parser.on('field', (name, value) => {
    fields[name] = value;
  });
  parser.on('file', (fieldName, stream, filename) => {
    if (!(FILE_FIELDS as readonly string[]).includes(fieldName)) {
      unknownField ??= fieldName;
      stream.resume();
      return;
    }
    const declaredType = fieldName === 'document' ? null : (fieldName as TDocType);
    const originalFilename = sanitizeOriginalFilename(filename);
    const position = index++;
    const key = `${deps.stagingPrefix}/${position}`;
    stagedKeys.push(key);
    work.push(
      stageUpload(stream, { originalFilename, declaredType, key }, deps).then((file) => {
        files[position] = file;
      }),
    );
  });

  try {
    await pipeline(createReadStream(spooled.file, { highWaterMark: IO_CHUNK_BYTES }), parser);
    await Promise.all(work);
  } catch (error) {
    await Promise.allSettled(work);
    await Promise.all(stagedKeys.map((key) => deps.storage.delete(key).catch(() => undefined)));
    if (error instanceof AppError) throw error;
    throw new AppError('VALIDATION_FAILED', 'The multipart body is malformed or incomplete.');
  }
  if (unknownField !== undefined) {
    await Promise.all(stagedKeys.map((key) => deps.storage.delete(key).catch(() => undefined)));
    throw new AppError('VALIDATION_FAILED', `Unknown document type field "${unknownField}".`, [
      { path: unknownField, message: `file fields must be one of ${FILE_FIELDS.join(', ')}` },
    ]);
  }
  return { fields, files };
}

/**
 * One uploaded or downloaded file into staging: streamed, size-capped, hashed and encrypted, then
 * judged by its first bytes. A file that fails is refused with a reason and leaves nothing in storage.
 */
export async function stageUpload(
  stream: Readable,
  file: { originalFilename: string; declaredType: TDocType | null; key: string },
  deps: { storage: Storage; masterKey: Buffer; maxFileBytes: number; cutOffSource?: boolean },
): Promise<StagedFile | RefusedFile> {
  const { originalFilename, declaredType, key } = file;
  const outcome = await stageFile(
    stream,
    { storage: deps.storage, masterKey: deps.masterKey, maxBytes: deps.maxFileBytes, cutOffSource: deps.cutOffSource },
    key,
  );
  if (outcome.kind === 'too-large') {
    const verdict = validateFile({ head: Buffer.alloc(0), filename: originalFilename, bytes: outcome.bytesSeen, maxBytes: deps.maxFileBytes });
    return refused(originalFilename, declaredType, verdict.ok ? 'TOO_LARGE' : verdict.code, verdict.ok ? 'The file is too large.' : verdict.message, outcome.bytesSeen);
  }
  const { head, result } = outcome;
  const verdict = validateFile({ head, filename: originalFilename, bytes: result.bytes, maxBytes: deps.maxFileBytes });
  if (!verdict.ok) {
    await deps.storage.delete(key);
    return refused(originalFilename, declaredType, verdict.code, verdict.message, result.bytes);
  }
  return {
    kind: 'staged',
    originalFilename,
    declaredType,
    stagedKey: key,
    envelope: { wrappedKey: result.wrappedKey, iv: result.iv, authTag: result.authTag },
    sha256: result.sha256,
    bytes: result.bytes,
    mime: verdict.mime,
    extension: verdict.extension,
  };
}

export function refused(originalFilename: string, declaredType: TDocType | null, code: string, message: string, bytes: number): RefusedFile {
  return { kind: 'refused', originalFilename, declaredType, code, message, bytes };
}
