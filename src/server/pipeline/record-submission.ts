import type { Storage } from '../adapters/storage/port';
import type { TJobQueue } from '../../contract';
import type { Db } from '../platform/db/client';
import { recordAuditEvent } from '../audit';
import { findSameFile, insertDocument, listDocumentsOfSubmission } from '../documents';
import { enqueueJob } from '../platform/jobs/jobs.repository';
import { findPlayer, findRegistration, upsertPlayer, upsertRegistration, derivePlayerId } from '../players';
import { registrationRefusal, resolveSeason } from '../seasons';
import { deleteFailedSubmission, findSubmission, findSubmissionByExternalId, insertSubmission, setSubmissionStatus } from './submissions.repository';
import { isDatabaseUnreachable, isUniqueViolation, readAfterConnectionLoss } from '../platform/db/errors';
import { AppError } from '../platform/errors';
import { discardStaged } from './staging-sweeper';
import type { IntakeDocumentResult, IntakeResult, IntakeSubmission, KnownPlayer, SubmittedPlayer } from './types';

export const PROCESS_DOCUMENT_QUEUE = 'process-document' satisfies TJobQueue;
/** Tells the family which files were refused at intake; its handler (main.ts) is the notifications module's. */
export const REFUSED_FILES_NOTICE_QUEUE = 'refused-files-notice' satisfies TJobQueue;

/**
 * Records a submission durably before the intake acknowledges it: player and registration upserted,
 * the submission, one document per file (refused files as rejected), one pipeline job per staged
 * file and, when files were refused and the family left an e-mail, a job that tells them which and why,
 * with an audit event, all in one transaction. The same external id again answers with the first
 * result and creates nothing. The same file for the same player and season points at the existing
 * document instead of creating another.
 */
/**
 * Records a submission whose files wait in staging, and tidies staging after it: when recording fails
 * every staged file is deleted; after a replay or a duplicate, the copies no row points at. Wakes the
 * pipeline when something new was recorded.
 *
 * A connection lost during the transaction is the one failure that leaves its outcome unknown: the
 * commit may have been carried out with only its answer lost. The staged files are then deleted only
 * once the database says the submission is not there; if it is, they belong to its documents' jobs, and
 * if the database cannot be asked, the orphaned-staging sweep removes whatever nothing refers to.
 */
export async function recordStagedSubmission(
  deps: { db: Db; storage: Storage; idPrefix: string; onRecorded: () => void },
  submission: IntakeSubmission,
): Promise<IntakeResult> {
  let result: IntakeResult;
  try {
    result = await recordSubmission(deps.db, { idPrefix: deps.idPrefix }, submission);
  } catch (error) {
    if (!isDatabaseUnreachable(error) || (await isCertainlyNotRecorded(deps.db, submission.id))) {
      await discardStaged(deps.storage, submission.files.flatMap((file) => (file.kind === 'staged' ? [file.stagedKey] : [])));
    }
    throw error;
  }
  await discardStaged(deps.storage, result.discardStagedKeys);
  if (result.created) deps.onRecorded();
  return result;
}

/** True only when the database answers that the submission's row is not there. */
async function isCertainlyNotRecorded(db: Db, submissionId: string): Promise<boolean> {
  const read = await readAfterConnectionLoss(() => findSubmission(db, submissionId));
  return read !== undefined && read.answer === undefined;
}

export function recordSubmission(db: Db, deps: { idPrefix: string }, submission: IntakeSubmission): Promise<IntakeResult> {
  return transactionAnsweringTwins(db, (tx) => recordInTransaction(tx, deps, submission));
}

/** Runs `record` in a transaction; when a concurrent twin committed the same file or external id first, once more, to answer as a duplicate. */
async function transactionAnsweringTwins(db: Db, record: (tx: Db) => Promise<IntakeResult>): Promise<IntakeResult> {
  try {
    return await db.transaction(record);
  } catch (error) {
    if (isUniqueViolation(error)) return db.transaction(record);
    throw error;
  }
}

/** The columns every submission row takes as they came, whatever became of it. */
function submissionHeader(submission: Omit<IntakeSubmission, 'player' | 'files'>) {
  const { id, source, externalId, receivedAt, fromEmail, subject } = submission;
  return { id, source, externalId, receivedAt, fromEmail, subject };
}

