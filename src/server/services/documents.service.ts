import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { TDocument, TDocumentStatus, TDocumentStatusChange, TUploadItem } from '../../contract';
import type { Storage } from '../adapters/storage/port';
import { createDecryptor } from '../crypto/envelope';
import type { Db } from '../db/client';
import { recordAuditEvent } from '../db/audit-events.repository';
import { findDocumentWithGuardian, findDocumentsByIds, listRecentUploads, updateDocument } from '../db/documents.repository';
import { findCurrentSeason } from '../db/seasons.repository';
import { AppError } from '../errors';
import { stageUpload } from '../intake/stage-file';
import type { LivePublisher } from '../live/publisher';
import { recordSubmission } from '../pipeline/record-submission';
import { stagedKey } from '../pipeline/staging-sweeper';

/** Review moves a staff member may make; `processing` belongs to the pipeline alone. */
const ALLOWED_TRANSITIONS: Record<TDocumentStatus, readonly TDocumentStatus[]> = {
  pending: ['verified', 'rejected'],
  verified: ['pending'],
  rejected: ['pending'],
  processing: [],
};

export type DocumentsServiceDeps = {
  db: Db;
  storage: Storage;
  /** The storage holding objects of a driver; throws when that driver is not configured here. */
  storageFor(driver: 'local' | 's3'): Storage;
  masterKey: Buffer;
  live: LivePublisher;
  idPrefix: string;
  maxFileBytes: number;
  onRecorded: () => void;
};

type Actor = { requestId: string };

