import { z } from 'zod';
import {
  AUDIT_ACTOR_NAMES,
  DOC_TYPE_LABELS,
  DOC_TYPES,
  ZDocumentStatus,
  type TAuditAction,
  type TDocType,
  type TPlayerTimelineEntry,
  type TSeasonRef,
  type TSubmissionSource,
} from '../../contract';
import { recordedActorName, type AuditEventRow } from '../audit';
import type { PlayerTimelineDocumentRow } from '../documents';
import { ACCEPTED_FILE_TYPES } from '../files';
import type { PlayerRegistrationRow } from './registrations.repository';

/**
 * Document actions the timeline leaves out: downloads (every View is one) and the pipeline's own bookkeeping
 * of where the file is kept. Every other action on a document is told, those not known here in general words.
 */
export const QUIET_DOCUMENT_ACTIONS = ['document.downloaded', 'document.stored', 'document.moved_to_storage', 'document.read'] as const satisfies readonly TAuditAction[];

/** Who brought a file in, by the channel of its submission. */
const INTAKE_WHO: Record<TSubmissionSource, string> = { form: 'Form', mailbox: 'Mailbox', upload: 'Staff', test: 'Pipeline test', family: 'Family' };
/** How it came in, in words. */
const INTAKE_HOW: Record<TSubmissionSource, string> = {
  form: 'sent with the registration form',
  mailbox: 'sent by e-mail to the mailbox',
  upload: 'uploaded by staff',
  test: 'sent by the pipeline test',
  family: "sent through the family's upload link",
};
/** The day a link stops working, as the screens write dates: 'Dec 26, 2026' (UTC). */
const LINK_DAY = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/** Said when nothing records who did it (rows written before the audit trail, demo data). */
const NOT_RECORDED = 'Not recorded';

export type TimelineNotification = {
  id: string;
  type: string;
  recipient: string;
  subject: string;
  status: string;
  sentAt: Date | null;
  errorMessage: string | null;
  createdAt: Date;
  seasonId: string | null;
  senderName: string | null;
};

export type TimelineSources = {
  /** The seasons the caller may see; everything else is already left out. */
  registrations: readonly PlayerRegistrationRow[];
  documents: readonly PlayerTimelineDocumentRow[];
  /** The player's and those documents' audit records, the quiet actions left out. */
  events: readonly AuditEventRow[];
  notifications: readonly TimelineNotification[];
};

const documentLabel = (docType: TDocType | null): string => (docType ? DOC_TYPE_LABELS[docType] : 'Document of undetected type');

const fileTypeLabel = (mime: string | null): string => ACCEPTED_FILE_TYPES.find((type) => type.mime === mime)?.label ?? 'file';

const ZStatusChange = z.object({ from: ZDocumentStatus, to: ZDocumentStatus, reviewNotes: z.string().nullish() });
/** Whatever reason an action's detail may carry, under the names the trail uses. */
const ZReason = z.object({ reason: z.string().optional(), reviewNotes: z.string().nullish(), message: z.string().optional() });
const ZVirus = z.object({ signature: z.string() });
const ZCreated = z.object({ seasonId: z.string() });

const reasonOf = (detail: unknown): string | null => {
  const parsed = ZReason.safeParse(detail);
  if (!parsed.success) return null;
  return parsed.data.reason?.trim() || parsed.data.reviewNotes?.trim() || parsed.data.message?.trim() || null;
};

/** 'document.scan_retry_requested' → 'scan retry requested': an action this list does not know yet, in plain words. */
const actionWords = (action: string): string => action.replace(/^[a-z]+\./, '').replace(/_/g, ' ');

