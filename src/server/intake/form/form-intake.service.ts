import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import { refuseUnstorableText, UNSTORABLE_TEXT_MESSAGE } from '../../../contract';
import type { Storage } from '../../adapters/storage/port';
import type { Db } from '../../platform/db/client';
import { AppError } from '../../platform/errors';
import { recordStagedSubmission, discardStaged, stagedKey, type IntakeResult, type RefusedFile, type StagedFile } from '../../pipeline';
import { detectDocType, sanitizeOriginalFilename } from '../../files';
import { FILE_FIELDS } from './multipart-session';
import { FileUrlRefusedError, openFileUrl, type FilePolicy } from '../fetch-file';
import { fieldErrors, hmacOf, parseSignatureHeader, toSubmittedPlayer, verifySignature, ZFormFields, ZReceivedFormFields } from './form-webhook';
import { deadlineError, type IntakeThreads } from '../intake-threads';
import { stageUpload } from '../stage-file';

/** The JSON body: the form's fields plus files the provider hosts, downloaded under the file policy. */
export const ZFormJson = ZFormFields.extend({
  files: z
    .array(
      z.object({
        url: z.string().min(1, 'is required').max(2048, 'must be at most 2048 characters'),
        filename: z.string().trim().min(1, 'is required').max(255, 'must be at most 255 characters'),
        docType: z.string().trim().max(60).optional(),
      }),
    )
    .min(1, 'attach at least one document')
    .max(12, 'at most 12 files per submission'),
});
/** ZFormJson refusing, by name, any field (file names and URLs included) whose text the database cannot store. */
const ZReceivedFormJson = refuseUnstorableText(ZFormJson);

const MAX_JSON_BYTES = 1_048_576;

export type FormIntakeDeps = {
  db: Db;
  storage: Storage;
  masterKey: Buffer;
  secret: string | undefined;
  idPrefix: string;
  maxFileBytes: number;
  /** Where multipart bodies are parsed and sealed (decision 011). */
  threads: IntakeThreads;
  /** Wakes the pipeline workers once the submission is committed. */
  onRecorded: () => void;
  /** How files named by URL in a JSON submission may be downloaded. */
  filePolicy: Omit<FilePolicy, 'maxBytes'>;
  /** The route's limits (intake.routes.ts): time for the whole body to arrive, requests per address per minute. */
  bodyTimeoutMs: number;
  rateLimitPerMinute: number;
};

/** Files per submission and overhead allowance: the whole body may not exceed this many files' cap. */
const MAX_BODY_FILES = 5;

/**
 * A signed form submission, from raw body to recorded submission. A body without a well-formed signature
 * header is refused before it is read. The signature is checked over the whole body before anything is
 * recorded; files a refused body staged on the way are deleted (decision 011), so a refusal leaves nothing.
 */
export async function receiveFormSubmission(
  deps: FormIntakeDeps,
  request: {
    body: Readable;
    contentType: string;
    signature: string | undefined;
    receivedAt: Date;
    /** Aborted, with an AppError as its reason, when the body is taking too long to arrive. */
    deadline?: AbortSignal;
  },
): Promise<IntakeResult> {
  if (!deps.secret) throw new AppError('SERVICE_UNAVAILABLE', 'Form intake is not configured: FORM_WEBHOOK_SECRET is not set.');
  const isJson = /^application\/json\b/i.test(request.contentType);
  if (!isJson && !/^multipart\/form-data;\s*boundary=/i.test(request.contentType)) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the form as multipart/form-data or application/json.');
  }
  if (!parseSignatureHeader(request.signature)) throw unauthenticated();

  const submissionId = randomUUID();
  const stagingKey = (position: number) => stagedKey(submissionId, position);
  let parsed: { fields: Record<string, string>; files: Array<StagedFile | RefusedFile> };
  if (isJson) {
    const body = await readSmallBody(request.body, MAX_JSON_BYTES, request.deadline);
    if (!verifySignature(request.signature, hmacOf(deps.secret, body))) throw unauthenticated();
    parsed = await downloadJsonFiles(parseJson(body), {
      storage: deps.storage,
      masterKey: deps.masterKey,
      maxFileBytes: deps.maxFileBytes,
      stagingKey,
      filePolicy: { ...deps.filePolicy, maxBytes: deps.maxFileBytes },
    });
  } else {
    const staged = await deps.threads.stageMultipart({
      body: request.body,
      contentType: request.contentType,
      secret: deps.secret,
      signature: request.signature,
      maxFileBytes: deps.maxFileBytes,
      maxBodyBytes: deps.maxFileBytes * MAX_BODY_FILES + 1_048_576,
      stagingKey,
      storage: deps.storage,
      deadline: request.deadline,
    });
    const refuse = async (error: AppError) => {
      await staged.discard();
      return error;
    };
    if (!verifySignature(request.signature, staged)) throw await refuse(unauthenticated());
    if (staged.parseError !== null) throw await refuse(new AppError('VALIDATION_FAILED', staged.parseError));
    if (staged.unknownField !== null) {
      throw await refuse(
        new AppError('VALIDATION_FAILED', `Unknown document type field "${staged.unknownField}".`, [
          { path: staged.unknownField, message: `file fields must be one of ${FILE_FIELDS.join(', ')}` },
        ]),
      );
    }
    if (staged.unstorableFilenameField !== null) {
      const path = `${staged.unstorableFilenameField}.filename`;
      throw await refuse(new AppError('VALIDATION_FAILED', `Invalid submission. ${path}: ${UNSTORABLE_TEXT_MESSAGE}`, [{ path, message: UNSTORABLE_TEXT_MESSAGE }]));
    }
    parsed = staged;
  }

  const fields = ZReceivedFormFields.safeParse(parsed.fields);
  if (!fields.success) {
    await discardStaged(deps.storage, parsed.files.flatMap((f) => (f.kind === 'staged' ? [f.stagedKey] : [])));
    const details = fieldErrors(fields.error);
    throw new AppError('VALIDATION_FAILED', `Invalid submission. ${details.map((d) => `${d.path}: ${d.message}`).join('; ')}`, details);
  }
  if (parsed.files.length === 0) {
    throw new AppError('VALIDATION_FAILED', 'The submission has no files.', [{ path: 'files', message: 'attach at least one document' }]);
  }

  return recordStagedSubmission(deps, {
    id: submissionId,
    source: 'form',
    externalId: fields.data.submissionId,
    receivedAt: request.receivedAt,
    fromEmail: fields.data.guardianEmail,
    subject: null,
    player: toSubmittedPlayer(fields.data),
    files: parsed.files,
  });
}

