import { pipeline } from 'node:stream/promises';
import { PassThrough } from 'node:stream';
import { PIPELINE_STAGES, type TDocType, type TJobStageId, type TPipelineStage } from '../../contract';
import { type Antivirus, AntivirusUnavailableError } from '../adapters/antivirus/port';
import type { Storage } from '../adapters/storage/port';
import { createDecryptor, type Envelope } from '../platform/crypto/envelope';
import type { Db } from '../platform/db/client';
import { recordAuditEvent } from '../audit';
import { queueReading } from '../reading';
import { findDocument, updateDocument, type DocumentRow, type PipelineDocument } from '../documents';
import { isDatabaseUnreachable, readAfterConnectionLoss } from '../platform/db/errors';
import { settleSubmission } from './submissions.repository';
import { buildStoredPath, sanitizeStoredName, detectDocType } from '../files';
import { retryDelayMs, type JobOutcome } from '../platform/jobs/job-runner';
import type { LivePublisher } from '../live';
import type { Logger } from '../platform/logger';

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
  /**
   * Reading the stored document's text: `on` is asked per job (Settings → System), `queued` wakes the reading
   * lane once a reading is queued with the recorded document.
   */
  reading: { on: () => Promise<boolean>; queued: () => void };
  /** How long and how often a scan the scanner could not make is tried again; DEFAULT_SCAN_RETRY unless a test says otherwise. */
  scanRetry?: ScanRetryPolicy;
  /** The clock of scan failures; the job runner's own clock in tests that drive time. */
  now?: () => Date;
};

/** Retries of a virus scan that got no verdict because the scanner was down, timed out or refused (decision 018). */
export type ScanRetryPolicy = {
  /** Failed attempts in a row after which the document is shown as 'Scan failed, will retry'. */
  showAfterFailures: number;
  /** The wait between attempts doubles from `baseMs` up to `maxMs` (with jitter). */
  backoff: { baseMs: number; maxMs: number };
  /** Automatic attempts go on this long after the first failure; then the job stops and staff can retry. */
  budgetMs: number;
};

/**
 * Three quick attempts (about 2, 4 and 8 seconds apart) tell a blip from an outage before staff see anything;
 * then the waits grow to half an hour, for a day: a clamd down overnight or over a weekend day is caught up
 * within half an hour of its return, at a cost of some 60 connection attempts per document.
 */
export const DEFAULT_SCAN_RETRY: ScanRetryPolicy = {
  showAfterFailures: 3,
  backoff: { baseMs: 2_000, maxMs: 30 * 60_000 },
  budgetMs: 24 * 60 * 60_000,
};

/** One staged document on its way through the job's stages; each stage adds what it found out. */
export type DocumentInFlight = {
  deps: ProcessDocumentDeps;
  found: PipelineDocument;
  document: DocumentRow;
  stagedKey: string;
  envelope: Envelope;
  extension: string;
  /** Files in the document's submission, for settling the submission when the last one is done. */
  files: number;
  /** The job's attempt, from 1. */
  attempt: number;
  /** Set by `scan`: whether a scanner looked at the file (scanning may be off). */
  scanned?: boolean;
  /** Set by `doc-type`. */
  docType?: TDocType | null;
  /** Set by `rename`. */
  storedPath?: string;
};

/** A stage of the job: resolves to nothing to go on to the next stage, or to the job's outcome to stop here. */
type JobStage = (flight: DocumentInFlight) => Promise<JobOutcome | undefined>;

/** What an earlier stage found out; its absence means the stages ran out of order, a bug. */
const setBy = <T>(value: T | undefined, stage: TJobStageId): T => {
  if (value === undefined) throw new Error(`the pipeline reached a stage that needs what '${stage}' finds, before '${stage}' ran`);
  return value;
};

