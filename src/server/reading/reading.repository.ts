import { and, eq, sql } from 'drizzle-orm';
import { ZExtracted, type TDivision, type TDocType, type TExtracted, type TReadingState } from '../../contract';
import type { Db } from '../platform/db/client';
import { insertInBatches } from '../platform/db/batch';
import { documentReadings, documents, jobs, players, registrations } from '../platform/db/schema';
import { enqueueJob } from '../platform/jobs/jobs.repository';
import type { SealedSecret } from '../platform/crypto/secret-box';
import type { ReadMethod } from './types';

/** The queue whose jobs read a stored document; it has a lane of its own, so reading never holds up the pipeline. */
export const READ_DOCUMENT_QUEUE = 'read-document';

/**
 * Called in the transaction that records a stored document: with reading on, its reading waits in the reading
 * queue; with reading off, it is recorded as not read, and is not read later.
 */
export async function queueReading(db: Db, documentId: string, readingOn: boolean): Promise<void> {
  await db
    .insert(documentReadings)
    .values({ documentId, state: readingOn ? 'waiting' : 'off' })
    .onConflictDoUpdate({ target: documentReadings.documentId, set: { state: readingOn ? 'waiting' : 'off', failure: null } });
  if (readingOn) await enqueueJob(db, { queue: READ_DOCUMENT_QUEUE, payload: { documentId }, maxAttempts: 3 });
}

/** Queues the reading of many stored documents at once (the demo's documents under review), in batches. */
export async function queueReadings(db: Db, documentIds: readonly string[]): Promise<void> {
  await insertInBatches(
    db,
    documentReadings,
    documentIds.map((documentId) => ({ documentId, state: 'waiting' as const })),
    1_000,
  );
  await insertInBatches(
    db,
    jobs,
    documentIds.map((documentId) => ({ queue: READ_DOCUMENT_QUEUE, payload: { documentId }, maxAttempts: 3 })),
    1_000,
  );
}

/** What the reading job needs of a document: where its file is and how it is sealed, and what is known of it. */
export type ReadingWork = {
  state: TReadingState;
  docType: TDocType | null;
  mime: string | null;
  storageDriver: 'local' | 's3' | null;
  storageKey: string | null;
  wrappedKey: Buffer | null;
  iv: Buffer | null;
  authTag: Buffer | null;
  /** The file was deleted (past retention, or removed after verification). */
  fileGone: boolean;
  /** Its registration's division, for the live event that tells open screens it was read. */
  division: TDivision | null;
};

export async function findReadingWork(db: Db, documentId: string): Promise<ReadingWork | undefined> {
  const [row] = await db
    .select({
      state: documentReadings.state,
      docType: documents.docType,
      mime: documents.mime,
      storageDriver: documents.storageDriver,
      storageKey: documents.storageKey,
      wrappedKey: documents.wrappedKey,
      iv: documents.iv,
      authTag: documents.authTag,
      fileGone: sql<boolean>`(${documents.purgedAt} is not null or ${documents.fileRemovedAt} is not null)`,
      division: registrations.division,
    })
    .from(documentReadings)
    .innerJoin(documents, eq(documents.id, documentReadings.documentId))
    .leftJoin(registrations, and(eq(registrations.playerId, documents.playerId), eq(registrations.seasonId, documents.seasonId)))
    .where(eq(documentReadings.documentId, documentId));
  return row;
}

export type ReadingFound = {
  text: SealedSecret;
  wordHashes: string[];
  extracted: TExtracted;
  readable: boolean;
  method: ReadMethod;
  seconds: number;
  pages: number;
  readAt: Date;
};

/** Records what was read, unless the reading stopped waiting meanwhile (the file was removed): then false. */
export async function saveReading(db: Db, documentId: string, found: ReadingFound): Promise<boolean> {
  const saved = await db
    .update(documentReadings)
    .set({ state: 'done', ...found, failure: null })
    .where(and(eq(documentReadings.documentId, documentId), eq(documentReadings.state, 'waiting')))
    .returning({ documentId: documentReadings.documentId });
  return saved.length > 0;
}

/** The document could not be read: `failure` says why, for staff. */
export async function failReading(db: Db, documentId: string, failure: string, readAt: Date): Promise<void> {
  await db
    .update(documentReadings)
    .set({ state: 'failed', failure, readAt })
    .where(and(eq(documentReadings.documentId, documentId), eq(documentReadings.state, 'waiting')));
}

/** The file is deleted, and its text with it: the sealed text, the word index and the extracted facts. */
export async function removeReading(db: Db, documentId: string): Promise<void> {
  await db
    .update(documentReadings)
    .set({ state: 'removed', text: null, wordHashes: [], extracted: null, readable: null, failure: null })
    .where(eq(documentReadings.documentId, documentId));
}

/** The type the content gave an undetected document still under review; false when it has one already. */
export async function setTypeFromContent(db: Db, documentId: string, docType: TDocType): Promise<boolean> {
  const set = await db
    .update(documents)
    .set({ docType })
    .where(and(eq(documents.id, documentId), sql`${documents.docType} is null`, eq(documents.status, 'pending')))
    .returning({ id: documents.id });
  return set.length > 0;
}

/** A document's reading with what its checks compare against: the registration and the declared type. */
export type ReadingOfDocument = {
  state: TReadingState;
  method: ReadMethod | null;
  readAt: Date | null;
  extracted: TExtracted | null;
  readable: boolean | null;
  docType: TDocType | null;
  player: { firstName: string; lastName: string; birthDate: string };
};

export async function findReadingOfDocument(db: Db, documentId: string): Promise<ReadingOfDocument | undefined> {
  const [row] = await db
    .select({
      state: documentReadings.state,
      method: documentReadings.method,
      readAt: documentReadings.readAt,
      extracted: documentReadings.extracted,
      readable: documentReadings.readable,
      docType: documents.docType,
      firstName: players.firstName,
      lastName: players.lastName,
      birthDate: players.birthDate,
    })
    .from(documentReadings)
    .innerJoin(documents, eq(documents.id, documentReadings.documentId))
    .innerJoin(players, eq(players.id, documents.playerId))
    .where(eq(documentReadings.documentId, documentId));
  if (!row) return undefined;
  const extracted = ZExtracted.safeParse(row.extracted);
  return {
    state: row.state,
    method: row.method === 'pdf-text' || row.method === 'ocr' ? row.method : null,
    readAt: row.readAt,
    extracted: extracted.success ? extracted.data : null,
    readable: row.readable,
    docType: row.docType,
    player: { firstName: row.firstName, lastName: row.lastName, birthDate: row.birthDate },
  };
}

/** Documents whose text holds every one of `hashes` (the word index's GIN index serves it). */
export const documentsHoldingWords = (db: Db, hashes: readonly string[]) =>
  db
    .select({ id: documentReadings.documentId })
    .from(documentReadings)
    .where(sql`${documentReadings.wordHashes} @> array[${sql.join(
      hashes.map((hash) => sql`${hash}`),
      sql`, `,
    )}]::text[]`);
