import type { Readable } from 'node:stream';
import { z } from 'zod';
import {
  inDivisionScope,
  principalCan,
  ZDocType,
  ZDocumentStatus,
  type TBulkStatusResult,
  type TDocument,
  type TDocumentHistory,
  type TDocumentList,
  type TDocumentStatus,
  type TDivision,
  type TDocumentStatusChange,
  type TJobQueue,
  type TPrincipal,
  type TScanRetryResult,
  type TUploadItem,
  type ZDocumentListQuery, type TDocumentReviewContext
} from '../../contract';
import type { Storage } from '../adapters/storage/port';
import { createDecryptor } from '../platform/crypto/envelope';
import { totalBesidePage } from '../platform/db/capped-count';
import type { Db } from '../platform/db/client';
import { auditActorColumns, listDocumentHistory, recordAuditEvent, recordAuditEvents, type AuditEventRow, type NewAuditEvent, type Actor, recordedActorName } from '../audit';
import { birthDateLockedMessage, dayInWords, findPlayer, lockPlayerBirthDate, verifyPlayerBirthDate } from '../players';
import {
  countDocumentList,
  DOCUMENT_LIST_COUNT_CAP,
  documentListPageQuery,
  findDocument,
  findDocumentWithDivision,
  findDocumentWithGuardian,
  findDocumentsByIds,
  findResidencyGroups,
  listRecentUploads,
  lockDocumentForScanRetry,
  lockDocumentsForReview,
  setReviewDecision,
  updateDocument,
  type DocumentListFilter,
} from './documents.repository';
import { requeueDocumentJobs } from '../platform/jobs/jobs.repository';
import { resolveSeason } from '../seasons';
import { AppError } from '../platform/errors';
import type { LivePublisher } from '../live';
import { toDocument, toUploadItem, type DocumentViewRow } from './document-view';
import { documentReadingView, searchHashes, type WordKey } from '../reading';
import { approvalFacts, type ApprovalFacts } from './review-facts';

/**
 * Review decisions a staff member may make; `processing` belongs to the pipeline alone, and a decided document
 * goes back to Under Review only by a reopen, which asks why.
 */
const ALLOWED_TRANSITIONS: Record<TDocumentStatus, readonly TDocumentStatus[]> = {
  pending: ['verified', 'rejected'],
  verified: [],
  rejected: [],
  processing: [],
};

/** Where a reopen puts a decided document back: Under Review. */
const REOPENABLE: readonly TDocumentStatus[] = ['verified', 'rejected'];

/** Why a document cannot be reopened, in words (a clause), or undefined when it can. */
export function refusedReopen(row: { status: TDocumentStatus; purgedAt: Date | null }): string | undefined {
  if (row.purgedAt !== null) return 'its file was removed after the retention period';
  if (REOPENABLE.includes(row.status)) return undefined;
  return row.status === 'pending' ? 'it is already under review' : 'it is still being processed';
}

/** Why staff may not move a document from `from` to `to` (a clause: 'it is already verified'), or undefined when they may. */
export function refusedTransition(from: TDocumentStatus, to: TDocumentStatus): string | undefined {
  if (ALLOWED_TRANSITIONS[from].includes(to)) return undefined;
  if (from === 'processing') return 'it is still being processed';
  return from === to ? `it is already ${to}` : `it is ${from}`;
}

/** The pipeline's job queue, whose jobs a scan retry puts back. */
const PROCESS_DOCUMENT = 'process-document' satisfies TJobQueue;

export type DocumentListParams = z.output<typeof ZDocumentListQuery>;

export type DocumentsServiceDeps = {
  db: Db;
  storage: Storage;
  /** The storage holding objects of a driver; throws when that driver is not configured here. */
  storageFor(driver: 'local' | 's3'): Storage;
  masterKey: Buffer;
  /** The key of the word index of documents' text (reading/word-index.ts). */
  wordKey: WordKey;
  live: LivePublisher;
  /** Wakes the pipeline workers after a scan retry puts a job back. */
  onRecorded: () => void;
  /** Tells the guardian why a document was rejected; never throws (a failure is recorded in notification History). */
  notifyRejected?: (documentId: string, reason: string) => Promise<void>;
  /** How many matching documents the Documents list counts exactly before it estimates (DOCUMENT_LIST_COUNT_CAP; tests lower it). */
  listCountCap?: number;
};



