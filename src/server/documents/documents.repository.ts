import { and, asc, count, desc, eq, inArray, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { TDivision, TDocType, TDocumentStatus, TSubmissionSource } from '../../contract';
import type { Db } from '../platform/db/client';
import { insertInBatches } from '../platform/db/batch';
import { cappedCountQuery, countCapped, LIST_COUNT_CAP, type ListTotal } from '../platform/db/capped-count';
import { registrationInDivisions, scopeValues, type DivisionScope } from '../platform/db/division-scope';
import { preparedRead, type Preparable } from '../platform/db/prepared';
import { containsPattern, foldedContains } from '../platform/db/search';
import { documentsHoldingWords } from '../reading';
import { auditEvents, documents, players, registrations, seasonRequirements, seasons, submissions } from '../platform/db/schema';

export type DocumentRow = typeof documents.$inferSelect;
export type NewDocument = typeof documents.$inferInsert;

export const insertDocuments = (db: Db, rows: readonly NewDocument[]) => insertInBatches(db, documents, rows, 500);

export async function countDocuments(db: Db, status?: TDocumentStatus): Promise<number> {
  const query = db.select({ n: count() }).from(documents);
  const [row] = await (status ? query.where(eq(documents.status, status)) : query);
  return row?.n ?? 0;
}

export async function insertDocument(db: Db, row: NewDocument): Promise<DocumentRow> {
  const [inserted] = await db.insert(documents).values(row).returning();
  if (!inserted) throw new Error('document insert returned nothing');
  return inserted;
}

export async function findDocument(db: Db, id: string): Promise<DocumentRow | undefined> {
  const [row] = await db.select().from(documents).where(eq(documents.id, id));
  return row;
}

/** The live (not rejected, not purged) document holding this exact file for this player and season. */
export async function findSameFile(
  db: Db,
  key: { playerId: string; seasonId: string; fileSha256: string },
): Promise<DocumentRow | undefined> {
  const [row] = await db
    .select()
    .from(documents)
    .where(
      and(
        eq(documents.playerId, key.playerId),
        eq(documents.seasonId, key.seasonId),
        eq(documents.fileSha256, key.fileSha256),
        ne(documents.status, 'rejected'),
        isNull(documents.purgedAt),
      ),
    );
  return row;
}

export const listDocumentsOfSubmission = (db: Db, submissionId: string): Promise<DocumentRow[]> =>
  db.select().from(documents).where(eq(documents.submissionId, submissionId)).orderBy(asc(documents.createdAt), asc(documents.id));

export type PipelineDocument = {
  document: DocumentRow;
  player: { id: string; firstName: string; lastName: string; birthDate: string };
  seasonYear: number;
  division: (typeof registrations.$inferSelect)['division'];
  /** Files of the document's submission (1 for most forms), or null for a document without one. */
  submissionFiles: number | null;
};

/**
 * Everything the pipeline needs about a document in one round trip: the row, its player, its season's year,
 * the player's division that season, and how many files its submission has.
 */
export async function findDocumentForPipeline(db: Db, id: string): Promise<PipelineDocument | undefined> {
  const [row] = await db
    .select({
      document: documents,
      player: { id: players.id, firstName: players.firstName, lastName: players.lastName, birthDate: players.birthDate },
      seasonYear: seasons.year,
      division: registrations.division,
      submissionFiles: submissions.attachmentCount,
    })
    .from(documents)
    .innerJoin(players, eq(players.id, documents.playerId))
    .innerJoin(seasons, eq(seasons.id, documents.seasonId))
    .innerJoin(registrations, and(eq(registrations.playerId, documents.playerId), eq(registrations.seasonId, documents.seasonId)))
    .leftJoin(submissions, eq(submissions.id, documents.submissionId))
    .where(eq(documents.id, id));
  return row;
}

export async function updateDocument(db: Db, id: string, changes: Partial<NewDocument>): Promise<void> {
  await db.update(documents).set(changes).where(eq(documents.id, id));
}

export type UploadRow = {
  id: string;
  originalFilename: string;
  playerId: string;
  firstName: string;
  lastName: string;
  docType: DocumentRow['docType'];
  status: DocumentRow['status'];
  uploadedAt: Date;
  bytes: number;
  fileSha256: string | null;
  scanFailedAt: Date | null;
};

/** A document as the upload lists show it, with its player's name (documents joined to players). */
const uploadColumns = {
  id: documents.id,
  originalFilename: documents.originalFilename,
  playerId: documents.playerId,
  firstName: players.firstName,
  lastName: players.lastName,
  docType: documents.docType,
  status: documents.status,
  uploadedAt: documents.uploadedAt,
  bytes: documents.bytes,
  fileSha256: documents.fileSha256,
  scanFailedAt: documents.scanFailedAt,
};

/** A document's registration: its player's for its season (none when the player is not registered for it). */
const registrationOfDocument = and(eq(registrations.playerId, documents.playerId), eq(registrations.seasonId, documents.seasonId));

/** A document is in a scope when its player's registration for its season is (division-scope.ts). */
const documentInDivisions = (scope: DivisionScope | 'placeholder') => registrationInDivisions(documents.playerId, documents.seasonId, scope);

/**
 * Newest first, with the player's name; purged tombstones are left out; all seasons or one; every division
 * or those of `scope`. A prepared read (prepared.ts): the limit, season and divisions are placeholders;
 * `recentUploadsRead.statement(db, …)` is the very statement, for the scale bench.
 */
export const recentUploadsRead = preparedRead('recent_uploads', (limit: number, seasonId?: string, scope: DivisionScope = null) => ({
  shape: `${seasonId === undefined ? 'all' : 'season'}${scope === null ? '' : ':scoped'}`,
  values: { limit, ...(seasonId === undefined ? {} : { seasonId }), ...scopeValues(scope) },
  build: (db: Db): Preparable<UploadRow[]> =>
    db
      .select(uploadColumns)
      .from(documents)
      .innerJoin(players, eq(players.id, documents.playerId))
      .where(
        and(
          isNull(documents.purgedAt),
          seasonId === undefined ? undefined : eq(documents.seasonId, sql.placeholder('seasonId')),
          scope === null ? undefined : documentInDivisions('placeholder'),
        ),
      )
      .orderBy(desc(documents.uploadedAt), desc(documents.id))
      .limit(sql.placeholder('limit')),
}));

export const listRecentUploads = (db: Db, limit: number, seasonId?: string, scope: DivisionScope = null): Promise<UploadRow[]> =>
  recentUploadsRead.run(db, limit, seasonId, scope);

/** What the Documents screen filters on; every field left out matches everything. */
export type DocumentListFilter = {
  /** A substring of the player's full name ('First Last') or of the original file name, ignoring case and accents. */
  search?: string;
  /**
   * With `search`, for staff who may open files: the keyed hashes of its words (the reading module's word index);
   * a document whose text holds them all matches too. Empty or left out: names and file names only.
   */
  searchWordHashes?: readonly string[];
  /** `oldest`: oldest first (the review queue); else newest first. */
  sort?: 'newest' | 'oldest';
  /** `scan_failed`: documents still processing whose virus scan keeps failing (shown as 'Scan failed, will retry'). */
  status?: TDocumentStatus | 'scan_failed';
  /** `undetected`: the pipeline could not tell the type (doc_type is null). */
  docType?: TDocType | 'undetected';
  seasonId?: string;
  /** Only documents whose registration is in these divisions; left out (or null), every document. */
  scope?: DivisionScope;
};

/** A document the pipeline still holds whose virus scan keeps failing: it waits for a scan, retried automatically. */
const awaitingFailedScan = and(eq(documents.status, 'processing'), sql`${documents.scanFailedAt} is not null`);

/**
 * How many documents wait for a virus scan that failed, and how many of those have been failing since before
 * `retriesStoppedBefore` (their automatic retries have ended; staff must press Retry).
 */
export async function countDocumentsAwaitingFailedScan(db: Db, retriesStoppedBefore: Date): Promise<{ waiting: number; stopped: number }> {
  const [row] = await db
    .select({
      waiting: count(),
      stopped: sql<number>`(count(*) filter (where ${documents.scanFirstFailedAt} <= ${retriesStoppedBefore}))::int`,
    })
    .from(documents)
    .where(awaitingFailedScan);
  return { waiting: row?.waiting ?? 0, stopped: row?.stopped ?? 0 };
}

/** The document, locked until the transaction ends, with what a retry of its virus scan checks. */
export async function lockDocumentForScanRetry(
  db: Db,
  id: string,
): Promise<{ id: string; status: TDocumentStatus; scanFailedAt: Date | null; division: TDivision | null } | undefined> {
  const [row] = await db
    .select({ id: documents.id, status: documents.status, scanFailedAt: documents.scanFailedAt, division: registrations.division })
    .from(documents)
    .leftJoin(registrations, registrationOfDocument)
    .where(eq(documents.id, id))
    .for('update', { of: documents });
  return row;
}

function documentListWhere(db: Db, filter: DocumentListFilter): SQL | undefined {
  const pattern = filter.search ? containsPattern(filter.search) : undefined;
  return and(
    filter.status === 'scan_failed' ? awaitingFailedScan : filter.status ? eq(documents.status, filter.status) : undefined,
    filter.docType === 'undetected' ? isNull(documents.docType) : filter.docType ? eq(documents.docType, filter.docType) : undefined,
    filter.seasonId ? eq(documents.seasonId, filter.seasonId) : undefined,
    documentInDivisions(filter.scope ?? null),
    pattern
      ? or(
          foldedContains(documents.originalFilename, pattern),
          // The matching players first, then their documents, not a join: the count never touches players
          // otherwise. As an array, both sides of the `or` are index lookups (the trigram index on file names,
          // the player's documents by player id), combined without reading every document.
          sql`${documents.playerId} = any(array(${db
            .select({ id: players.id })
            .from(players)
            .where(foldedContains(sql`${players.firstName} || ' ' || ${players.lastName}`, pattern))}))`,
          filter.searchWordHashes && filter.searchWordHashes.length > 0
            ? sql`${documents.id} = any(array(${documentsHoldingWords(db, filter.searchWordHashes)}))`
            : undefined,
        )
      : undefined,
  );
}

/**
 * Whether the document's file was ever opened: every read of it (the viewer's and a download, both through
 * GET /api/documents/{id}/file) leaves a 'document.downloaded' audit event, found by the audit subject index.
 * A scalar subquery with a limit, not `exists`: the planner may turn an `exists` into one hash of every
 * download ever recorded, built before the page's first row (planned for every matching document, not the
 * page's hundred), which cost the review queue about 60 ms at 50,000 players.
 */
const documentOpened = sql<boolean>`coalesce((select true from ${auditEvents} where ${auditEvents.subjectType} = 'document' and ${auditEvents.subjectId} = ${documents.id}::text and ${auditEvents.action} = 'document.downloaded' limit 1), false)`;

/**
 * One page of the Documents screen, newest first (uploaded_at, then id, descending), with the player's
 * name and division that season. Purged tombstones are listed (what existed); `storageDriver` is null
 * when no object is stored. The builder, so the benchmark can run its SQL; awaiting it runs it.
 */
export const documentListPageQuery = (db: Db, filter: DocumentListFilter, page: { limit: number; offset: number }) =>
  db
    .select({
      ...uploadColumns,
      division: registrations.division,
      reviewNotes: documents.reviewNotes,
      opened: documentOpened,
      fileRemoved: sql<boolean>`${documents.fileRemovedAt} is not null`,
      storageDriver: sql<'local' | 's3' | null>`case when ${documents.storageKey} is not null and ${documents.purgedAt} is null then ${documents.storageDriver} end`,
    })
    .from(documents)
    .innerJoin(players, eq(players.id, documents.playerId))
    .leftJoin(registrations, registrationOfDocument)
    .where(documentListWhere(db, filter))
    .orderBy(...(filter.sort === 'oldest' ? [asc(documents.uploadedAt), asc(documents.id)] : [desc(documents.uploadedAt), desc(documents.id)]))
    .limit(page.limit)
    .offset(page.offset);

export type DocumentListRow = Awaited<ReturnType<typeof documentListPageQuery>>[number];

/** How far the Documents screen's total is counted exactly before it is estimated (decision 033). */
export const DOCUMENT_LIST_COUNT_CAP = LIST_COUNT_CAP;

/** How many documents match `filter`, every page together, counted exactly whatever the number. */
export const documentListCountQuery = (db: Db, filter: DocumentListFilter) =>
  db.select({ n: count() }).from(documents).where(documentListWhere(db, filter));

/** Every document matching `filter`, as a column of 1s: the rows the capped count reads and the estimate plans. */
export const documentListMatchQuery = (db: Db, filter: DocumentListFilter) =>
  db.select({ one: sql`1` }).from(documents).where(documentListWhere(db, filter)).$dynamic();

/** The capped count of the documents matching `filter` (cappedCountQuery); the builder, for the benchmark. */
export const documentListCappedCountQuery = (db: Db, filter: DocumentListFilter, cap: number = DOCUMENT_LIST_COUNT_CAP) =>
  cappedCountQuery(db, documentListMatchQuery(db, filter), cap);

/** The Documents screen's total: exact, or the planner's estimate when more match than the exact count goes to. */
export type DocumentListTotal = ListTotal;

/** How many documents match `filter`: exact up to `cap`; past it, the planner's estimate (countCapped). */
export const countDocumentList = (db: Db, filter: DocumentListFilter, cap: number = DOCUMENT_LIST_COUNT_CAP): Promise<DocumentListTotal> =>
  countCapped(db, () => documentListMatchQuery(db, filter), cap);

/**
 * The status and division of each listed document that exists, locked until the transaction ends, so a
 * review decision is taken on the status it was checked against (two reviewers cannot both move the same
 * document). Only the documents are locked, not their registrations.
 */
export const lockDocumentsForReview = (
  db: Db,
  ids: readonly string[],
): Promise<
  Array<{ id: string; status: TDocumentStatus; division: TDivision | null; purgedAt: Date | null; docType: TDocType | null; playerId: string; seasonId: string }>
> =>
  ids.length === 0
    ? Promise.resolve([])
    : db
        .select({
          id: documents.id,
          status: documents.status,
          division: registrations.division,
          purgedAt: documents.purgedAt,
          docType: documents.docType,
          playerId: documents.playerId,
          seasonId: documents.seasonId,
        })
        .from(documents)
        .leftJoin(registrations, registrationOfDocument)
        .where(inArray(documents.id, [...ids]))
        .orderBy(asc(documents.id))
        .for('update', { of: documents });

/**
 * The same review decision for many documents, in one statement: who made it (null when a reopen clears it)
 * and the facts it recorded (left as they are when not given).
 */
export async function setReviewDecision(
  db: Db,
  ids: readonly string[],
  decision: {
    status: TDocumentStatus;
    reviewNotes: string | null;
    reviewedAt: Date | null;
    reviewedBy: string | null;
    factBirthDate?: string | null;
    documentDate?: string | null;
    residencyGroup?: string | null;
  },
): Promise<void> {
  if (ids.length === 0) return;
  await db.update(documents).set(decision).where(inArray(documents.id, [...ids]));
}

/** The groups the season's residency rule lists (empty when it lists none, or the season has no rule yet). */
export async function findResidencyGroups(db: Db, seasonId: string): Promise<string[]> {
  const [row] = await db
    .select({ groups: seasonRequirements.groups })
    .from(seasonRequirements)
    .where(and(eq(seasonRequirements.seasonId, seasonId), eq(seasonRequirements.docType, 'residency')));
  return row?.groups ?? [];
}

export async function findDocumentWithGuardian(
  db: Db,
  id: string,
): Promise<(DocumentRow & { guardianEmail: string | null; guardianPhone: string | null; playerName: string; division: TDivision | null }) | undefined> {
  const [row] = await db
    .select({
      document: documents,
      guardianEmail: players.guardianEmail,
      guardianPhone: players.guardianPhone,
      firstName: players.firstName,
      lastName: players.lastName,
      division: registrations.division,
    })
    .from(documents)
    .innerJoin(players, eq(players.id, documents.playerId))
    .leftJoin(registrations, registrationOfDocument)
    .where(eq(documents.id, id));
  return (
    row && {
      ...row.document,
      guardianEmail: row.guardianEmail,
      guardianPhone: row.guardianPhone,
      playerName: `${row.firstName} ${row.lastName}`,
      division: row.division,
    }
  );
}

/** The document and the division of its registration (null when the player is not registered for its season). */
export async function findDocumentWithDivision(db: Db, id: string): Promise<(DocumentRow & { division: TDivision | null }) | undefined> {
  const [row] = await db.select({ document: documents, division: registrations.division }).from(documents).leftJoin(registrations, registrationOfDocument).where(eq(documents.id, id));
  return row && { ...row.document, division: row.division };
}

export const findDocumentsByIds = (db: Db, ids: readonly string[]): Promise<Array<DocumentRow & { division: TDivision | null }>> =>
  ids.length === 0
    ? Promise.resolve([])
    : db
        .select({ document: documents, division: registrations.division })
        .from(documents)
        .leftJoin(registrations, registrationOfDocument)
        .where(inArray(documents.id, [...ids]))
        .then((rows) => rows.map((row) => ({ ...row.document, division: row.division })));

/** A document of a player's timeline: what was received, how it came in, and its review as the row keeps it. */
export type PlayerTimelineDocumentRow = {
  id: string;
  seasonId: string;
  docType: TDocType | null;
  originalFilename: string;
  mime: string | null;
  status: TDocumentStatus;
  uploadedAt: Date;
  reviewedAt: Date | null;
  reviewNotes: string | null;
  /** The submission's channel; null for a document that came with no submission. */
  source: TSubmissionSource | null;
};

/** Every document of the player in the given seasons, newest first, with the channel of the submission it came with. */
export const listPlayerTimelineDocuments = (db: Db, playerId: string, seasonIds: readonly string[]): Promise<PlayerTimelineDocumentRow[]> =>
  seasonIds.length === 0
    ? Promise.resolve([])
    : db
        .select({
          id: documents.id,
          seasonId: documents.seasonId,
          docType: documents.docType,
          originalFilename: documents.originalFilename,
          mime: documents.mime,
          status: documents.status,
          uploadedAt: documents.uploadedAt,
          reviewedAt: documents.reviewedAt,
          reviewNotes: documents.reviewNotes,
          source: submissions.source,
        })
        .from(documents)
        .leftJoin(submissions, eq(submissions.id, documents.submissionId))
        .where(and(eq(documents.playerId, playerId), inArray(documents.seasonId, [...seasonIds])))
        .orderBy(desc(documents.uploadedAt), desc(documents.id));
