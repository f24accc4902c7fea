import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import type { Storage } from '../adapters/storage/port';
import type { Db } from '../db/client';
import { AppError } from '../errors';
import { recordSubmission } from '../pipeline/record-submission';
import { STAGING_FOLDER } from '../pipeline/staging-sweeper';
import { detectDocType } from '../pipeline/stages/detect-doc-type';
import { sanitizeOriginalFilename } from '../pipeline/stages/validate';
import type { IntakeResult, RefusedFile, StagedFile } from '../pipeline/types';
import { FileUrlRefusedError, openFileUrl, type FilePolicy } from './fetch-file';
import { fieldErrors, parseMultipart, refused, spoolBody, stageUpload, toSubmittedPlayer, verifySignature, ZFormFields } from './form-webhook';

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

const MAX_JSON_BYTES = 1_048_576;

export type FormIntakeDeps = {
  db: Db;
  storage: Storage;
  masterKey: Buffer;
  secret: string | undefined;
  idPrefix: string;
  maxFileBytes: number;
  tmpDir: string;
  /** Wakes the pipeline workers once the submission is committed. */
  onRecorded: () => void;
  /** How files named by URL in a JSON submission may be downloaded. */
  filePolicy: Omit<FilePolicy, 'maxBytes'>;
};

/** Files per submission and overhead allowance: the whole body may not exceed this many files' cap. */
const MAX_BODY_FILES = 5;

/**
 * A signed multipart form submission, from raw body to recorded submission. Nothing is parsed before the
 * signature checks out, and nothing is left behind when the request is refused.
 */
export async function receiveFormSubmission(
  deps: FormIntakeDeps,
  request: { body: Readable; contentType: string; signature: string | undefined; receivedAt: Date },
): Promise<IntakeResult> {
  if (!deps.secret) throw new AppError('SERVICE_UNAVAILABLE', 'Form intake is not configured: FORM_WEBHOOK_SECRET is not set.');
  const isJson = /^application\/json\b/i.test(request.contentType);
  if (!isJson && !/^multipart\/form-data;\s*boundary=/i.test(request.contentType)) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the form as multipart/form-data or application/json.');
  }
  const spooled = await spoolBody(request.body, {
    tmpDir: deps.tmpDir,
    secret: deps.secret,
    maxBytes: isJson ? MAX_JSON_BYTES : deps.maxFileBytes * MAX_BODY_FILES + 1_048_576,
  });
  try {
    if (!verifySignature(deps.secret, request.signature, spooled)) {
      throw new AppError('UNAUTHENTICATED', 'Missing or invalid X-Clearbase-Signature.');
    }
    const submissionId = randomUUID();
    const stagingDeps = { storage: deps.storage, masterKey: deps.masterKey, maxFileBytes: deps.maxFileBytes, stagingPrefix: `${STAGING_FOLDER}/${submissionId}` };
    const parsed = isJson
      ? await downloadJsonFiles(await readJson(spooled.file), { ...stagingDeps, filePolicy: { ...deps.filePolicy, maxBytes: deps.maxFileBytes } })
      : await parseMultipart(spooled, request.contentType, stagingDeps);
    const stagedKeys = parsed.files.flatMap((f) => (f.kind === 'staged' ? [f.stagedKey] : []));
    const discard = () => Promise.all(stagedKeys.map((key) => deps.storage.delete(key).catch(() => undefined)));

    const fields = ZFormFields.safeParse(parsed.fields);
    if (!fields.success) {
      await discard();
      const details = fieldErrors(fields.error);
      throw new AppError('VALIDATION_FAILED', `Invalid submission. ${details.map((d) => `${d.path}: ${d.message}`).join('; ')}`, details);
    }
    if (parsed.files.length === 0) {
      throw new AppError('VALIDATION_FAILED', 'The submission has no files.', [{ path: 'files', message: 'attach at least one document' }]);
    }

    let result: IntakeResult;
    try {
      result = await recordSubmission(deps.db, { idPrefix: deps.idPrefix }, {
        id: submissionId,
        source: 'form',
        externalId: fields.data.submissionId,
        receivedAt: request.receivedAt,
        fromEmail: fields.data.guardianEmail,
        subject: null,
        player: toSubmittedPlayer(fields.data),
        files: parsed.files,
      });
    } catch (error) {
      await discard();
      throw error;
    }
    await Promise.all(result.discardStagedKeys.map((key) => deps.storage.delete(key).catch(() => undefined)));
    if (result.created) deps.onRecorded();
    return result;
  } finally {
    await spooled.discard();
  }
}

async function readJson(file: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as unknown;
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
  deps: { storage: Storage; masterKey: Buffer; maxFileBytes: number; stagingPrefix: string; filePolicy: FilePolicy },
): Promise<{ fields: Record<string, string>; files: Array<StagedFile | RefusedFile> }> {
  const parsed = ZFormJson.safeParse(body);
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
      files.push(await stageUpload(stream, { originalFilename, declaredType, key: `${deps.stagingPrefix}/${position}` }, { ...deps, cutOffSource: true }));
    } catch (error) {
      if (!(error instanceof FileUrlRefusedError)) throw error;
      await deps.storage.delete(`${deps.stagingPrefix}/${position}`).catch(() => undefined);
      files.push(refused(originalFilename, declaredType, 'URL_REFUSED', error.message, 0));
    }
  }
  return { fields: asStringFields(parsed.data), files };
}

/** The text fields as the multipart path has them, so one schema judges both. */
function asStringFields(body: object): Record<string, string> {
  return Object.fromEntries(Object.entries(body).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}
