import type { Readable } from 'node:stream';
import { DOC_TYPE_LABELS, inDivisionScope, PLAYER_DOC_STATUS_LABELS, type TErasedPlayer, type TJobQueue, type TPrincipal } from '../../contract';
import type { Storage } from '../adapters/storage/port';
import { recordAuditEvent, recordedActorName, summarizeActivity, type Actor } from '../audit';
import { ACCEPTED_FILE_TYPES } from '../files';
import { createDecryptor } from '../platform/crypto/envelope';
import { openSecret, ZSealedSecret } from '../platform/crypto/secret-box';
import type { Db } from '../platform/db/client';
import { AppError } from '../platform/errors';
import { enqueueJob } from '../platform/jobs/jobs.repository';
import type { JobHandler } from '../platform/jobs/job-runner';
import type { Logger } from '../platform/logger';
import { zipStream, type ZipEntry } from '../platform/http/zip-stream';
import {
  countRunningDocumentJobs,
  eraseRows,
  findPlayerRow,
  listAuditEventsOf,
  listDeliveriesOf,
  listDocumentsOf,
  listNotificationsOf,
  listReadingsOf,
  listRegistrationsOf,
  listSubmissionsOf,
  listUploadLinksOf,
  lockPlayer,
  setEraseFilesLeft,
  type FamilyDocument,
  type FamilyRegistration,
} from './family-data.repository';

/** The queue that deletes an erased player's stored objects after the erasure commits. */
export const ERASE_FILES_QUEUE = 'erase-files' satisfies TJobQueue;

/**
 * What an erased player's audit events keep of their detail: keys whose values name no one (ids, seasons,
 * divisions, statuses, counts, how a step ran). Everything else (file names, storage paths, review notes and
 * reasons, facts such as a date of birth, message ids) is removed; `erased: true` is added.
 */
export const ERASED_DETAIL_KEEPS = [
  'seasonId',
  'division',
  'from',
  'to',
  'docType',
  'newPlayer',
  'method',
  'pages',
  'readable',
  'typeSet',
  'driver',
  'detectedFrom',
  'scanned',
  'attempts',
  'requeued',
  'files',
  'documents',
  'attachments',
  'channel',
  'messages',
  'source',
  'revoked',
  'linkId',
  'historyId',
  'submissionId',
  'playerId',
] as const;

/** What an export shows of an audit event's detail: the kept keys, and what staff wrote about the child. */
const EXPORTED_DETAIL = new Set<string>([...ERASED_DETAIL_KEEPS, 'reviewNotes', 'reason', 'why', 'facts', 'signature', 'error']);

/** An erasure's files are tried every five minutes for a week; by then the storage has been down long enough for a person to look. */
const ERASE_FILES_RETRY_MS = 5 * 60_000;
const ERASE_FILES_ATTEMPTS = (7 * 24 * 60 * 60_000) / ERASE_FILES_RETRY_MS;

export type FamilyDataDeps = {
  db: Db;
  /** The configured storage: staged uploads and form deliveries' bodies are kept there. */
  storage: Storage;
  /** The storage that holds objects of the given driver; may throw when that driver is not configured. */
  storageFor(driver: 'local' | 's3'): Storage;
  masterKey: Buffer;
  /** Wakes the job runner, so an erasure's files go at once. */
  pokeJobs(): void;
  now?: () => Date;
};

/** A name compared as a person types it: no accents, any case, single spaces. */
export const foldName = (name: string): string =>
  name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();

