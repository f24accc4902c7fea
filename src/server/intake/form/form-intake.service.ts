import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import { refuseUnstorableText, UNSTORABLE_TEXT_MESSAGE } from '../../../contract';
import type { Storage } from '../../adapters/storage/port';
import type { Db } from '../../platform/db/client';
import { AppError } from '../../platform/errors';
import { recordStagedSubmission, discardStaged, stagedKey, type IntakeResult, type RefusedFile, type StagedFile } from '../../pipeline';
import { detectDocType } from '../../files';
import { FILE_FIELDS } from './multipart-session';
import type { FilePolicy } from '../fetch-file';
import { fieldErrors, hmacOf, parseSignatureHeader, toSubmittedPlayer, verifySignature, ZFormFields, ZReceivedFormFields } from './form-webhook';
import type { IntakeThreads } from '../intake-threads';
import { parseJsonBody, readSmallBody } from '../read-body';
import { stageSources, type StageSourcesDeps } from '../stage-sources';

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
  /** The secret in force, read per request (form-secret.ts): a rotated secret applies to the next request. */
  secret: () => Promise<string>;
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
  const isJson = /^application\/json\b/i.test(request.contentType);
  if (!isJson && !/^multipart\/form-data;\s*boundary=/i.test(request.contentType)) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the form as multipart/form-data or application/json.');
  }
  if (!parseSignatureHeader(request.signature)) throw unauthenticated();
  const secret = await deps.secret();

  const submissionId = randomUUID();
  const stagingKey = (position: number) => stagedKey(submissionId, position);
  let parsed: { fields: Record<string, string>; files: Array<StagedFile | RefusedFile> };
  if (isJson) {
    const body = await readSmallBody(request.body, MAX_JSON_BYTES, request.deadline);
    if (!verifySignature(request.signature, hmacOf(secret, body))) throw unauthenticated();
    parsed = await downloadJsonFiles(parseJsonBody(body), {
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
      secret,
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
 * Validates a JSON submission's shape, then downloads each file (one at a time: a form has a handful)
 * into staging. A URL the policy refuses, or a download that fails, refuses that file with the reason.
 */
async function downloadJsonFiles(body: unknown, deps: StageSourcesDeps): Promise<{ fields: Record<string, string>; files: Array<StagedFile | RefusedFile> }> {
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
  const files = await stageSources(
    parsed.data.files.map((file, position) => ({ kind: 'url', url: file.url, filename: file.filename, declaredType: declared[position]?.docType ?? null })),
    deps,
  );
  return { fields: asStringFields(parsed.data), files };
}

/** The text fields as the multipart path has them, so one schema judges both. */
function asStringFields(body: object): Record<string, string> {
  return Object.fromEntries(Object.entries(body).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}