export function createDocumentsService(deps: DocumentsServiceDeps) {
  const storageFor = (driver: 'local' | 's3'): Storage => {
    try {
      return deps.storageFor(driver);
    } catch {
      throw new AppError('SERVICE_UNAVAILABLE', `This file is on ${driver} storage, which this installation has not configured.`);
    }
  };

  /** The document as the API shows it, whoever asks (the pipeline test's own document). */
  async function readDocument(id: string): Promise<TDocument> {
    const row = await findDocumentWithGuardian(deps.db, id);
    if (!row) throw documentNotFound(id);
    return present(row);
  }

  /** A document with what reading found in it, checked against its registration today. */
  async function present(row: DocumentViewRow): Promise<TDocument> {
    const reading = await documentReadingView(deps.db, row.id, new Date().toISOString().slice(0, 10));
    return toDocument(row, (driver) => deps.storageFor(driver), reading);
  }

  return {
    /** The document, when it exists and is in the principal's divisions; else 404, the same for both. */
    async getDocument(id: string, principal: TPrincipal): Promise<TDocument> {
      const row = await findDocumentWithGuardian(deps.db, id);
      if (!row || !inDivisionScope(principal, row.division)) throw documentNotFound(id);
      return present(row);
    },

    async listRecentUploads(limit: number, principal: TPrincipal): Promise<TUploadItem[]> {
      const rows = await listRecentUploads(deps.db, limit, undefined, principal.divisions);
      return rows.map(toUploadItem);
    },

    /**
     * The Documents screen: one page of the documents matching the filters, newest first, and how many match
     * in all (exact, or past the count's cap an estimate said to be one); both only of the principal's divisions.
     */
    async listDocuments(params: DocumentListParams, principal: TPrincipal): Promise<TDocumentList> {
      const search = params.search === '' ? undefined : params.search;
      const filter: DocumentListFilter = {
        search,
        // Words inside documents are searched only for those who may open the files they come from.
        searchWordHashes: search !== undefined && principalCan(principal, 'files.open') ? searchHashes(deps.wordKey, search) : undefined,
        sort: params.sort,
        status: params.status === 'all' ? undefined : params.status,
        docType: params.docType === 'all' ? undefined : params.docType,
        scope: principal.divisions,
      };
      if (params.season !== undefined) {
        const season = await resolveSeason(deps.db, params.season);
        if (!season) throw new AppError('NOT_FOUND', `There is no season ${params.season}.`);
        filter.seasonId = season.id;
      }
      const page = { limit: params.pageSize, offset: (params.page - 1) * params.pageSize };
      // The total is counted exactly up to the cap, and estimated past it (decision 033), beside the page.
      const [rows, counted] = await Promise.all([
        documentListPageQuery(deps.db, filter, page),
        countDocumentList(deps.db, filter, deps.listCountCap ?? DOCUMENT_LIST_COUNT_CAP),
      ]);
      const { total, isEstimate } = totalBesidePage(counted, page, rows.length);
      return {
        documents: rows.map((row) => ({
          ...toUploadItem(row),
          division: row.division,
          reviewNotes: row.reviewNotes,
          storageDriver: row.storageDriver,
          opened: row.opened,
          fileRemoved: row.fileRemoved,
        })),
        total,
        totalIsEstimate: isEstimate,
        page: params.page,
        pageSize: params.pageSize,
      };
    },

    /**
     * A review decision: only allowed moves, with who made it and the facts an approval records (review-facts.ts),
     * recorded with its audit in one transaction, announced after commit. A birth certificate's date of birth
     * becomes the player's and locks it; one that differs from the registered date is refused (409, both dates in
     * words) unless `confirmBirthDateChange`, and one that differs from a date already verified is refused outright.
     */
    async changeStatus(id: string, change: TDocumentStatusChange, actor: Actor): Promise<TDocument> {
      const now = new Date();
      const division = await deps.db.transaction(async (tx) => {
        const [row] = await lockDocumentsForReview(tx, [id]);
        if (!row || !inDivisionScope(actor.principal, row.division)) throw documentNotFound(id);
        const refused = refusedTransition(row.status, change.status);
        if (refused) throw new AppError('CONFLICT', `Document ${id} cannot become ${change.status}: ${refused}.`);
        const seasonGroups = row.docType === 'residency' && change.status === 'verified' ? await findResidencyGroups(tx, row.seasonId) : [];
        const facts = approvalFacts(row.docType, change, { today: now.toISOString().slice(0, 10), seasonGroups });
        const birthDateChangedFrom = facts.birthDate === null ? null : await checkBirthDate(tx, row.playerId, facts.birthDate, change.confirmBirthDateChange === true);
        const reviewNotes = change.reviewNotes ?? null;
        await setReviewDecision(tx, [id], {
          status: change.status,
          reviewNotes,
          reviewedAt: now,
          reviewedBy: auditActorColumns(actor.principal).actorName,
          factBirthDate: facts.birthDate,
          documentDate: facts.documentDate,
          residencyGroup: facts.residencyGroup,
        });
        if (facts.birthDate !== null) await verifyPlayerBirthDate(tx, row.playerId, facts.birthDate, now);
        await recordAuditEvent(tx, statusChangedEvent(id, row.status, change.status, reviewNotes, actor, recordedFacts(facts, birthDateChangedFrom)));
        return row.division;
      });
      deps.live.publish({ type: 'document_status_updated', data: { documentId: id, status: change.status, division } });
      // After the commit: the rejection stands whatever happens to the e-mail.
      if (change.status === 'rejected' && change.notifyGuardian === true && deps.notifyRejected) {
        await deps.notifyRejected(id, change.reviewNotes ?? '');
      }
      return readDocument(id);
    },

    /**
     * What the approval step asks with: the player's registered date of birth (and whether it is already
     * verified), and the season's residency groups. 404 as for the document itself.
     */
    async reviewContext(id: string, principal: TPrincipal): Promise<TDocumentReviewContext> {
      const row = await findDocumentWithDivision(deps.db, id);
      if (!row || !inDivisionScope(principal, row.division)) throw documentNotFound(id);
      const [player, residencyGroups] = await Promise.all([findPlayer(deps.db, row.playerId), findResidencyGroups(deps.db, row.seasonId)]);
      if (!player) throw documentNotFound(id);
      return {
        documentId: id,
        docType: row.docType,
        seasonId: row.seasonId,
        player: {
          id: player.id,
          firstName: player.firstName,
          lastName: player.lastName,
          birthDate: player.birthDate,
          birthDateVerifiedAt: player.birthDateVerifiedAt?.toISOString() ?? null,
        },
        residencyGroups,
      };
    },

    /**
     * The same decision for many documents (bulk approve), all or nothing: every document that may make the
     * move makes it, each with its own audit event, in one transaction; the others are reported with why and
     * left as they were. A document outside the actor's divisions is skipped as one that does not exist.
     * Announced, one event per document, after the commit.
     */
    async changeStatuses(ids: readonly string[], status: TDocumentStatus, actor: Actor): Promise<TBulkStatusResult> {
      const unique = [...new Set(ids)];
      const skipped: TBulkStatusResult['skipped'] = [];
      const moved: Array<{ id: string; division: TDivision | null }> = [];
      await deps.db.transaction(async (tx) => {
        const locked = await lockDocumentsForReview(tx, unique);
        const found = new Map(locked.filter((row) => inDivisionScope(actor.principal, row.division)).map((row) => [row.id, row]));
        const events: NewAuditEvent[] = [];
        for (const id of unique) {
          const row = found.get(id);
          const refused = row === undefined ? 'there is no such document' : refusedTransition(row.status, status);
          if (refused !== undefined || row === undefined) {
            skipped.push({ id, reason: `Not changed: ${refused ?? 'there is no such document'}.` });
            continue;
          }
          moved.push({ id, division: row.division });
          events.push(statusChangedEvent(id, row.status, status, null, actor));
        }
        await setReviewDecision(tx, moved.map((row) => row.id), {
          status,
          reviewNotes: null,
          reviewedAt: new Date(),
          reviewedBy: auditActorColumns(actor.principal).actorName,
        });
        await recordAuditEvents(tx, events);
      });
      for (const { id, division } of moved) deps.live.publish({ type: 'document_status_updated', data: { documentId: id, status, division } });
      return { updated: moved.length, skipped };
    },

    /**
     * A moderator's second thought: a verified or rejected document goes back to Under Review, its decision and
     * note cleared, with the reason in its audit event (same transaction). 404 outside the actor's divisions,
     * 409 in words for a document that is not verified or rejected. Announced after the commit.
     */
    async reopen(id: string, reason: string, actor: Actor): Promise<TDocument> {
      const division = await deps.db.transaction(async (tx) => {
        const [row] = await lockDocumentsForReview(tx, [id]);
        if (!row || !inDivisionScope(actor.principal, row.division)) throw documentNotFound(id);
        const refused = refusedReopen(row);
        if (refused) throw new AppError('CONFLICT', `This document cannot be reopened: ${refused}. Only a verified or rejected document can be reopened.`);
        // The decision and the facts it recorded go; a date of birth it verified stays the player's, locked.
        await setReviewDecision(tx, [id], { status: 'pending', reviewNotes: null, reviewedAt: null, reviewedBy: null, factBirthDate: null, documentDate: null, residencyGroup: null });
        await recordAuditEvent(tx, {
          actor: actor.principal,
          action: 'document.reopened',
          subjectType: 'document',
          subjectId: id,
          detail: { from: row.status, reason },
          requestId: actor.requestId,
        });
        return row.division;
      });
      deps.live.publish({ type: 'document_status_updated', data: { documentId: id, status: 'pending', division } });
      return readDocument(id);
    },

    /** The document's audit trail, oldest first, each event with a sentence for people. */
    async history(id: string, principal: TPrincipal): Promise<TDocumentHistory> {
      const document = await findDocumentWithDivision(deps.db, id);
      if (!document || !inDivisionScope(principal, document.division)) throw documentNotFound(id);
      const events = await listDocumentHistory(deps.db, id, document.submissionId);
      return {
        events: events.map((event) => ({
          at: event.at.toISOString(),
          actor: event.actor,
          actorName: recordedActorName(event),
          action: event.action,
          summary: summarizeAuditEvent(event, id),
        })),
      };
    },

    /**
     * The decrypted file as a stream. GCM verifies only at the end: a tampered object makes the stream
     * fail after some bytes were sent, and the caller must abort the response (Fastify does).
     */
    async openFile(id: string, actor: Actor): Promise<{ stream: Readable; filename: string; mime: string; bytes: number }> {
      const row = await findDocumentWithDivision(deps.db, id);
      if (!row || !inDivisionScope(actor.principal, row.division)) throw documentNotFound(id);
      if (!row.storageKey || !row.storageDriver || !row.wrappedKey || !row.iv || !row.authTag || row.status === 'processing') {
        throw new AppError('NOT_FOUND', 'No file is stored for this document (refused when it arrived, still processing, or past retention).');
      }
      const ciphertext = await storageFor(row.storageDriver).get(row.storageKey);
      await recordAuditEvent(deps.db, {
        actor: actor.principal,
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
     * Staff's Retry of a document waiting for a virus scan that failed: its pipeline job runs again at once, with
     * a fresh day of automatic retries counted from the next failure. The document keeps showing the failed scan
     * until a scan gives a verdict. Audited in the same transaction; the workers are woken after the commit.
     */
    async retryScan(id: string, actor: Actor): Promise<TScanRetryResult> {
      const filename = await deps.db.transaction(async (tx) => {
        const row = await lockDocumentForScanRetry(tx, id);
        if (!row || !inDivisionScope(actor.principal, row.division)) throw documentNotFound(id);
        if (row.status !== 'processing' || row.scanFailedAt === null) {
          throw new AppError('CONFLICT', `Document ${id} is not waiting for a virus scan that failed: there is nothing to retry.`);
        }
        const jobs = await requeueDocumentJobs(tx, PROCESS_DOCUMENT, id, new Date());
        if (jobs.requeued === 0 && jobs.running === 0) {
          throw new AppError('CONFLICT', `Document ${id} has no pipeline job left to run again; send the file again.`);
        }
        await updateDocument(tx, id, { scanFirstFailedAt: null });
        await recordAuditEvent(tx, {
          actor: actor.principal,
          action: 'document.scan_retry_requested',
          subjectType: 'document',
          subjectId: id,
          detail: { requeued: jobs.requeued },
          requestId: actor.requestId,
        });
        const document = await findDocument(tx, id);
        return document?.originalFilename ?? 'the document';
      });
      deps.onRecorded();
      return { id, message: `The virus scan of ${filename} will run again now.` };
    },

    /**
     * Moves the selected documents' files into the configured storage where they are not there yet
     * (kept locally before S3 was configured). Idempotent: files already there are not counted. A document
     * outside the actor's divisions is an unknown id.
     */
    async uploadToStorage(ids: readonly string[], actor: Actor): Promise<{ uploaded: number }> {
      const rows = (await findDocumentsByIds(deps.db, ids)).filter((row) => inDivisionScope(actor.principal, row.division));
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
            actor: actor.principal,
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

    /** The document as the API shows it, whoever asks: for the pipeline test, whose document is in the TEST division. */
    readDocumentUnscoped: readDocument,
  };
}
export type DocumentsService = ReturnType<typeof createDocumentsService>;

/**
 * The answer for a document that does not exist, and the same for one outside the principal's divisions:
 * nothing in it tells the two apart.
 */
const documentNotFound = (id: string) => new AppError('NOT_FOUND', `Document ${id} does not exist.`);

/**
 * The player's date of birth against the one a birth certificate shows, the player locked until the
 * transaction ends. Returns the registered date when the certificate changes it (confirmed), null when they
 * agree; refuses a change that is not confirmed (409, both dates in words) and any change of a verified date.
 */
async function checkBirthDate(tx: Db, playerId: string, birthDate: string, confirmed: boolean): Promise<string | null> {
  const player = await lockPlayerBirthDate(tx, playerId);
  if (!player) throw new AppError('NOT_FOUND', `Player ${playerId} does not exist.`);
  if (player.birthDate === birthDate) return null;
  if (player.birthDateVerifiedAt !== null) throw new AppError('CONFLICT', birthDateLockedMessage(player.firstName, player.birthDateVerifiedAt));
  if (!confirmed) {
    throw new AppError(
      'CONFLICT',
      `The certificate shows ${dayInWords(birthDate)} but ${player.firstName}'s registration says ${dayInWords(player.birthDate)}. Confirm to change ${player.firstName}'s date of birth.`,
      [{ path: 'body.confirmBirthDateChange', message: 'Confirm to change the date of birth' }],
    );
  }
  return player.birthDate;
}

/** What an approval recorded, for its audit event: only the facts given, and the date of birth it replaced. */
function recordedFacts(facts: ApprovalFacts, birthDateChangedFrom: string | null): Record<string, string> | undefined {
  const recorded = Object.fromEntries(
    Object.entries({ ...facts, birthDateChangedFrom }).filter((entry): entry is [string, string] => entry[1] !== null),
  );
  return Object.keys(recorded).length > 0 ? recorded : undefined;
}

/** The audit event of a review decision; the single and the bulk decision record the same shape, a single approval its facts too. */
function statusChangedEvent(
  id: string,
  from: TDocumentStatus,
  to: TDocumentStatus,
  reviewNotes: string | null,
  actor: Actor,
  facts?: Record<string, string>,
): NewAuditEvent {
  return {
    actor: actor.principal,
    action: 'document.status_changed',
    subjectType: 'document',
    subjectId: id,
    detail: { from, to, reviewNotes, ...(facts ? { facts } : {}) },
    requestId: actor.requestId,
  };
}

const STORAGE_NAMES: Record<string, string> = { local: 'local storage', s3: 'S3 storage' };
const storageName = (driver: string | null | undefined) => (driver ? (STORAGE_NAMES[driver] ?? `${driver} storage`) : 'storage');

const RECEIVED_FROM: Record<string, string> = {
  form: 'Received from the registration form',
  mailbox: 'Received by e-mail',
  upload: 'Uploaded by staff',
  test: 'Sent by the pipeline test',
};

/** What each action's detail holds, as far as a sentence needs it; a detail that does not fit gets the generic sentence. */
const ZReceivedDetail = z.object({
  documents: z.array(z.object({ id: z.string(), status: z.string().optional(), message: z.string().optional() })).optional(),
});
const ZReadDetail = z.object({
  method: z.string(),
  readable: z.boolean(),
  docType: ZDocType.nullish(),
  typeSet: z.boolean().optional(),
});
const ZStoredDetail = z.object({
  driver: z.string().nullish(),
  docType: ZDocType.nullish(),
  detectedFrom: z.string().optional(),
});
const ZStatusChangedDetail = z.object({
  from: ZDocumentStatus,
  to: ZDocumentStatus,
  reviewNotes: z.string().nullish(),
  facts: z
    .object({
      birthDate: z.string().optional(),
      birthDateChangedFrom: z.string().optional(),
      documentDate: z.string().optional(),
      residencyGroup: z.string().optional(),
    })
    .optional(),
});

/** The facts an approval recorded, as clauses: 'date of birth 30 Apr 2016 verified (changed from 3 Apr 2016)'. */
function factClauses(facts: z.infer<typeof ZStatusChangedDetail>['facts']): string[] {
  if (!facts) return [];
  const clauses: string[] = [];
  if (facts.birthDate) {
    const changed = facts.birthDateChangedFrom ? ` (changed from ${dayInWords(facts.birthDateChangedFrom)})` : '';
    clauses.push(`date of birth ${dayInWords(facts.birthDate)} verified${changed}`);
  }
  if (facts.documentDate) clauses.push(`dated ${dayInWords(facts.documentDate)}`);
  if (facts.residencyGroup) clauses.push(`group ${facts.residencyGroup}`);
  return clauses;
}
const ZReopenedDetail = z.object({ from: ZDocumentStatus, reason: z.string() });
const ZMovedDetail = z.object({ from: z.string().nullish(), to: z.string() });
const ZVirusDetail = z.object({ signature: z.string() });

/**
 * One sentence for people about an audit event of a document's trail (every action the server records on a
 * document or on the submission it came with). `documentId` picks this document out of a submission's files.
 */
export function summarizeAuditEvent(event: Pick<AuditEventRow, 'action' | 'actor' | 'detail'> & Partial<Pick<AuditEventRow, 'actorName'>>, documentId: string): string {
  switch (event.action) {
    case 'submission.received': {
      const received = RECEIVED_FROM[event.actor] ?? `Received (${event.actor})`;
      const detail = ZReceivedDetail.safeParse(event.detail);
      const mine = detail.success ? detail.data.documents?.find((d) => d.id === documentId) : undefined;
      // A file refused at intake (not a PDF or image, too large) becomes a rejected document with no event of its own.
      return mine?.status === 'rejected' && mine.message ? `${received} and refused: ${mine.message}` : received;
    }
    case 'document.stored': {
      const detail = ZStoredDetail.safeParse(event.detail);
      if (!detail.success) break;
      const where = `Stored in ${storageName(detail.data.driver)}`;
      if (!detail.data.docType) return `${where}; its type could not be detected`;
      return detail.data.detectedFrom === 'filename' ? `${where} as ${detail.data.docType} (detected from the file name)` : `${where} as ${detail.data.docType}`;
    }
    case 'document.status_changed': {
      const detail = ZStatusChangedDetail.safeParse(event.detail);
      if (!detail.success) break;
      const { from, to, reviewNotes, facts } = detail.data;
      const recorded = factClauses(facts);
      return `Status changed from ${from} to ${to}${reviewNotes ? `: ${reviewNotes}` : ''}${recorded.length > 0 ? `; ${recorded.join(', ')}` : ''}`;
    }
    case 'document.reopened': {
      const detail = ZReopenedDetail.safeParse(event.detail);
      if (!detail.success) break;
      return `Reopened for review (it was ${detail.data.from}): ${detail.data.reason}`;
    }
    case 'document.downloaded':
      return 'Downloaded';
    case 'document.moved_to_storage': {
      const detail = ZMovedDetail.safeParse(event.detail);
      if (!detail.success) break;
      return `Moved from ${storageName(detail.data.from)} to ${storageName(detail.data.to)}`;
    }
    case 'document.rejected_virus': {
      const detail = ZVirusDetail.safeParse(event.detail);
      return detail.success ? `Virus found: ${detail.data.signature}; the file was discarded` : 'Virus found; the file was discarded';
    }
    case 'document.purged':
      return 'Removed after the retention period';
    case 'document.read': {
      const detail = ZReadDetail.safeParse(event.detail);
      if (!detail.success) break;
      const how = detail.data.method === 'ocr' ? 'Read on this server (OCR)' : 'Read from its PDF text on this server';
      if (!detail.data.readable) return `${how}; too little could be read to check it`;
      return detail.data.typeSet && detail.data.docType ? `${how}; its type, ${detail.data.docType}, was found in its content` : how;
    }
    case 'document.file_removed':
      return 'File removed after verification; the verification and the file’s fingerprint stay';
    case 'document.scan_failed':
      return 'The virus scan could not be made; it is retried automatically for a day';
    case 'document.scan_retries_stopped':
      return 'The virus scan failed for a day; automatic retries stopped (use Retry)';
    case 'document.scan_retry_requested':
      return 'Virus scan retried by staff';
  }
  return `Recorded '${event.action}' (by ${recordedActorName({ actor: event.actor, actorName: event.actorName ?? null })})`;
}