/** What may be in a name inside the ZIP: no folder separators, nothing a file system refuses. */
const safeName = (text: string): string =>
  text
    .replace(/[\\/:*?"<>|\p{Cc}]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 100) || 'untitled';

const extensionOf = (document: FamilyDocument): string => {
  const known = ACCEPTED_FILE_TYPES.find((type) => type.mime === document.mime)?.extensions[0];
  if (known) return known.startsWith('.') ? known : `.${known}`;
  const match = /\.[a-z0-9]{1,5}$/i.exec(document.originalFilename);
  return match ? match[0].toLowerCase() : '';
};

const typeLabel = (document: Pick<FamilyDocument, 'docType'>): string => (document.docType ? DOC_TYPE_LABELS[document.docType] : 'Document of undetected type');

const hasFile = (document: FamilyDocument): boolean =>
  Boolean(document.storageKey && document.storageDriver && document.wrappedKey && document.iv && document.authTag) &&
  document.purgedAt === null &&
  document.fileRemovedAt === null &&
  document.status !== 'processing';

const pick = (detail: Record<string, unknown>, keys: ReadonlySet<string>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(detail).filter(([key]) => keys.has(key)));

const counted = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;

const day = (at: Date | string | null): string => (at === null ? '—' : typeof at === 'string' ? at : at.toISOString().slice(0, 10));

/**
 * Whether the principal may act on the whole of this player: a person limited to some divisions may export or
 * erase a player only when every season of theirs is in those divisions, since either touches all of them.
 * A player with no season in sight is answered as one that does not exist, as the timeline does.
 */
function checkWholePlayerInScope(principal: TPrincipal, playerId: string, registrations: readonly Pick<FamilyRegistration, 'division'>[]): void {
  if (principal.divisions === null) return;
  const inScope = registrations.filter((row) => inDivisionScope(principal, row.division));
  if (inScope.length === 0) throw new AppError('NOT_FOUND', `Player ${playerId} does not exist.`);
  if (inScope.length < registrations.length) {
    throw new AppError('FORBIDDEN', 'This player is also registered in a division outside yours. Ask an admin of every division to do this.');
  }
}

export function createFamilyDataService(deps: FamilyDataDeps) {
  const now = deps.now ?? (() => new Date());

  /** Everything the database holds about the player, for the export. */
  async function gather(playerId: string) {
    const player = await findPlayerRow(deps.db, playerId);
    if (!player) return undefined;
    const [registrations, documents, notifications, uploadLinks] = await Promise.all([
      listRegistrationsOf(deps.db, playerId),
      listDocumentsOf(deps.db, playerId),
      listNotificationsOf(deps.db, playerId),
      listUploadLinksOf(deps.db, playerId),
    ]);
    const documentIds = documents.map((row) => row.id);
    const [readings, submissions] = await Promise.all([listReadingsOf(deps.db, documentIds), listSubmissionsOf(deps.db, playerId, documentIds)]);
    const events = await listAuditEventsOf(deps.db, { playerId, documentIds, submissionIds: submissions.map((row) => row.id) });
    return { player, registrations, documents, readings, submissions, notifications, uploadLinks, events };
  }
  type Gathered = NonNullable<Awaited<ReturnType<typeof gather>>>;

  /** Each stored file's name in the ZIP: its season and type, numbered when a season holds several of one type. */
  function fileNames(documents: readonly FamilyDocument[]): Map<string, string> {
    const names = new Map<string, string>();
    const used = new Map<string, number>();
    for (const document of documents.filter(hasFile)) {
      const base = safeName(`${document.seasonName} - ${typeLabel(document)}`);
      const n = (used.get(base) ?? 0) + 1;
      used.set(base, n);
      names.set(document.id, `documents/${n === 1 ? base : `${base} (${n})`}${extensionOf(document)}`);
    }
    return names;
  }

  async function readingTexts(readings: Gathered['readings']): Promise<Map<string, string>> {
    const texts = new Map<string, string>();
    for (const reading of readings) {
      const sealed = ZSealedSecret.safeParse(reading.text);
      if (sealed.success) texts.set(reading.documentId, await openSecret(deps.masterKey, sealed.data));
    }
    return texts;
  }

  function records(data: Gathered, files: Map<string, string>, texts: Map<string, string>, exportedAt: Date) {
    const { player } = data;
    return {
      exportedAt: exportedAt.toISOString(),
      player: {
        id: player.id,
        firstName: player.firstName,
        lastName: player.lastName,
        birthDate: player.birthDate,
        birthDateVerifiedAt: player.birthDateVerifiedAt,
        guardianName: player.guardianName,
        guardianEmail: player.guardianEmail,
        guardianPhone: player.guardianPhone,
        createdAt: player.createdAt,
        updatedAt: player.updatedAt,
      },
      registrations: data.registrations,
      documents: data.documents.map((document) => {
        const reading = data.readings.find((row) => row.documentId === document.id);
        return {
          id: document.id,
          season: document.seasonId,
          type: document.docType,
          originalFilename: document.originalFilename,
          fileInThisExport: files.get(document.id) ?? null,
          status: document.status,
          bytes: document.bytes,
          mime: document.mime,
          sha256: document.fileSha256,
          uploadedAt: document.uploadedAt,
          reviewedAt: document.reviewedAt,
          reviewedBy: document.reviewedBy,
          reviewNotes: document.reviewNotes,
          factBirthDate: document.factBirthDate,
          documentDate: document.documentDate,
          residencyGroup: document.residencyGroup,
          retainUntil: document.retainUntil,
          fileRemovedAfterRetentionAt: document.purgedAt,
          fileRemovedAfterVerificationAt: document.fileRemovedAt,
          submissionId: document.submissionId,
          reading: reading
            ? { state: reading.state, readable: reading.readable, method: reading.method, pages: reading.pages, readAt: reading.readAt, found: reading.extracted, text: texts.get(document.id) ?? null }
            : null,
        };
      }),
      submissions: data.submissions,
      notifications: data.notifications,
      uploadLinks: data.uploadLinks,
      auditEvents: data.events.map((event) => ({
        id: event.id,
        at: event.at,
        who: recordedActorName(event),
        action: event.action,
        what: summarizeActivity(event),
        about: { type: event.subjectType, id: event.subjectId },
        detail: pick(event.detail, EXPORTED_DETAIL),
      })),
    };
  }

  function summary(data: Gathered, files: Map<string, string>, texts: Map<string, string>, missing: readonly string[], exportedAt: Date): string {
    const { player } = data;
    const lines: string[] = [
      `Everything Clearbase holds about ${player.firstName} ${player.lastName}`,
      `Exported ${exportedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC. The same records, complete, are in records.json.`,
      '',
      'PLAYER',
      `  Player id: ${player.id}`,
      `  Name: ${player.firstName} ${player.lastName}`,
      `  Date of birth: ${player.birthDate}${player.birthDateVerifiedAt ? ' (verified from a birth certificate)' : ''}`,
      `  Guardian: ${player.guardianName ?? '—'}, e-mail ${player.guardianEmail ?? '—'}, phone ${player.guardianPhone ?? '—'}`,
      '',
      'REGISTRATIONS',
    ];
    for (const row of data.registrations) {
      lines.push(`  ${row.seasonName}, division ${row.division}, registered ${day(row.registeredAt)}`);
      lines.push(
        `    Birth certificate: ${PLAYER_DOC_STATUS_LABELS[row.birthCertificateStatus]}; Residency: ${PLAYER_DOC_STATUS_LABELS[row.residencyStatus]}; ` +
          `Medical: ${PLAYER_DOC_STATUS_LABELS[row.medicalStatus]}; Waiver: ${PLAYER_DOC_STATUS_LABELS[row.waiverStatus]}`,
      );
    }
    if (data.registrations.length === 0) lines.push('  None.');
    lines.push('', 'DOCUMENTS');
    for (const document of data.documents) {
      lines.push(`  ${document.seasonName}: ${typeLabel(document)}, received ${day(document.uploadedAt)} as "${document.originalFilename}", ${document.status}`);
      const file = files.get(document.id);
      if (file && !missing.includes(document.id)) lines.push(`    File: ${file}`);
      else if (document.purgedAt) lines.push(`    File: removed ${day(document.purgedAt)} at the end of its retention period`);
      else if (document.fileRemovedAt) lines.push(`    File: removed ${day(document.fileRemovedAt)} after it was verified`);
      else if (missing.includes(document.id)) lines.push('    File: could not be read from storage for this export; ask the league to look into it');
      else lines.push('    File: none kept (refused when it arrived, or still being processed)');
      if (document.reviewedAt) lines.push(`    Reviewed ${day(document.reviewedAt)} by ${document.reviewedBy ?? 'staff'}${document.reviewNotes ? `: ${document.reviewNotes}` : ''}`);
      const history = data.events.filter((event) => event.subjectType === 'document' && event.subjectId === document.id && event.action === 'document.status_changed');
      for (const event of history) lines.push(`    ${day(event.at)} ${recordedActorName(event)}: ${summarizeActivity(event)}`);
      const text = texts.get(document.id);
      if (text) lines.push('    Text read from it:', ...text.split('\n').map((line) => `      ${line}`));
    }
    if (data.documents.length === 0) lines.push('  None.');
    lines.push('', 'SUBMISSIONS (how documents and details came in)');
    for (const row of data.submissions) lines.push(`  ${day(row.receivedAt)} ${row.source}${row.fromEmail ? ` from ${row.fromEmail}` : ''}, ${row.attachmentCount} file(s), ${row.status}`);
    if (data.submissions.length === 0) lines.push('  None.');
    lines.push('', 'MESSAGES SENT ABOUT THE PLAYER');
    for (const row of data.notifications) lines.push(`  ${day(row.sentAt ?? row.createdAt)} ${row.type} to ${row.recipient}: "${row.subject}", ${row.status}`);
    if (data.notifications.length === 0) lines.push('  None.');
    lines.push('', 'UPLOAD LINKS ISSUED');
    for (const row of data.uploadLinks) {
      lines.push(`  ${day(row.createdAt)} by ${row.issuedBy}, for ${row.seasonId}, until ${day(row.expiresAt)}${row.revokedAt ? `, revoked ${day(row.revokedAt)}` : ''}`);
    }
    if (data.uploadLinks.length === 0) lines.push('  None.');
    lines.push('', 'ACTIVITY RECORDED ABOUT THE PLAYER AND THEIR DOCUMENTS');
    for (const event of data.events) lines.push(`  ${event.at.toISOString().slice(0, 16).replace('T', ' ')} ${recordedActorName(event)}: ${summarizeActivity(event)}`);
    if (data.events.length === 0) lines.push('  None.');
    return `${lines.join('\n')}\n`;
  }

  /**
   * The ZIP's entries in order: each stored file, then the records and the summary. The ZIP lists every entry
   * before it writes the first, so here a file is only looked for (a stat, a HEAD); it is read from storage and
   * decrypted when its turn comes, one at a time. A file storage does not have is left out and said in the
   * summary; one that fails while it is read ends the archive with the error.
   */
  async function* entries(data: Gathered, exportedAt: Date): AsyncGenerator<ZipEntry> {
    const files = fileNames(data.documents);
    const texts = await readingTexts(data.readings);
    const missing: string[] = [];
    for (const document of data.documents) {
      const name = files.get(document.id);
      const { storageDriver: driver, storageKey: key, wrappedKey, iv, authTag } = document;
      if (!name || !driver || !key || !wrappedKey || !iv || !authTag) continue;
      const there = await Promise.resolve()
        .then(() => deps.storageFor(driver).exists(key))
        .catch(() => false);
      if (!there) {
        missing.push(document.id);
        continue;
      }
      const open = async (): Promise<Readable> => {
        const ciphertext = await deps.storageFor(driver).get(key);
        const plaintext = ciphertext.pipe(createDecryptor(deps.masterKey, { wrappedKey, iv, authTag }));
        ciphertext.on('error', (error) => plaintext.destroy(error));
        return plaintext;
      };
      yield { name, modifiedAt: document.uploadedAt, level: 1, open };
    }
    const kept = new Map([...files].filter(([id]) => !missing.includes(id)));
    yield { name: 'records.json', modifiedAt: exportedAt, open: () => Promise.resolve(`${JSON.stringify(records(data, kept, texts, exportedAt), null, 2)}\n`) };
    yield { name: 'summary.txt', modifiedAt: exportedAt, open: () => Promise.resolve(summary(data, files, texts, missing, exportedAt)) };
  }

  return {
    /**
     * Everything held about one player as a ZIP, written while it is sent: their files decrypted, named by season
     * and type; records.json; summary.txt. Audited before the first byte leaves.
     */
    async exportPlayer(playerId: string, actor: Actor): Promise<{ filename: string; body: AsyncIterable<Buffer> }> {
      const data = await gather(playerId);
      if (!data) throw new AppError('NOT_FOUND', `Player ${playerId} does not exist.`);
      checkWholePlayerInScope(actor.principal, playerId, data.registrations);
      const exportedAt = now();
      await recordAuditEvent(deps.db, {
        actor: actor.principal,
        action: 'player.exported',
        subjectType: 'player',
        subjectId: playerId,
        detail: { documents: data.documents.length, files: data.documents.filter(hasFile).length, seasons: data.registrations.map((row) => row.seasonId) },
        requestId: actor.requestId,
      });
      return { filename: `clearbase-${playerId}-${exportedAt.toISOString().slice(0, 10)}.zip`, body: zipStream(entries(data, exportedAt)) };
    },

    /**
     * Erases the player: in one transaction every row about them, their audit events' personal detail, and a
     * `player.erased` record with the counts; with it a job that deletes their stored objects right after the
     * commit and retries until they are gone. The files are unreadable from the commit on, whatever the job
     * does: their data keys were in the document rows.
     */
    async erasePlayer(playerId: string, confirmName: string, actor: Actor): Promise<TErasedPlayer> {
      const result = await deps.db.transaction(async (tx) => {
        const player = await lockPlayer(tx, playerId);
        if (!player) throw new AppError('NOT_FOUND', `Player ${playerId} does not exist.`);
        const registrations = await listRegistrationsOf(tx, playerId);
        checkWholePlayerInScope(actor.principal, playerId, registrations);
        if (foldName(confirmName) !== foldName(`${player.firstName} ${player.lastName}`)) {
          throw new AppError('VALIDATION_FAILED', "The name typed is not the player's name. Nothing was erased.", [
            { path: 'body.confirmName', message: "does not match the player's first and last name" },
          ]);
        }
        const documents = await listDocumentsOf(tx, playerId);
        const documentIds = documents.map((row) => row.id);
        if ((await countRunningDocumentJobs(tx, documentIds)) > 0) {
          throw new AppError('CONFLICT', "One of the player's documents is being processed right now. Try again in a minute.");
        }
        const submissions = await listSubmissionsOf(tx, playerId, documentIds);
        const deliveries = await listDeliveriesOf(tx, playerId, submissions.map((row) => row.id));
        const counts = await eraseRows(tx, { playerId, documentIds, submissionIds: submissions.map((row) => row.id) }, ERASED_DETAIL_KEEPS);
        const objects = [
          ...documents.flatMap((row) => (row.storageKey && row.storageDriver ? [{ driver: row.storageDriver, key: row.storageKey }] : [])),
          ...documents.flatMap((row) => (row.stagedKey ? [{ driver: deps.storage.driver, key: row.stagedKey }] : [])),
          ...deliveries.flatMap((row) => (row.bodyKey ? [{ driver: deps.storage.driver, key: row.bodyKey }] : [])),
        ];
        if (objects.length > 0) await enqueueJob(tx, { queue: ERASE_FILES_QUEUE, payload: { objects }, maxAttempts: ERASE_FILES_ATTEMPTS });
        const tally = { ...counts, files: objects.length };
        await recordAuditEvent(tx, {
          actor: actor.principal,
          action: 'player.erased',
          subjectType: 'player',
          subjectId: playerId,
          detail: tally,
          requestId: actor.requestId,
        });
        return { tally, name: `${player.firstName} ${player.lastName}` };
      });
      if (result.tally.files > 0) deps.pokeJobs();
      const { tally } = result;
      return {
        playerId,
        registrations: tally.registrations,
        documents: tally.documents,
        files: tally.files,
        submissions: tally.submissions,
        notifications: tally.notifications,
        uploadLinks: tally.uploadLinks,
        auditEvents: tally.auditEvents,
        message: `${result.name} was erased: ${counted(tally.documents, 'document')} and ${counted(tally.registrations, 'registration')} removed.`,
      };
    },
  };
}
export type FamilyDataService = ReturnType<typeof createFamilyDataService>;

/**
 * Deletes an erased player's stored objects. Deleting one already gone is harmless, so a re-run is safe. The
 * objects not deleted yet stay in the payload for the next attempt (retried for a week, a failure logged
 * without its key, which names the child); once all are gone the payload is emptied.
 */
export function createEraseFilesHandler(deps: {
  db: Db;
  storageFor(driver: 'local' | 's3'): Storage;
  log: Logger;
}): JobHandler<{ objects: { driver: 'local' | 's3'; key: string }[] }> {
  return async ({ objects }, job) => {
    const left: typeof objects = [];
    for (const object of objects) {
      try {
        await deps.storageFor(object.driver).delete(object.key);
      } catch (error) {
        // The error's code only: its message may hold the path, which names the child.
        deps.log.error({ code: (error as NodeJS.ErrnoException).code ?? 'unknown', jobId: job.id }, 'could not delete a file of an erased player; it is tried again');
        left.push(object);
      }
    }
    // The folders that held them go too when empty: a player's folder is named after the child.
    for (const object of objects.filter((item) => !left.includes(item))) {
      const folder = object.key.includes('/') ? object.key.slice(0, object.key.lastIndexOf('/')) : '';
      if (folder) await deps.storageFor(object.driver).removeEmptyFolder?.(folder).catch(() => undefined);
    }
    await setEraseFilesLeft(deps.db, job.id, left);
    if (left.length === 0) return { kind: 'done' };
    return { kind: 'retry', reason: `${left.length} file(s) of an erased player could not be deleted yet`, delayMs: ERASE_FILES_RETRY_MS };
  };
}