async function recordInTransaction(tx: Db, deps: { idPrefix: string }, submission: IntakeSubmission): Promise<IntakeResult> {
  const stagedKeys = submission.files.flatMap((f) => (f.kind === 'staged' ? [f.stagedKey] : []));
  if (submission.replaces) await deleteFailedSubmission(tx, submission.replaces);
  const previous = await findSubmissionByExternalId(tx, submission.source, submission.externalId);
  if (previous) {
    const documents = await listDocumentsOfSubmission(tx, previous.id);
    return {
      submissionId: previous.id,
      created: false,
      documents: documents.map((d) => ({ id: d.id, status: d.status })),
      discardStagedKeys: stagedKeys,
    };
  }

  await submission.inTransaction?.before?.(tx);
  const { player } = submission;
  const { playerId, seasonId } = isKnownPlayer(player) ? await knownPlayerOf(tx, player) : await submittedPlayerOf(tx, deps, submission.source, player);

  const row = await insertSubmission(tx, {
    ...submissionHeader(submission),
    playerId,
    seasonId,
    fields: isKnownPlayer(player) ? {} : { ...player },
    status: 'pending',
    attachmentCount: submission.files.length,
    uploadLinkId: submission.uploadLinkId ?? null,
  });

  const documents: IntakeDocumentResult[] = [];
  const discardStagedKeys: string[] = [];
  for (const file of submission.files) {
    if (file.kind === 'refused') {
      const refused = await insertDocument(tx, {
        playerId,
        seasonId,
        submissionId: row.id,
        docType: file.declaredType,
        originalFilename: file.originalFilename,
        status: 'rejected',
        bytes: file.bytes,
        reviewNotes: file.message,
        reviewedAt: submission.receivedAt,
        uploadedAt: submission.receivedAt,
      });
      documents.push({ id: refused.id, status: refused.status, message: file.message });
      continue;
    }
    const existing = await findSameFile(tx, { playerId, seasonId, fileSha256: file.sha256 });
    if (existing) {
      discardStagedKeys.push(file.stagedKey);
      documents.push({
        id: existing.id,
        status: existing.status,
        duplicateOf: existing.id,
        message: 'This exact file was already received for this player and season.',
      });
      continue;
    }
    const document = await insertDocument(tx, {
      playerId,
      seasonId,
      submissionId: row.id,
      docType: file.declaredType,
      originalFilename: file.originalFilename,
      status: 'processing',
      bytes: file.bytes,
      mime: file.mime,
      fileSha256: file.sha256,
      wrappedKey: file.envelope.wrappedKey,
      iv: file.envelope.iv,
      authTag: file.envelope.authTag,
      stagedKey: file.stagedKey,
      uploadedAt: submission.receivedAt,
    });
    await enqueueJob(tx, { queue: PROCESS_DOCUMENT_QUEUE, payload: { documentId: document.id, extension: file.extension } });
    documents.push({ id: document.id, status: document.status });
  }

  // Pending while a new document is in the pipeline (the last one to finish settles it); otherwise settled
  // now: processed when a document of it is live (new or an earlier copy), failed when every file was refused.
  if (!documents.some((d) => d.status === 'processing')) {
    const refusal = documents.find((d) => d.status === 'rejected' && d.duplicateOf === undefined)?.message;
    const live = documents.some((d) => d.status !== 'rejected' || d.duplicateOf !== undefined);
    await setSubmissionStatus(tx, row.id, live ? 'processed' : 'failed', live ? null : (refusal ?? 'No file of the submission could be accepted'));
  }

  // The family hears which files were refused, once: the notice is queued with the submission, so a replay
  // (which records nothing) queues none, and one the process stops before sending is still sent.
  const refused = submission.files.flatMap((file) => (file.kind === 'refused' ? [{ filename: file.originalFilename, reason: file.message }] : []));
  // Not for the pipeline test: its family is made up.
  const guardianEmail = isKnownPlayer(player) ? await guardianEmailOf(tx, playerId) : player.guardianEmail;
  if (refused.length > 0 && guardianEmail?.trim() && submission.source !== 'test') {
    await enqueueJob(tx, { queue: REFUSED_FILES_NOTICE_QUEUE, payload: { submissionId: row.id, files: refused } });
  }

  await recordAuditEvent(tx, {
    actor: submission.source,
    action: 'submission.received',
    subjectType: 'submission',
    subjectId: row.id,
    detail: { externalId: submission.externalId, playerId, seasonId, files: submission.files.length, documents },
  });
  await submission.inTransaction?.after?.(tx, { submissionId: row.id, playerId, seasonId, documents });
  return { submissionId: row.id, created: true, documents, discardStagedKeys };
}