/** A document's audit record as a timeline line: a review decision, or another step of the document. */
function documentEventLine(event: AuditEventRow, label: string): Pick<TPlayerTimelineEntry, 'kind' | 'what' | 'details'> {
  const action: string = event.action;
  if (action === 'document.status_changed') {
    const change = ZStatusChange.safeParse(event.detail);
    if (change.success) {
      const reason = change.data.reviewNotes?.trim() || null;
      if (change.data.to === 'verified') return { kind: 'review', what: `${label} approved`, details: reason };
      if (change.data.to === 'rejected') return { kind: 'review', what: `${label} rejected`, details: reason };
      if (change.data.to === 'pending') return { kind: 'review', what: `${label} reopened for review`, details: reason };
    }
    return { kind: 'review', what: `${label}: review changed`, details: reasonOf(event.detail) };
  }
  if (action === 'document.reopened') return { kind: 'review', what: `${label} reopened for review`, details: reasonOf(event.detail) };
  if (action === 'document.rejected_virus') {
    const virus = ZVirus.safeParse(event.detail);
    return { kind: 'document', what: `${label} refused: a virus was found`, details: virus.success ? virus.data.signature : null };
  }
  if (action === 'document.scan_failed') return { kind: 'document', what: `${label}: the virus scan could not be made`, details: 'Retried automatically for a day' };
  if (action === 'document.scan_retries_stopped') return { kind: 'document', what: `${label}: virus scan retries stopped`, details: null };
  if (action === 'document.scan_retry_requested') return { kind: 'document', what: `${label}: virus scan retried`, details: null };
  if (action === 'document.purged') return { kind: 'document', what: `${label} removed after the retention period`, details: null };
  if (action === 'document.file_removed') return { kind: 'document', what: `${label}: file removed after verification`, details: 'The verification stays' };
  return { kind: 'document', what: `${label}: ${actionWords(action)}`, details: reasonOf(event.detail) };
}

const ZLinkIssued = z.object({ seasonId: z.string(), expiresAt: z.string().optional(), why: z.string().optional() });
const ZLinkRevoked = z.object({ seasonId: z.string(), revoked: z.number().optional() });
const ZLinkUsed = z.object({ seasonId: z.string(), docType: z.string().optional() });

/** Why a link was issued, in words: what the person or the reminder did with it. */
const LINK_ISSUED_WHAT: Record<string, string> = {
  copied: 'Upload link created for the family',
  sent: 'Upload link sent to the guardian',
  reminder: 'Upload link sent with an automatic reminder',
};

/** A family upload link's record (issued, turned off, used) as a timeline line; undefined for any other record. */
function uploadLinkLine(event: AuditEventRow): (Pick<TPlayerTimelineEntry, 'kind' | 'what' | 'details'> & { seasonId: string }) | undefined {
  const action: string = event.action;
  if (action === 'upload_link.issued') {
    const issued = ZLinkIssued.safeParse(event.detail);
    if (!issued.success) return undefined;
    const until = issued.data.expiresAt ? `Works until ${LINK_DAY.format(new Date(issued.data.expiresAt))}` : null;
    return { kind: 'notification', what: LINK_ISSUED_WHAT[issued.data.why ?? ''] ?? 'Upload link created for the family', details: until, seasonId: issued.data.seasonId };
  }
  if (action === 'upload_link.revoked') {
    const revoked = ZLinkRevoked.safeParse(event.detail);
    if (!revoked.success) return undefined;
    const count = revoked.data.revoked;
    const details = count === undefined ? null : count === 0 ? 'No link was working' : `${count} working link${count === 1 ? '' : 's'} stopped`;
    return { kind: 'notification', what: 'Upload links turned off', details, seasonId: revoked.data.seasonId };
  }
  if (action === 'upload_link.used') {
    const used = ZLinkUsed.safeParse(event.detail);
    if (!used.success) return undefined;
    const type = DOC_TYPES.find((docType) => docType === used.data.docType);
    return { kind: 'upload', what: `${type ? DOC_TYPE_LABELS[type] : 'A document'} sent through the upload link`, details: null, seasonId: used.data.seasonId };
  }
  return undefined;
}

const NOTIFICATION_WHAT: Record<string, string> = {
  sent: 'Message sent to the guardian',
  pending: 'Message waiting to be sent to the guardian',
  failed: 'Message to the guardian could not be sent',
};

/**
 * The player's story, newest first: each season registration, each file received (its type and how it came
 * in), each review decision with who made it and why, the documents' other steps, and every message sent to
 * the family. Nothing in it names where a file is stored.
 */