const JOB_STAGE_RUNS: Record<TJobStageId, JobStage> = {
  /** The file is decrypted as it streams to the scanner; an infected file is rejected and discarded. */
  async scan(flight) {
    const { deps } = flight;
    const antivirus = await deps.scanner();
    flight.scanned = Boolean(antivirus);
    if (!antivirus) return undefined;
    let verdict;
    try {
      const plaintext = new PassThrough();
      const decrypting = pipeline(await deps.storage.get(flight.stagedKey), createDecryptor(deps.masterKey, flight.envelope), plaintext);
      [verdict] = await Promise.all([antivirus.scan(plaintext), decrypting]);
    } catch (error) {
      if (error instanceof AntivirusUnavailableError) return recordScanFailure(deps, flight, error);
      throw error;
    }
    if (verdict.clean) return undefined;
    await rejectInfected(flight, verdict.signature);
    return { kind: 'done' };
  },

  /** The type the sender declared, else the one the file name suggests. */
  'doc-type'(flight) {
    flight.docType = flight.document.docType ?? detectDocType({ filename: flight.document.originalFilename }).docType;
    return Promise.resolve(undefined);
  },

  /** The predictable name and folder the document is stored under. */
  rename(flight) {
    const { found: row, document } = flight;
    flight.storedPath = buildStoredPath({
      year: row.seasonYear,
      division: row.division,
      storedName: sanitizeStoredName(row.player.firstName, row.player.lastName),
      birthDate: row.player.birthDate,
      playerId: row.player.id,
      docType: setBy(flight.docType, 'doc-type'),
      submissionId: document.submissionId ?? document.id,
      fileSha256: document.fileSha256 ?? '',
      extension: flight.extension,
    });
    return Promise.resolve(undefined);
  },

  /** The ciphertext moves unchanged: its envelope lives in the row, not in the key (decision 007). */
  async store(flight) {
    await flight.deps.storage.copy(flight.stagedKey, setBy(flight.storedPath, 'rename'));
    return undefined;
  },

  /** The document, its audit event and its submission's progress in one transaction; then the staged copy goes. */
  async record(flight) {
    const { deps, document } = flight;
    const storedPath = setBy(flight.storedPath, 'rename');
    const docType = setBy(flight.docType, 'doc-type');
    const retainUntil = new Date(document.uploadedAt);
    retainUntil.setUTCFullYear(retainUntil.getUTCFullYear() + deps.retentionYears);
    const readingOn = await deps.reading.on();
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
        scanFirstFailedAt: null,
        scanFailedAt: null,
      });
      await recordAuditEvent(tx, {
        actor: 'system',
        action: 'document.stored',
        subjectType: 'document',
        subjectId: document.id,
        detail: { storedPath, driver: deps.storage.driver, docType, detectedFrom: document.docType ? 'declared' : 'filename', scanned: Boolean(flight.scanned) },
      });
      if (document.submissionId) await settleSubmission(tx, document.submissionId, flight.files);
      // Read after it is stored, in a lane of its own: never before the document is recorded and shown.
      await queueReading(tx, document.id, readingOn);
    });
    await deps.storage.delete(flight.stagedKey);
    if (readingOn) deps.reading.queued();
    return undefined;
  },

  /** Open screens hear of the new document at once: those whose divisions include its registration's. */
  notify(flight) {
    const { player, division } = flight.found;
    flight.deps.live.publish({
      type: 'document_uploaded',
      data: { documentId: flight.document.id, playerName: `${player.firstName} ${player.lastName}`, docType: setBy(flight.docType, 'doc-type'), division },
    });
    return Promise.resolve(undefined);
  },
};

/** A stage of the pipeline as the server runs it: the job's stages carry what they do. */
export type Stage = TPipelineStage & { run?: JobStage };

/** The pipeline, in order: the contract's list of stages, each job stage with its work. */
export const STAGES: readonly Stage[] = PIPELINE_STAGES.map((stage) => (stage.runs === 'job' ? { ...stage, run: JOB_STAGE_RUNS[stage.id] } : stage));

/** The stages the background job runs, in the pipeline's order. */
export const JOB_STAGES = STAGES.flatMap((stage) => (stage.run ? [{ id: stage.id, run: stage.run }] : []));

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

async function rejectInfected(flight: DocumentInFlight, signature: string): Promise<void> {
  const { deps, document, files } = flight;
  await deps.db.transaction(async (tx) => {
    await updateDocument(tx, document.id, {
      status: 'rejected',
      reviewNotes: `Virus found: ${signature}`,
      reviewedAt: new Date(),
      stagedKey: null,
      scanFirstFailedAt: null,
      scanFailedAt: null,
    });
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
  deps.live.publish({ type: 'document_status_updated', data: { documentId: document.id, status: 'rejected', division: flight.found.division } });
}

/**
 * A scan without a verdict (clamd down, timed out, refusing the file): the document stays `processing` and the
 * job is tried again with a growing wait until a day after the first failure. After the first few failures the
 * document is marked as waiting for a failed scan, audited and announced, so staff see it on the Documents
 * screen; after the day, the job stops (staff can still retry) and that too is audited.
 */
async function recordScanFailure(deps: ProcessDocumentDeps, flight: DocumentInFlight, error: AntivirusUnavailableError): Promise<JobOutcome> {
  const { document, attempt } = flight;
  const policy = deps.scanRetry ?? DEFAULT_SCAN_RETRY;
  const at = (deps.now ?? (() => new Date()))();
  const firstFailedAt = document.scanFirstFailedAt ?? at;
  const until = new Date(firstFailedAt.getTime() + policy.budgetMs);
  const stopping = at.getTime() >= until.getTime();
  const show = document.scanFailedAt === null && (attempt >= policy.showAfterFailures || stopping);
  if (document.scanFirstFailedAt === null || show || stopping) {
    await deps.db.transaction(async (tx) => {
      await updateDocument(tx, document.id, { scanFirstFailedAt: firstFailedAt, ...(show ? { scanFailedAt: at } : {}) });
      const base = { actor: 'system', subjectType: 'document', subjectId: document.id } as const;
      // The failure's kind only: its message names the scanner's address, which is not for the History screen.
      if (show) await recordAuditEvent(tx, { ...base, action: 'document.scan_failed', detail: { attempts: attempt, reason: error.reason } });
      if (stopping) await recordAuditEvent(tx, { ...base, action: 'document.scan_retries_stopped', detail: { attempts: attempt, since: firstFailedAt.toISOString() } });
    });
  }
  if (show) {
    deps.log.warn({ documentId: document.id, attempts: attempt, reason: error.reason }, 'virus scan keeps failing; the document is shown as waiting for a scan');
    deps.live.publish({ type: 'document_status_updated', data: { documentId: document.id, status: document.status, scanFailed: true, division: flight.found.division } });
  }
  if (stopping) deps.log.error({ documentId: document.id, attempts: attempt, since: firstFailedAt }, 'virus scan failed for the whole retry period; automatic retries stop');
  return { kind: 'retry', reason: error.message, delayMs: retryDelayMs(attempt, policy.backoff), until };
}