/**
 * The player a submission describes, found or created by the id their name and birth date derive, and
 * registered for the season in the division it names, once the season takes that registration.
 */
async function submittedPlayerOf(tx: Db, deps: { idPrefix: string }, source: IntakeSubmission['source'], player: SubmittedPlayer): Promise<{ playerId: string; seasonId: string }> {
  // Shared lock: closing the season or removing a division waits for this submission, or it for them.
  const season = await resolveSeason(tx, player.season, { lock: 'share' });
  if (!season) {
    throw new AppError('VALIDATION_FAILED', `Unknown season "${player.season}"`, [
      { path: 'season', message: 'is not a season year or id known to Clearbase' },
    ]);
  }
  // A family's registration only; staff's pipeline test (TEST division, current season) runs whatever the season takes.
  const refusal = source === 'test' ? undefined : registrationRefusal(season, player.division);
  if (refusal) throw new AppError('VALIDATION_FAILED', refusal.message, [{ path: refusal.field, message: refusal.message }]);
  const playerId = derivePlayerId({
    prefix: deps.idPrefix,
    year: season.year,
    firstName: player.firstName,
    lastName: player.lastName,
    birthDate: player.birthDate,
  });
  await upsertPlayer(tx, {
    id: playerId,
    firstName: player.firstName,
    lastName: player.lastName,
    birthDate: player.birthDate,
    guardianName: player.guardianName,
    guardianEmail: player.guardianEmail,
    guardianPhone: player.guardianPhone,
  });
  await upsertRegistration(tx, { playerId, seasonId: season.id, division: player.division });
  return { playerId, seasonId: season.id };
}

/**
 * A player the caller already knows: still registered for the season, which must still take documents
 * (not closed, still offering their division). Their details and registration are left as they are.
 */
async function knownPlayerOf(tx: Db, player: KnownPlayer): Promise<{ playerId: string; seasonId: string }> {
  // Shared lock, as for any submission: closing the season waits for this one, or it for that.
  const season = await resolveSeason(tx, player.seasonId, { lock: 'share' });
  const registration = season ? await findRegistration(tx, player.playerId, season.id) : undefined;
  if (!season || !registration) throw new AppError('NOT_FOUND', 'The player is no longer registered for this season.');
  if (season.closedAt !== null) throw new AppError('CONFLICT', `The ${season.name} season is closed: it takes no more documents.`);
  const refusal = registrationRefusal(season, registration.division);
  if (refusal) throw new AppError('CONFLICT', refusal.message);
  return { playerId: player.playerId, seasonId: season.id };
}

const isKnownPlayer = (player: SubmittedPlayer | KnownPlayer): player is KnownPlayer => 'kind' in player && player.kind === 'known';

/** The guardian's e-mail a known player has on file, for the refused-files notice. */
async function guardianEmailOf(tx: Db, playerId: string): Promise<string | null> {
  return (await findPlayer(tx, playerId))?.guardianEmail ?? null;
}

/**
 * A submission that failed before any file could be matched to a player (no player details, no
 * documents): recorded `failed` with the sentence staff act on, its staged files already discarded by
 * the caller. The same external id again answers with the first record, as for any submission.
 */
export async function recordFailedSubmission(
  db: Db,
  submission: Omit<IntakeSubmission, 'player' | 'files'> & { fields: Record<string, string | null>; errorMessage: string; attachmentCount: number },
): Promise<IntakeResult> {
  return transactionAnsweringTwins(db, async (tx) => {
    if (submission.replaces) await deleteFailedSubmission(tx, submission.replaces);
    const previous = await findSubmissionByExternalId(tx, submission.source, submission.externalId);
    if (previous) return { submissionId: previous.id, created: false, documents: [], discardStagedKeys: [] };
    const row = await insertSubmission(tx, {
      ...submissionHeader(submission),
      playerId: null,
      seasonId: null,
      fields: submission.fields,
      status: 'failed',
      errorMessage: submission.errorMessage,
      attachmentCount: submission.attachmentCount,
    });
    await recordAuditEvent(tx, {
      actor: submission.source,
      action: 'submission.failed',
      subjectType: 'submission',
      subjectId: row.id,
      detail: { externalId: submission.externalId, error: submission.errorMessage, attachments: submission.attachmentCount },
    });
    return { submissionId: row.id, created: true, documents: [], discardStagedKeys: [] };
  });
}