export function buildPlayerTimeline(sources: TimelineSources): TPlayerTimelineEntry[] {
  const seasons = new Map<string, TSeasonRef>(
    sources.registrations.map((row) => [row.seasonId, { id: row.seasonId, name: row.seasonName, year: row.seasonYear }]),
  );
  const seasonOf = (seasonId: string | null): TSeasonRef | null => (seasonId === null ? null : (seasons.get(seasonId) ?? null));
  const documents = new Map(sources.documents.map((document) => [document.id, document]));
  const entries: TPlayerTimelineEntry[] = [];

  // Who registered the player for a season: the person who added them, else the channel of the season's first file.
  const addedBy = new Map<string, string>();
  for (const event of sources.events) {
    if (event.action !== 'player.created') continue;
    const created = ZCreated.safeParse(event.detail);
    if (created.success && !addedBy.has(created.data.seasonId)) addedBy.set(created.data.seasonId, recordedActorName(event));
  }
  for (const registration of sources.registrations) {
    const first = sources.documents.filter((document) => document.seasonId === registration.seasonId && document.source !== null).at(-1);
    entries.push({
      id: `registration:${registration.seasonId}`,
      at: registration.registeredAt.toISOString(),
      kind: 'registration',
      what: `Registered for ${registration.seasonName}`,
      who: addedBy.get(registration.seasonId) ?? (first?.source ? INTAKE_WHO[first.source] : NOT_RECORDED),
      details: `Division ${registration.division}`,
      season: seasonOf(registration.seasonId),
    });
  }

  for (const document of sources.documents) {
    const how = document.source ? `, ${INTAKE_HOW[document.source]}` : '';
    entries.push({
      id: `upload:${document.id}`,
      at: document.uploadedAt.toISOString(),
      kind: 'upload',
      what: `${documentLabel(document.docType)} uploaded`,
      who: document.source ? INTAKE_WHO[document.source] : NOT_RECORDED,
      details: `${document.originalFilename} (${fileTypeLabel(document.mime)}${how})`,
      season: seasonOf(document.seasonId),
    });
  }

  // The family's upload links: issued (by whom, what for), turned off, and each file sent through one.
  for (const event of sources.events) {
    if (event.subjectType !== 'player') continue;
    const line = uploadLinkLine(event);
    if (!line) continue;
    const { seasonId, ...shown } = line;
    entries.push({ id: `event:${event.id}`, at: event.at.toISOString(), ...shown, who: recordedActorName(event), season: seasonOf(seasonId) });
  }

  const reviewed = new Set<string>();
  for (const event of sources.events) {
    if (event.subjectType !== 'document' || event.subjectId === null) continue;
    const document = documents.get(event.subjectId);
    if (!document) continue;
    const line = documentEventLine(event, documentLabel(document.docType));
    if (line.kind === 'review') reviewed.add(document.id);
    entries.push({
      id: `event:${event.id}`,
      at: event.at.toISOString(),
      ...line,
      who: recordedActorName(event),
      season: seasonOf(document.seasonId),
    });
  }
  // A decision kept on the document with no record of it (data older than the trail): told, without a name.
  for (const document of sources.documents) {
    if (reviewed.has(document.id) || document.reviewedAt === null || (document.status !== 'verified' && document.status !== 'rejected')) continue;
    entries.push({
      id: `review:${document.id}`,
      at: document.reviewedAt.toISOString(),
      kind: 'review',
      what: `${documentLabel(document.docType)} ${document.status === 'verified' ? 'approved' : 'rejected'}`,
      who: NOT_RECORDED,
      details: document.reviewNotes?.trim() || null,
      season: seasonOf(document.seasonId),
    });
  }

  for (const message of sources.notifications) {
    const subject = message.subject.trim() ? `“${message.subject.trim()}” to ${message.recipient}` : `To ${message.recipient}`;
    entries.push({
      id: `notification:${message.id}`,
      at: (message.sentAt ?? message.createdAt).toISOString(),
      kind: 'notification',
      what: NOTIFICATION_WHAT[message.status] ?? 'Message to the guardian',
      who: message.senderName ?? AUDIT_ACTOR_NAMES.system,
      details: message.status === 'failed' && message.errorMessage ? `${subject}: ${message.errorMessage}` : subject,
      season: seasonOf(message.seasonId),
    });
  }

  // Newest first; at the same instant, the later step of a document's life first (a review after its upload).
  const order: Record<TPlayerTimelineEntry['kind'], number> = { registration: 0, upload: 1, document: 2, review: 3, notification: 4 };
  return entries.sort((a, b) => (a.at === b.at ? order[b.kind] - order[a.kind] : a.at < b.at ? 1 : -1));
}
