import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import Busboy from '@fastify/busboy';
import { DOC_TYPES, FAMILY_MAX_PAGES, type TDocType, type TFamilyUploadResult } from '../../../contract';
import type { Storage } from '../../adapters/storage/port';
import { sanitizeOriginalFilename, sharedFileInspector, validateFile } from '../../files';
import type { Db } from '../../platform/db/client';
import { AppError } from '../../platform/errors';
import { recordStagedSubmission, stagedKey, type StagedFile } from '../../pipeline';
import { RECEIVED_MESSAGE, type ActiveUploadLink, type UploadLinksService } from '../../upload-links';
import { deadlineError } from '../intake-threads';
import { stageUpload } from '../stage-file';
import { photosToPdf } from './photos-to-pdf';

export type FamilyIntakeDeps = {
  db: Db;
  storage: Storage;
  masterKey: Buffer;
  idPrefix: string;
  maxFileBytes: number;
  /** Wakes the pipeline workers once the submission is committed. */
  onRecorded: () => void;
  uploadLinks: Pick<UploadLinksService, 'linkForUpload' | 'guardUpload' | 'recordUse' | 'pageOf'>;
  /** Time for the whole body to arrive; requests per address per minute (the route's limits). */
  bodyTimeoutMs: number;
  rateLimitPerMinute: number;
};

/** Room for the multipart headers and the docType field around the files. */
const BODY_OVERHEAD_BYTES = 1_048_576;
const PHOTO_KINDS = new Set(['jpeg', 'png']);
/** '20 MB', '0.2 MB': a cap in words. */
const megabytes = (bytes: number) => {
  const mb = bytes / 1_048_576;
  return mb >= 10 ? String(Math.round(mb)) : String(Math.round(mb * 10) / 10);
};

type Part = { filename: string; bytes: Buffer; tooLarge: boolean };

/**
 * One upload through a family's link, from raw body to recorded submission: a `docType` field, then one
 * file (a PDF or a photo) or 2..FAMILY_MAX_PAGES photos combined into one PDF here. The file goes through
 * the same staging as every intake (sealed, hashed, judged by its bytes and opened by its decoder) and is
 * recorded for the link's player and season, whatever else the body carries. A refused file is answered at
 * once with the reason and leaves nothing: the family is on the page and can send another.
 */
export async function receiveFamilyUpload(
  deps: FamilyIntakeDeps,
  request: { link: ActiveUploadLink; body: Readable; contentType: string; receivedAt: Date; deadline?: AbortSignal },
): Promise<TFamilyUploadResult> {
  if (!/^multipart\/form-data;\s*boundary=/i.test(request.contentType)) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the file as multipart/form-data.');
  }
  const { docType, parts } = await readFamilyBody(request.body, request.contentType, deps.maxFileBytes, request.deadline);
  const file = await stageFamilyFile(deps, docType, parts, randomUUID());
  const { link, receivedAt } = request;
  const recorded = await recordStagedSubmission(deps, {
    id: file.submissionId,
    source: 'family',
    externalId: `family-${randomUUID()}`,
    receivedAt,
    fromEmail: null,
    subject: null,
    player: { kind: 'known', playerId: link.playerId, seasonId: link.seasonId },
    files: [file.staged],
    uploadLinkId: link.id,
    inTransaction: {
      before: (tx) => deps.uploadLinks.guardUpload(tx, link.id, receivedAt),
      after: (tx, done) => deps.uploadLinks.recordUse(tx, link, { docType, submissionId: done.submissionId, receivedAt }),
    },
  });
  const page = await deps.uploadLinks.pageOf(link);
  const state = page.documents.find((document) => document.type === docType)?.state ?? 'under_review';
  const duplicate = recorded.documents.some((document) => document.duplicateOf !== undefined);
  return {
    docType,
    state,
    message: duplicate ? 'This exact file was received before; this page shows where it stands.' : RECEIVED_MESSAGE,
    page,
  };
}

/** The one file to stage: the part as sent, or the photos combined into one PDF. Refused files leave nothing. */
async function stageFamilyFile(deps: FamilyIntakeDeps, docType: TDocType, parts: readonly Part[], submissionId: string): Promise<{ submissionId: string; staged: StagedFile }> {
  const cap = `${megabytes(deps.maxFileBytes)} MB`;
  if (parts.length === 0) throw new AppError('VALIDATION_FAILED', 'Choose a file or a photo to send.', [{ path: 'file', message: 'is required' }]);
  if (parts.some((part) => part.tooLarge)) {
    throw new AppError('PAYLOAD_TOO_LARGE', `${parts.length === 1 ? 'The file' : 'A photo'} is larger than ${cap}, the most one file may be.`);
  }
  let source: { bytes: Buffer; filename: string };
  const [only] = parts;
  if (parts.length === 1 && only) {
    source = only;
  } else {
    const photos: Buffer[] = [];
    for (const [index, part] of parts.entries()) {
      const checked = validateFile({ head: part.bytes.subarray(0, 4096), filename: part.filename, bytes: part.bytes.length, maxBytes: deps.maxFileBytes });
      if (!checked.ok && checked.code !== 'UNSUPPORTED_TYPE') {
        throw new AppError('VALIDATION_FAILED', `Photo ${index + 1} could not be used: ${checked.message}`, [{ path: `file.${index}`, message: checked.message }]);
      }
      if (!checked.ok || !PHOTO_KINDS.has(checked.kind)) {
        throw new AppError('VALIDATION_FAILED', 'Several files make one document only when each is a photo (JPEG or PNG). Send a PDF on its own.', [
          { path: `file.${index}`, message: 'must be a JPEG or PNG photo' },
        ]);
      }
      const opened = await sharedFileInspector().inspect(checked.kind, part.bytes);
      if (!opened.ok) throw new AppError('VALIDATION_FAILED', `Photo ${index + 1} could not be used: ${opened.message}`, [{ path: `file.${index}`, message: opened.message }]);
      photos.push(part.bytes);
    }
    const pdf = await photosToPdf(photos);
    if (pdf.length > deps.maxFileBytes) {
      throw new AppError('PAYLOAD_TOO_LARGE', `These ${photos.length} photos make a PDF larger than ${cap}, the most one document may be. Send fewer or smaller photos.`);
    }
    source = { bytes: pdf, filename: `${docType}-${photos.length}-pages.pdf` };
  }
  const staged = await stageUpload(
    Readable.from([source.bytes]),
    { originalFilename: sanitizeOriginalFilename(source.filename), declaredType: docType, key: stagedKey(submissionId, 0) },
    { storage: deps.storage, masterKey: deps.masterKey, maxFileBytes: deps.maxFileBytes },
  );
  if (staged.kind === 'refused') {
    const status = staged.code === 'TOO_LARGE' ? 'PAYLOAD_TOO_LARGE' : 'VALIDATION_FAILED';
    throw new AppError(status, `The file could not be accepted: ${staged.message} Send a PDF or a photo (JPEG or PNG) of the document.`, [
      { path: 'file', message: staged.message },
    ]);
  }
  return { submissionId, staged };
}

