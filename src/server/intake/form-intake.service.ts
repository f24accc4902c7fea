import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Storage } from '../adapters/storage/port';
import type { Db } from '../db/client';
import { AppError } from '../errors';
import { recordSubmission } from '../pipeline/record-submission';
import type { IntakeResult } from '../pipeline/types';
import { fieldErrors, parseMultipart, spoolBody, toSubmittedPlayer, verifySignature, ZFormFields } from './form-webhook';

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
  if (!/^multipart\/form-data;\s*boundary=/i.test(request.contentType)) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the form as multipart/form-data.');
  }
  const spooled = await spoolBody(request.body, {
    tmpDir: deps.tmpDir,
    secret: deps.secret,
    maxBytes: deps.maxFileBytes * MAX_BODY_FILES + 1_048_576,
  });
  try {
    if (!verifySignature(deps.secret, request.signature, spooled)) {
      throw new AppError('UNAUTHENTICATED', 'Missing or invalid X-Clearbase-Signature.');
    }
    const submissionId = randomUUID();
    const parsed = await parseMultipart(spooled, request.contentType, {
      storage: deps.storage,
      masterKey: deps.masterKey,
      maxFileBytes: deps.maxFileBytes,
      stagingPrefix: `staging/${submissionId}`,
    });
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
