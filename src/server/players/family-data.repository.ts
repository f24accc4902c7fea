import { and, asc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../platform/db/client';
import {
  auditEvents,
  automaticReminders,
  documentReadings,
  documents,
  intakeDeliveries,
  jobs,
  notificationHistory,
  players,
  registrations,
  seasons,
  submissions,
  uploadLinks,
} from '../platform/db/schema';

/** The player's row, locked until the transaction ends: intake waits for an erasure, and two erasures for each other. */
export async function lockPlayer(db: Db, playerId: string) {
  const [row] = await db.select().from(players).where(eq(players.id, playerId)).for('update');
  return row;
}

export async function findPlayerRow(db: Db, playerId: string) {
  const [row] = await db.select().from(players).where(eq(players.id, playerId));
  return row;
}

/** Every registration of the player, oldest season first, with the season's name. */
export const listRegistrationsOf = (db: Db, playerId: string) =>
  db
    .select({
      seasonId: registrations.seasonId,
      seasonName: seasons.name,
      division: registrations.division,
      registeredAt: registrations.registeredAt,
      birthCertificateStatus: registrations.birthCertificateStatus,
      residencyStatus: registrations.residencyStatus,
      medicalStatus: registrations.medicalStatus,
      waiverStatus: registrations.waiverStatus,
      completedAt: registrations.completedAt,
      expiresOn: registrations.expiresOn,
    })
    .from(registrations)
    .innerJoin(seasons, eq(seasons.id, registrations.seasonId))
    .where(eq(registrations.playerId, playerId))
    .orderBy(asc(seasons.startsOn), asc(registrations.seasonId));
export type FamilyRegistration = Awaited<ReturnType<typeof listRegistrationsOf>>[number];

/** Every document of the player, each with what opening its file needs and its season's name, in upload order. */
export const listDocumentsOf = (db: Db, playerId: string) =>
  db
    .select({
      id: documents.id,
      seasonId: documents.seasonId,
      seasonName: seasons.name,
      submissionId: documents.submissionId,
      docType: documents.docType,
      originalFilename: documents.originalFilename,
      status: documents.status,
      bytes: documents.bytes,
      mime: documents.mime,
      fileSha256: documents.fileSha256,
      uploadedAt: documents.uploadedAt,
      reviewedAt: documents.reviewedAt,
      reviewedBy: documents.reviewedBy,
      reviewNotes: documents.reviewNotes,
      retainUntil: documents.retainUntil,
      purgedAt: documents.purgedAt,
      fileRemovedAt: documents.fileRemovedAt,
      factBirthDate: documents.factBirthDate,
      documentDate: documents.documentDate,
      residencyGroup: documents.residencyGroup,
      storageDriver: documents.storageDriver,
      storageKey: documents.storageKey,
      stagedKey: documents.stagedKey,
      wrappedKey: documents.wrappedKey,
      iv: documents.iv,
      authTag: documents.authTag,
    })
    .from(documents)
    .innerJoin(seasons, eq(seasons.id, documents.seasonId))
    .where(eq(documents.playerId, playerId))
    .orderBy(asc(documents.uploadedAt), asc(documents.id));
export type FamilyDocument = Awaited<ReturnType<typeof listDocumentsOf>>[number];

export const listReadingsOf = (db: Db, documentIds: readonly string[]) =>
  documentIds.length === 0
    ? Promise.resolve([])
    : db
        .select({
          documentId: documentReadings.documentId,
          state: documentReadings.state,
          text: documentReadings.text,
          extracted: documentReadings.extracted,
          readable: documentReadings.readable,
          method: documentReadings.method,
          pages: documentReadings.pages,
          readAt: documentReadings.readAt,
        })
        .from(documentReadings)
        .where(inArray(documentReadings.documentId, [...documentIds]));

/** The submissions that concern the player: those matched to them, and those that brought one of their documents. */
export const listSubmissionsOf = (db: Db, playerId: string, documentIds: readonly string[]) =>
  db
    .select({
      id: submissions.id,
      source: submissions.source,
      receivedAt: submissions.receivedAt,
      fromEmail: submissions.fromEmail,
      subject: submissions.subject,
      seasonId: submissions.seasonId,
      fields: submissions.fields,
      status: submissions.status,
      errorMessage: submissions.errorMessage,
      attachmentCount: submissions.attachmentCount,
    })
    .from(submissions)
    .where(ofPlayerOrDocuments(playerId, documentIds))
    .orderBy(asc(submissions.receivedAt), asc(submissions.id));

const ofPlayerOrDocuments = (playerId: string, documentIds: readonly string[]): SQL | undefined =>
  documentIds.length === 0
    ? eq(submissions.playerId, playerId)
    : or(eq(submissions.playerId, playerId), sql`${submissions.id} in (select ${documents.submissionId} from ${documents} where ${inArray(documents.id, [...documentIds])})`);

export const listNotificationsOf = (db: Db, playerId: string) =>
  db
    .select({
      id: notificationHistory.id,
      type: notificationHistory.type,
      recipient: notificationHistory.recipient,
      subject: notificationHistory.subject,
      body: notificationHistory.body,
      status: notificationHistory.status,
      seasonId: notificationHistory.seasonId,
      sentAt: notificationHistory.sentAt,
      createdAt: notificationHistory.createdAt,
      errorMessage: notificationHistory.errorMessage,
    })
    .from(notificationHistory)
    .where(eq(notificationHistory.playerId, playerId))
    .orderBy(asc(notificationHistory.createdAt), asc(notificationHistory.id));

/** The upload links issued for the player: when, by whom, until when; never the token's hash. */
export const listUploadLinksOf = (db: Db, playerId: string) =>
  db
    .select({
      id: uploadLinks.id,
      seasonId: uploadLinks.seasonId,
      issuedBy: uploadLinks.issuedBy,
      createdAt: uploadLinks.createdAt,
      expiresAt: uploadLinks.expiresAt,
      revokedAt: uploadLinks.revokedAt,
      lastUsedAt: uploadLinks.lastUsedAt,
    })
    .from(uploadLinks)
    .where(eq(uploadLinks.playerId, playerId))
    .orderBy(asc(uploadLinks.createdAt), asc(uploadLinks.id));

/** The audit events about the player, their documents and the submissions that concern them, oldest first. */
export const listAuditEventsOf = (db: Db, subjects: FamilySubjects) =>
  db.select().from(auditEvents).where(aboutSubjects(subjects)).orderBy(asc(auditEvents.id));

export type FamilySubjects = { playerId: string; documentIds: readonly string[]; submissionIds: readonly string[] };

const aboutSubjects = ({ playerId, documentIds, submissionIds }: FamilySubjects): SQL | undefined =>
  or(
    and(eq(auditEvents.subjectType, 'player'), eq(auditEvents.subjectId, playerId)),
    documentIds.length === 0 ? undefined : and(eq(auditEvents.subjectType, 'document'), inArray(auditEvents.subjectId, [...documentIds])),
    submissionIds.length === 0 ? undefined : and(eq(auditEvents.subjectType, 'submission'), inArray(auditEvents.subjectId, [...submissionIds])),
  );

/** Form-builder deliveries that brought the player's data: matched to them, or to a submission that concerns them. */
export const listDeliveriesOf = (db: Db, playerId: string, submissionIds: readonly string[]) =>
  db
    .select({ id: intakeDeliveries.id, bodyKey: intakeDeliveries.bodyKey })
    .from(intakeDeliveries)
    .where(or(eq(intakeDeliveries.playerId, playerId), submissionIds.length === 0 ? undefined : inArray(intakeDeliveries.submissionId, [...submissionIds])));

/** The queues whose jobs name one document in `documentId`. */
const DOCUMENT_QUEUES = ['process-document', 'read-document'];

/**
 * How many jobs about these documents a worker is running right now. The others are locked until the
 * transaction ends: a worker claims with SKIP LOCKED, so none of them starts while the erasure deletes them.
 */
export async function countRunningDocumentJobs(db: Db, documentIds: readonly string[]): Promise<number> {
  if (documentIds.length === 0) return 0;
  const rows = await db
    .select({ status: jobs.status })
    .from(jobs)
    .where(and(inArray(jobs.queue, DOCUMENT_QUEUES), inArray(sql`${jobs.payload} ->> 'documentId'`, [...documentIds])))
    .for('update');
  return rows.filter((row) => row.status === 'running').length;
}

/**
 * Removes what the job queue holds about the player: the jobs of their documents and submissions, and, from a
 * queued or finished send, the messages about them (by their history rows, or an upload link for them); a send
 * left with no message is removed whole.
 */
export async function removeJobsAbout(db: Db, subjects: FamilySubjects, historyIds: readonly string[]): Promise<void> {
  const { playerId, documentIds, submissionIds } = subjects;
  if (documentIds.length > 0) {
    await db.delete(jobs).where(and(inArray(jobs.queue, DOCUMENT_QUEUES), inArray(sql`${jobs.payload} ->> 'documentId'`, [...documentIds])));
  }
  if (submissionIds.length > 0) {
    await db.delete(jobs).where(and(eq(jobs.queue, 'refused-files-notice'), inArray(sql`${jobs.payload} ->> 'submissionId'`, [...submissionIds])));
  }
  const ids = sql`array[${sql.join([...historyIds, ''].map((id) => sql`${id}`), sql`, `)}]::text[]`;
  const aboutPlayer = sql`(m ->> 'historyId' = any(${ids}) or exists (select 1 from jsonb_array_elements(coalesce(m -> 'links', '[]'::jsonb)) l where l ->> 'playerId' = ${playerId}))`;
  await db
    .update(jobs)
    .set({
      payload: sql`jsonb_set(${jobs.payload}, '{messages}', (select coalesce(jsonb_agg(m), '[]'::jsonb) from jsonb_array_elements(${jobs.payload} -> 'messages') m where not ${aboutPlayer}))`,
    })
    .where(and(eq(jobs.queue, 'notification-send'), sql`exists (select 1 from jsonb_array_elements(${jobs.payload} -> 'messages') m where ${aboutPlayer})`));
  await db.delete(jobs).where(and(eq(jobs.queue, 'notification-send'), sql`jsonb_array_length(${jobs.payload} -> 'messages') = 0`));
}

/**
 * The database half of an erasure, in the caller's transaction: every row about the player goes, the
 * submissions that concern them keep only where they came from (so the same delivery is not recorded again),
 * and their audit events keep ids, times, actors and actions with a detail stripped to what names no one.
 * Documents go before registrations and registrations before the player, so the triggers keep every season's
 * totals and breakdown as they would for any other removal.
 */
export async function eraseRows(
  db: Db,
  subjects: FamilySubjects,
  keepDetail: readonly string[],
): Promise<{ registrations: number; documents: number; submissions: number; notifications: number; uploadLinks: number; auditEvents: number; deliveries: number }> {
  const { playerId, submissionIds } = subjects;
  const historyIds = (await db.select({ id: notificationHistory.id }).from(notificationHistory).where(eq(notificationHistory.playerId, playerId))).map((row) => row.id);
  await removeJobsAbout(db, subjects, historyIds);

  const deletedDocuments = await db.delete(documents).where(eq(documents.playerId, playerId)).returning({ id: documents.id });
  const deletedNotifications = await db.delete(notificationHistory).where(eq(notificationHistory.playerId, playerId)).returning({ id: notificationHistory.id });
  // A reminder to a family of several children keeps the others; one about this child alone goes.
  await db
    .update(automaticReminders)
    .set({ playerIds: sql`(select coalesce(jsonb_agg(p), '[]'::jsonb) from jsonb_array_elements(${automaticReminders.playerIds}) p where p #>> '{}' <> ${playerId})` })
    .where(sql`${automaticReminders.playerIds} @> ${JSON.stringify([playerId])}::jsonb`);
  await db.delete(automaticReminders).where(sql`jsonb_array_length(${automaticReminders.playerIds}) = 0`);
  const deletedDeliveries = await db
    .delete(intakeDeliveries)
    .where(or(eq(intakeDeliveries.playerId, playerId), submissionIds.length === 0 ? undefined : inArray(intakeDeliveries.submissionId, [...submissionIds])))
    .returning({ id: intakeDeliveries.id });
  const scrubbed =
    submissionIds.length === 0
      ? []
      : await db
          .update(submissions)
          .set({ fields: {}, fromEmail: null, subject: null, errorMessage: null, playerId: null, uploadLinkId: null })
          .where(inArray(submissions.id, [...submissionIds]))
          .returning({ id: submissions.id });
  const deletedLinks = await db.delete(uploadLinks).where(eq(uploadLinks.playerId, playerId)).returning({ id: uploadLinks.id });
  const deletedRegistrations = await db.delete(registrations).where(eq(registrations.playerId, playerId)).returning({ seasonId: registrations.seasonId });
  const kept = sql`array[${sql.join(keepDetail.map((key) => sql`${key}`), sql`, `)}]::text[]`;
  const strippedEvents = await db
    .update(auditEvents)
    .set({
      detail: sql`(select coalesce(jsonb_object_agg(key, value), '{}'::jsonb) from jsonb_each(${auditEvents.detail}) where key = any(${kept})) || '{"erased": true}'::jsonb`,
    })
    .where(aboutSubjects(subjects))
    .returning({ id: auditEvents.id });
  await db.delete(players).where(eq(players.id, playerId));
  return {
    registrations: deletedRegistrations.length,
    documents: deletedDocuments.length,
    submissions: scrubbed.length,
    notifications: deletedNotifications.length,
    uploadLinks: deletedLinks.length,
    auditEvents: strippedEvents.length,
    deliveries: deletedDeliveries.length,
  };
}

/** Rewrites an erase-files job's payload: the objects still to delete, or none once it is done. */
export async function setEraseFilesLeft(db: Db, jobId: number, objects: readonly { driver: 'local' | 's3'; key: string }[]): Promise<void> {
  await db.update(jobs).set({ payload: { objects: [...objects] } }).where(eq(jobs.id, jobId));
}