export function createDocumentsService(deps: DocumentsServiceDeps) {
  const toDocument = (row: NonNullable<Awaited<ReturnType<typeof findDocumentWithGuardian>>>): TDocument => ({
    id: row.id,
    docType: row.docType,
    originalFilename: row.originalFilename,
    status: row.status,
    uploadedAt: row.uploadedAt.toISOString(),
    bytes: row.bytes,
    fileSha256: row.fileSha256,
    storageUrl: row.storageKey && row.storageDriver ? locationOf(row.storageDriver, row.storageKey) : null,
    guardianEmail: row.guardianEmail,
    guardianPhone: row.guardianPhone,
    reviewNotes: row.reviewNotes,
    reviewedAt: row.reviewedAt?.toISOString() ?? null,
  });
  const storageFor = (driver: 'local' | 's3'): Storage => {
    try {
      return deps.storageFor(driver);
    } catch {
      throw new AppError('SERVICE_UNAVAILABLE', `This file is on ${driver} storage, which this installation has not configured.`);
    }
  };
  /** A location for display; unknown (null) when the file's storage is not configured here. */
  const locationOf = (driver: 'local' | 's3', key: string): string | null => {
    try {
      return deps.storageFor(driver).urlFor(key);
    } catch {
      return null;
    }
  };

  async function getDocument(id: string): Promise<TDocument> {
    const row = await findDocumentWithGuardian(deps.db, id);
    if (!row) throw new AppError('NOT_FOUND', `Document ${id} does not exist.`);
    return toDocument(row);
  }

  return {
    getDocument,

    async listRecentUploads(limit: number): Promise<TUploadItem[]> {
      const rows = await listRecentUploads(deps.db, limit);
      return rows.map((row) => ({
        id: row.id,
        fileName: row.originalFilename,
        playerId: row.playerId,
        playerName: `${row.firstName} ${row.lastName}`,
        docType: row.docType,
        status: row.status,
        uploadedAt: row.uploadedAt.toISOString(),
        bytes: row.bytes,
        fileSha256: row.fileSha256,
      }));
    },

    /** A review decision: only allowed moves, recorded with its audit, announced after commit. */
    async changeStatus(id: string, change: TDocumentStatusChange, actor: Actor): Promise<TDocument> {
      await deps.db.transaction(async (tx) => {
        const row = await findDocumentWithGuardian(tx, id);
        if (!row) throw new AppError('NOT_FOUND', `Document ${id} does not exist.`);
        if (!ALLOWED_TRANSITIONS[row.status].includes(change.status)) {
          const reason = row.status === 'processing' ? 'it is still being processed' : `it is ${row.status}`;
          throw new AppError('CONFLICT', `Document ${id} cannot become ${change.status}: ${reason}.`);
        }
        const reviewedAt = change.status === 'pending' ? null : new Date();
        await updateDocument(tx, id, { status: change.status, reviewNotes: change.reviewNotes ?? null, reviewedAt });
        await recordAuditEvent(tx, {
          actor: 'staff',
          action: 'document.status_changed',
          subjectType: 'document',
          subjectId: id,
          detail: { from: row.status, to: change.status, reviewNotes: change.reviewNotes ?? null },
          requestId: actor.requestId,
        });
      });
      deps.live.publish({ type: 'document_status_updated', data: { documentId: id, status: change.status } });
      return getDocument(id);
    },

    /**
     * The decrypted file as a stream. GCM verifies only at the end: a tampered object makes the stream
     * fail after some bytes were sent, and the caller must abort the response (Fastify does).
     */
    async openFile(id: string, actor: Actor): Promise<{ stream: Readable; filename: string; mime: string; bytes: number }> {
      const row = await findDocumentWithGuardian(deps.db, id);
      if (!row) throw new AppError('NOT_FOUND', `Document ${id} does not exist.`);
      if (!row.storageKey || !row.storageDriver || !row.wrappedKey || !row.iv || !row.authTag || row.status === 'processing') {
        throw new AppError('NOT_FOUND', 'No file is stored for this document (demo data, rejected, still processing, or past retention).');
      }
      const ciphertext = await storageFor(row.storageDriver).get(row.storageKey);
      await recordAuditEvent(deps.db, {
        actor: 'staff',
        action: 'document.downloaded',
        subjectType: 'document',
        subjectId: id,
        detail: { storageKey: row.storageKey },
        requestId: actor.requestId,
      });
      const stream = ciphertext.pipe(createDecryptor(deps.masterKey, { wrappedKey: row.wrappedKey, iv: row.iv, authTag: row.authTag }));
      ciphertext.on('error', (error) => stream.destroy(error));
      return { stream, filename: row.originalFilename, mime: row.mime ?? 'application/octet-stream', bytes: row.bytes };
    },

    /**
     * Moves the selected documents' files into the configured storage where they are not there yet
     * (kept locally before S3 was configured). Idempotent: files already there are not counted.
     */
    async uploadToStorage(ids: readonly string[], actor: Actor): Promise<{ uploaded: number }> {
      const rows = await findDocumentsByIds(deps.db, ids);
      const missing = ids.filter((id) => !rows.some((row) => row.id === id));
      if (missing.length > 0) throw new AppError('NOT_FOUND', `Unknown document ids: ${missing.slice(0, 5).join(', ')}`);
      let uploaded = 0;
      for (const row of rows) {
        if (!row.storageKey || !row.storageDriver || row.storageDriver === deps.storage.driver) continue;
        // Only files kept locally can be pushed; one on an unconfigured S3 has nowhere to come from.
        if (row.storageDriver !== 'local') continue;
        const source = storageFor(row.storageDriver);
        if (!(await source.exists(row.storageKey))) continue;
        await deps.storage.put(row.storageKey, await source.get(row.storageKey));
        await deps.db.transaction(async (tx) => {
          await updateDocument(tx, row.id, { storageDriver: deps.storage.driver });
          await recordAuditEvent(tx, {
            actor: 'staff',
            action: 'document.moved_to_storage',
            subjectType: 'document',
            subjectId: row.id,
            detail: { from: row.storageDriver, to: deps.storage.driver },
            requestId: actor.requestId,
          });
        });
        await source.delete(row.storageKey);
        uploaded++;
      }
      return { uploaded };
    },

    /** Sends a generated PDF for a TEST-division player through the whole pipeline and returns the result. */
    async runTestSubmission(actor: Actor, timeoutMs = 30_000): Promise<TDocument> {
      const season = await findCurrentSeason(deps.db);
      if (!season) throw new AppError('CONFLICT', 'No season exists yet: create a season before running a test.');
      const submissionId = randomUUID();
      const pdf = generateTestPdf(new Date(), actor.requestId);
      const key = stagedKey(submissionId, 0);
      const file = await stageUpload(
        Readable.from([pdf]),
        { originalFilename: 'clearbase-test-waiver.pdf', declaredType: 'waiver', key },
        { storage: deps.storage, masterKey: deps.masterKey, maxFileBytes: deps.maxFileBytes },
      );
      if (file.kind !== 'staged') throw new AppError('INTERNAL', `The generated test file was refused: ${file.message}`);
      const result = await recordSubmission(deps.db, { idPrefix: deps.idPrefix }, {
        id: submissionId,
        source: 'test',
        externalId: `admin-test-${submissionId}`,
        receivedAt: new Date(),
        fromEmail: null,
        subject: 'Clearbase pipeline test',
        player: {
          season: season.id,
          division: 'TEST',
          firstName: 'Pipeline',
          lastName: 'Test',
          birthDate: '2015-01-01',
          guardianName: 'Clearbase Test',
          guardianEmail: 'test@example.org',
          guardianPhone: null,
        },
        files: [file],
      });
      deps.onRecorded();
      const documentId = result.documents[0]?.id;
      if (!documentId) throw new AppError('INTERNAL', 'The test submission created no document.');
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const document = await getDocument(documentId);
        if (document.status !== 'processing') return document;
        if (Date.now() > deadline) throw new AppError('SERVICE_UNAVAILABLE', 'The test document is still processing; check System Status.');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
  };
}
export type DocumentsService = ReturnType<typeof createDocumentsService>;

/** A minimal valid one-page PDF saying what it is and when it was made; unique per run. */
export function generateTestPdf(at: Date, nonce: string): Buffer {
  const text = `Clearbase pipeline test - ${at.toISOString()} - ${nonce}`.replace(/[()\\]/g, '');
  const content = `BT /F1 14 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}
