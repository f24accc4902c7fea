import { pipeline } from 'node:stream/promises';
import { PassThrough } from 'node:stream';
import type { Antivirus } from '../adapters/antivirus/port';
import { AntivirusUnavailableError } from '../adapters/antivirus/port';
import type { Storage } from '../adapters/storage/port';
import { createDecryptor } from '../crypto/envelope';
import type { Db } from '../db/client';
import { recordAuditEvent } from '../db/audit-events.repository';
import { findDocument, findDocumentForPipeline, updateDocument, type DocumentRow } from '../db/documents.repository';
import { isDatabaseUnreachable, readAfterConnectionLoss } from '../db/errors';
import { settleSubmission } from '../db/submissions.repository';
import { buildStoredPath, sanitizeStoredName } from './stored-path';
import type { JobHandler, JobOutcome } from '../jobs/job-runner';
import type { LivePublisher } from '../live/publisher';
import type { Logger } from '../logger';
import { detectDocType } from './stages/detect-doc-type';

export type ProcessDocumentDeps = {
  db: Db;
  storage: Storage;
  /**
   * Asked once per job: the scanner to use, or undefined when scanning is off (turned off in Settings, or
   * no CLAMD_URL; health says which). A function so a changed setting applies to the next job.
   */
  scanner: () => Promise<Antivirus | undefined>;
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
    const found = await findDocumentForPipeline(deps.db, documentId);
    if (!found) return { kind: 'fail', reason: `document ${documentId} does not exist, or its player or season is gone` };
    const { document, player } = found;
    const files = found.submissionFiles ?? 1;
    if (document.status !== 'processing') {
      await discardStaged(deps, document);
      return done;
    }
    if (!document.stagedKey || !document.wrappedKey || !document.iv || !document.authTag) {
      return { kind: 'fail', reason: `document ${documentId} has no staged file` };
    }
    const envelope = { wrappedKey: document.wrappedKey, iv: document.iv, authTag: document.authTag };

    const antivirus = await deps.scanner();
    if (antivirus) {
      let verdict;
      try {
        const plaintext = new PassThrough();
        const decrypting = pipeline(await deps.storage.get(document.stagedKey), createDecryptor(deps.masterKey, envelope), plaintext);
        [verdict] = await Promise.all([antivirus.scan(plaintext), decrypting]);
      } catch (error) {
        if (error instanceof AntivirusUnavailableError) return { kind: 'retry', reason: error.message };
        throw error;
      }
      if (!verdict.clean) {
        await rejectInfected(deps, document, files, verdict.signature);
        return done;
      }
    }

    const detected = document.docType
      ? { docType: document.docType }
      : detectDocType({ filename: document.originalFilename });
    const docType = detected.docType;
    const storedPath = buildStoredPath({
      year: found.seasonYear,
      division: found.division,
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

    await recordStored(deps.db, document.id, async (tx) => {
      await updateDocument(tx, document.id, {
        status: 'pending',
        docType,
        storedPath,
        storageKey: storedPath,
        storageDriver: deps.storage.driver,
        retainUntil,
        // Forgotten in the same commit: if the delete below never happens, the staging sweep removes it.
        stagedKey: null,
      });
      await recordAuditEvent(tx, {
        actor: 'system',
        action: 'document.stored',
        subjectType: 'document',
        subjectId: document.id,
        detail: { storedPath, driver: deps.storage.driver, docType, detectedFrom: document.docType ? 'declared' : 'filename', scanned: Boolean(antivirus) },
      });
      if (document.submissionId) await settleSubmission(tx, document.submissionId, files);
    });
    await deps.storage.delete(document.stagedKey);
    deps.live.publish({
      type: 'document_uploaded',
      data: { documentId: document.id, playerName: `${player.firstName} ${player.lastName}`, docType },
    });
    return done;
  };
}

/**
 * Runs the transaction that records a stored document. When the connection drops under it, the commit
 * may still have gone through; it then cleared `staged_key`, and a re-run could no longer find the staging
 * object to delete. So the document is read again: stored means the work is done (the caller deletes the
 * staging object as usual); otherwise, or when the database cannot be asked, the error stands and the job
 * is retried.
 */
async function recordStored(db: Db, documentId: string, record: (tx: Db) => Promise<void>): Promise<void> {
  try {
    await db.transaction(record);
  } catch (error) {
    if (!isDatabaseUnreachable(error)) throw error;
    const read = await readAfterConnectionLoss(() => findDocument(db, documentId));
    const stored = read?.answer !== undefined && read.answer.status !== 'processing' && read.answer.stagedKey === null;
    if (!stored) throw error;
  }
}

async function rejectInfected(deps: ProcessDocumentDeps, document: DocumentRow, files: number, signature: string): Promise<void> {
  await deps.db.transaction(async (tx) => {
    await updateDocument(tx, document.id, { status: 'rejected', reviewNotes: `Virus found: ${signature}`, reviewedAt: new Date(), stagedKey: null });
    await recordAuditEvent(tx, {
      actor: 'system',
      action: 'document.rejected_virus',
      subjectType: 'document',
      subjectId: document.id,
      detail: { signature, originalFilename: document.originalFilename },
    });
    if (document.submissionId) await settleSubmission(tx, document.submissionId, files, `Virus found: ${signature}`);
  });
  if (document.stagedKey) await deps.storage.delete(document.stagedKey);
  deps.log.warn({ documentId: document.id, signature }, 'virus found; file discarded');
  deps.live.publish({ type: 'document_status_updated', data: { documentId: document.id, status: 'rejected' } });
}

async function discardStaged(deps: ProcessDocumentDeps, document: DocumentRow): Promise<void> {
  if (!document.stagedKey) return;
  await deps.storage.delete(document.stagedKey);
  await updateDocument(deps.db, document.id, { stagedKey: null });
}