/**
 * The body, read into memory under a cap of one file's size (the photos of one document become one PDF of at
 * most that size): the `docType` field first, then the `file` parts. Any other field is ignored; a body over
 * the cap, or past the deadline, is refused and left to drain (the route closes the connection).
 */
function readFamilyBody(body: Readable, contentType: string, maxFileBytes: number, deadline: AbortSignal | undefined): Promise<{ docType: TDocType; parts: Part[] }> {
  return new Promise((resolve, reject) => {
    const parts: Part[] = [];
    let docType: TDocType | undefined;
    let failure: AppError | undefined;
    let received = 0;
    let settled = false;
    const maxBodyBytes = maxFileBytes + BODY_OVERHEAD_BYTES;

    const settle = (error: Error | undefined) => {
      if (settled) return;
      settled = true;
      deadline?.removeEventListener('abort', onDeadline);
      body.off('data', onData);
      if (error) {
        body.unpipe();
        body.resume();
        reject(error);
        return;
      }
      if (!docType) {
        reject(new AppError('VALIDATION_FAILED', 'Say which document this is.', [{ path: 'docType', message: `must be one of ${DOC_TYPES.join(', ')}` }]));
        return;
      }
      resolve({ docType, parts });
    };
    const fail = (error: AppError) => {
      failure ??= error;
    };
    const onDeadline = () => settle(deadlineError(deadline));
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBodyBytes) {
        settle(new AppError('PAYLOAD_TOO_LARGE', `The upload is larger than ${megabytes(maxFileBytes)} MB, the most one document may be. Send fewer or smaller photos.`));
      }
    };

    let parser: ReturnType<typeof Busboy>;
    try {
      parser = Busboy({
        headers: { 'content-type': contentType },
        limits: { fileSize: maxFileBytes + 1, files: FAMILY_MAX_PAGES, fields: 20, fieldSize: 10_000, parts: FAMILY_MAX_PAGES + 20 },
      });
    } catch {
      settle(new AppError('VALIDATION_FAILED', 'The upload could not be read. Try sending it again.'));
      return;
    }
    parser.on('field', (name: string, value: string) => {
      if (name !== 'docType') return;
      if (parts.length > 0) fail(new AppError('VALIDATION_FAILED', 'Say which document this is before the file.', [{ path: 'docType', message: 'must come before the file' }]));
      const known = DOC_TYPES.find((type) => type === value);
      if (!known) fail(new AppError('VALIDATION_FAILED', 'Choose which document this is.', [{ path: 'docType', message: `must be one of ${DOC_TYPES.join(', ')}` }]));
      docType ??= known;
    });
    parser.on('file', (fieldName: string, stream: NodeJS.ReadableStream, filename: string | undefined) => {
      if (fieldName !== 'file') {
        fail(new AppError('VALIDATION_FAILED', 'Send each file in a part named "file".', [{ path: fieldName, message: 'is not a file field' }]));
        stream.resume();
        return;
      }
      if (!docType) fail(new AppError('VALIDATION_FAILED', 'Say which document this is before the file.', [{ path: 'docType', message: 'must come before the file' }]));
      const chunks: Buffer[] = [];
      const part: Part = { filename: filename ?? '', bytes: Buffer.alloc(0), tooLarge: false };
      parts.push(part);
      stream.on('data', (chunk: Buffer) => {
        if (!part.tooLarge) chunks.push(chunk);
      });
      stream.on('limit', () => {
        part.tooLarge = true;
        chunks.length = 0;
      });
      stream.on('end', () => {
        part.bytes = Buffer.concat(chunks);
      });
    });
    parser.on('filesLimit', () => fail(new AppError('VALIDATION_FAILED', `At most ${FAMILY_MAX_PAGES} photos make one document.`)));
    parser.on('fieldsLimit', () => fail(new AppError('VALIDATION_FAILED', 'The upload has too many fields.')));
    parser.on('partsLimit', () => fail(new AppError('VALIDATION_FAILED', 'The upload has too many parts.')));
    parser.on('error', () => settle(new AppError('VALIDATION_FAILED', 'The upload was cut off or could not be read. Try sending it again.')));
    parser.on('finish', () => settle(failure));

    if (deadline?.aborted) {
      onDeadline();
      return;
    }
    deadline?.addEventListener('abort', onDeadline, { once: true });
    body.on('data', onData);
    body.pipe(parser);
  });
}
