import { pipeline } from 'node:stream/promises';
import { PassThrough } from 'node:stream';
import type { Antivirus } from '../adapters/antivirus/port';
import { AntivirusUnavailableError } from '../adapters/antivirus/port';
import type { Storage } from '../adapters/storage/port';
import { createDecryptor } from '../crypto/envelope';
import type { Db } from '../db/client';
import { recordAuditEvent } from '../db/audit-events.repository';
import { countProcessingDocumentsOfSubmission, findDocument, updateDocument, type DocumentRow } from '../db/documents.repository';
import { findPlayer } from '../db/players.repository';
import { findRegistration } from '../db/registrations.repository';
import { findSeason } from '../db/seasons.repository';
import { setSubmissionStatus } from '../db/submissions.repository';
import { buildStoredPath, sanitizeStoredName } from './stored-path';
import type { JobHandler, JobOutcome } from '../jobs/job-runner';
import type { LivePublisher } from '../live/publisher';
import type { Logger } from '../logger';
import { detectDocType } from './stages/detect-doc-type';

export type ProcessDocumentDeps = {
  db: Db;
  storage: Storage;
  /** Undefined = scanning off (health says so). */
  antivirus: Antivirus | undefined;
  masterKey: Buffer;
  live: LivePublisher;
  log: Logger;
  retentionYears: number;
};

const done: JobOutcome = { kind: 'done' };

/**
 * Takes one staged document through scan → type detection → naming → store → record + audit → live
 * event. Safe to re-run at any point after a crash: the final key is deterministic, the move overwrites,
 * the record is one transaction, and a leftover staging object is deleted on the next run.
 */
export function createProcessDocumentHandler(deps: ProcessDocumentDeps): JobHandler {
  return async (payload) => {
    const documentId = typeof payload.documentId === 'string' ? payload.documentId : '';
    const extension = typeof payload.extension === 'string' ? payload.extension : 'bin';
    const document = await findDocument(deps.db, documentId);
    if (!document) return { kind: 'fail', reason: `document ${documentId} does not exist` };
    if (document.status !== 'processing') {
      await discardStaged(deps, document);
      return done;
    }
    if (!document.stagedKey || !document.wrappedKey || !document.iv || !document.authTag) {
      return { kind: 'fail', reason: `document ${documentId} has no staged file` };
    }
    const envelope = { wrappedKey: document.wrappedKey, iv: document.iv, authTag: document.authTag };

    if (deps.antivirus) {
      let verdict;
      try {
        const plaintext = new PassThrough();
        const decrypting = pipeline(await deps.storage.get(document.stagedKey), createDecryptor(deps.masterKey, envelope), plaintext);
        [verdict] = await Promise.all([deps.antivirus.scan(plaintext), decrypting]);
      } catch (error) {
        if (error instanceof AntivirusUnavailableError) return { kind: 'retry', reason: error.message };
        throw error;
      }
      if (!verdict.clean) {
        await rejectInfected(deps, document, verdict.signature);
        return done;
      }
    }

    const [player, season, registration] = await Promise.all([
      findPlayer(deps.db, document.playerId),
      findSeason(deps.db, document.seasonId),
      findRegistration(deps.db, document.playerId, document.seasonId),
    ]);
    if (!player || !season || !registration) return { kind: 'fail', reason: `player or season of document ${documentId} is gone` };

    const detected = document.docType
      ? { docType: document.docType }
      : detectDocType({ filename: document.originalFilename });
    const docType = detected.docType;
    const storedPath = buildStoredPath({
      year: season.year,
      division: registration.division,
      storedName: sanitizeStoredName(player.firstName, player.lastName),
      birthDate: player.birthDate,
      playerId: player.id,
      docType,
      submissionId: document.submissionId ?? document.id,
      fileSha256: document.fileSha256 ?? '',
      extension,
    });

    // The ciphertext moves unchanged: its envelope lives in the row, not in the key (decision 007).
    await deps.storage.copy(document.stagedKey, storedPath);
    const retainUntil = new Date(document.uploadedAt);
    retainUntil.setUTCFullYear(retainUntil.getUTCFullYear() + deps.retentionYears);

    await deps.db.transaction(async (tx) => {
      await updateDocument(tx, document.id, {
        status: 'pending',
        docType,
        storedPath,
        storageKey: storedPath,
        storageDriver: deps.storage.driver,
        retainUntil,
      });
      await recordAuditEvent(tx, {
        actor: 'system',
        action: 'document.stored',
        subjectType: 'document',
        subjectId: document.id,
        detail: { storedPath, driver: deps.storage.driver, docType, detectedFrom: document.docType ? 'declared' : 'filename', scanned: Boolean(deps.antivirus) },
      });
      await settleSubmission(tx, document);
    });
    await discardStaged(deps, { ...document, status: 'pending' });
    deps.live.publish({
      type: 'document_uploaded',
      data: { documentId: document.id, playerName: `${player.firstName} ${player.lastName}`, docType },
    });
    return done;
  };
}

async function rejectInfected(deps: ProcessDocumentDeps, document: DocumentRow, signature: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    await updateDocument(tx, document.id, { status: 'rejected', reviewNotes: `Virus found: ${signature}`, reviewedAt: new Date() });
    await recordAuditEvent(tx, {
      actor: 'system',
      action: 'document.rejected_virus',
      subjectType: 'document',
      subjectId: document.id,
      detail: { signature, originalFilename: document.originalFilename },
    });
    await settleSubmission(tx, document);
  });
  await discardStaged(deps, { ...document, status: 'rejected' });
  deps.log.warn({ documentId: document.id, signature }, 'virus found; file discarded');
  deps.live.publish({ type: 'document_status_updated', data: { documentId: document.id, status: 'rejected' } });
}

/** Marks the submission processed once none of its documents is still in the pipeline. */
async function settleSubmission(tx: Db, document: DocumentRow): Promise<void> {
  if (!document.submissionId) return;
  const stillProcessing = await countProcessingDocumentsOfSubmission(tx, document.submissionId);
  if (stillProcessing === 0) await setSubmissionStatus(tx, document.submissionId, 'processed');
}

async function discardStaged(deps: ProcessDocumentDeps, document: DocumentRow): Promise<void> {
  if (!document.stagedKey) return;
  await deps.storage.delete(document.stagedKey);
  await updateDocument(deps.db, document.id, { stagedKey: null });
}