const unauthenticated = () => new AppError('UNAUTHENTICATED', 'Missing or invalid X-Clearbase-Signature.');

/**
 * A body small enough to hold (a JSON submission names its files by URL), refused past `maxBytes`, or
 * with the deadline's reason once it aborts. A refused body is left to drain; the route closes the
 * connection after its answer.
 */
function readSmallBody(body: Readable, maxBytes: number, deadline: AbortSignal | undefined): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    const settle = (error: Error | undefined) => {
      body.off('data', onData).off('end', onEnd).off('error', onCut).off('close', onCut);
      deadline?.removeEventListener('abort', onDeadline);
      if (error === undefined) {
        resolve(Buffer.concat(chunks, bytes));
        return;
      }
      body.resume();
      reject(error);
    };
    const onData = (chunk: Buffer | string) => {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
      bytes += buffer.length;
      if (bytes > maxBytes) {
        settle(new AppError('PAYLOAD_TOO_LARGE', `The request is larger than ${Math.round(maxBytes / 1_048_576)} MB.`));
        return;
      }
      chunks.push(buffer);
    };
    const onEnd = () => settle(undefined);
    // 'close' before 'end' is a connection cut mid-body.
    const onCut = () => settle(new AppError('VALIDATION_FAILED', 'The request body ended before it was complete.'));
    const onDeadline = () => settle(deadlineError(deadline));
    if (body.destroyed || body.readableAborted) {
      onCut();
      return;
    }
    if (deadline?.aborted) {
      onDeadline();
      return;
    }
    body.on('data', onData).on('end', onEnd).on('error', onCut).on('close', onCut);
    deadline?.addEventListener('abort', onDeadline, { once: true });
  });
}

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    throw new AppError('INVALID_JSON', 'The request body is not valid JSON.');
  }
}

/**
 * Validates a JSON submission's shape, then downloads each file (one at a time: a form has a handful)
 * into staging. A URL the policy refuses, or a download that fails, refuses that file with the reason.
 */
async function downloadJsonFiles(
  body: unknown,
  deps: { storage: Storage; masterKey: Buffer; maxFileBytes: number; stagingKey: (position: number) => string; filePolicy: FilePolicy },
): Promise<{ fields: Record<string, string>; files: Array<StagedFile | RefusedFile> }> {
  const parsed = ZReceivedFormJson.safeParse(body);
  if (!parsed.success) {
    const details = fieldErrors(parsed.error);
    throw new AppError('VALIDATION_FAILED', `Invalid submission. ${details.map((d) => `${d.path}: ${d.message}`).join('; ')}`, details);
  }
  const declared = parsed.data.files.map((file) => (file.docType ? detectDocType({ declared: file.docType }) : undefined));
  const unknown = declared.findIndex((d) => d?.docType === null);
  if (unknown !== -1) {
    throw new AppError('VALIDATION_FAILED', `Unknown document type "${parsed.data.files[unknown]?.docType}".`, [
      { path: `files.${unknown}.docType`, message: 'must be birth_certificate, residency, medical or waiver' },
    ]);
  }
  const files: Array<StagedFile | RefusedFile> = [];
  for (const [position, file] of parsed.data.files.entries()) {
    const originalFilename = sanitizeOriginalFilename(file.filename);
    const declaredType = declared[position]?.docType ?? null;
    try {
      const stream = await openFileUrl(file.url, deps.filePolicy);
      files.push(await stageUpload(stream, { originalFilename, declaredType, key: deps.stagingKey(position) }, { ...deps, cutOffSource: true }));
    } catch (error) {
      if (!(error instanceof FileUrlRefusedError)) throw error;
      await deps.storage.delete(deps.stagingKey(position)).catch(() => undefined);
      files.push({ kind: 'refused', originalFilename, declaredType, code: 'URL_REFUSED', message: error.message, bytes: 0 });
    }
  }
  return { fields: asStringFields(parsed.data), files };
}

/** The text fields as the multipart path has them, so one schema judges both. */
function asStringFields(body: object): Record<string, string> {
  return Object.fromEntries(Object.entries(body).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}
