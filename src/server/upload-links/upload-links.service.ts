import {
  DOC_TYPE_LABELS,
  DOC_TYPES,
  FAMILY_UPLOADS_PER_HOUR,
  inDivisionScope,
  type TDocType,
  type TFamilyDocState,
  type TFamilyPage,
  type TPrincipal,
  type TUploadLink,
  type TUploadLinkStatus,
} from '../../contract';
import { recordAuditEvent, type Actor } from '../audit';
import type { Db } from '../platform/db/client';
import { AppError } from '../platform/errors';
import { resolveSeason } from '../seasons';
import { issueUploadLink } from './issue-upload-link';
import { hashUploadToken, isWellFormedUploadToken } from './upload-link-token';
import {
  countUploadsSince,
  findFamilyPageFacts,
  findRegistrationOf,
  findUploadLinkByHash,
  listFamilyDocuments,
  lockUploadLink,
  revokeUploadLinks,
  touchUploadLink,
  uploadLinkStatus,
  type FamilyDocumentRow,
  type UploadLinkRow,
} from './upload-links.repository';

const HOUR_MS = 60 * 60_000;

export const INVALID_LINK_MESSAGE = 'This upload link is not valid. Ask the league for a new one.';
export const EXPIRED_LINK_MESSAGE = 'This upload link has expired. Ask the league for a new one.';
export const REVOKED_LINK_MESSAGE = 'This upload link is no longer active. Ask the league for a new one.';
export const RECEIVED_MESSAGE = 'Received. A volunteer will check it, usually within a few days; this page shows when it is accepted.';

/**
 * Where a link points when the server chooses (an automatic reminder, no request to take an origin from):
 * CLEARBASE_PUBLIC_URL when set, else the address the server listens on (a wildcard host read as localhost).
 */
export function uploadLinkOrigin(publicUrl: URL | undefined, listen: { host: string; port: number }): string {
  if (publicUrl) return publicUrl.origin;
  const host = listen.host === '0.0.0.0' || listen.host === '::' || listen.host === '' ? 'localhost' : listen.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${listen.port}`;
}

/** The link has sent its hour's uploads: a 429 whose route adds Retry-After. */
export class UploadLimitReached extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super('RATE_LIMITED', message);
  }
}

/** A link that works, as the family routes need it: whose, for which season, until when. */
export type ActiveUploadLink = Pick<UploadLinkRow, 'id' | 'playerId' | 'seasonId' | 'expiresAt'>;

export type UploadLinksDeps = {
  db: Db;
  /** CLEARBASE_PUBLIC_URL: links point there when set, else at the origin of the staff request. */
  publicUrl: URL | undefined;
  /** Days a new link works (System Settings, read per issue). */
  uploadLinkDays: () => Promise<number>;
  now?: () => Date;
};

/**
 * A document type's state in a family's words. An accepted document settles the type (as the registration
 * summary counts it complete); otherwise the newest one kept tells it: a new upload after a refusal is under
 * review, a refusal after an earlier upload is not accepted.
 */
export function familyDocumentState(rows: readonly FamilyDocumentRow[]): { state: TFamilyDocState; reason: string | null; receivedAt: Date | null } {
  const accepted = rows.find((row) => row.status === 'verified');
  const shown = accepted ?? rows[0];
  if (!shown) return { state: 'missing', reason: null, receivedAt: null };
  if (shown.status === 'verified') return { state: 'accepted', reason: null, receivedAt: shown.uploadedAt };
  if (shown.status === 'rejected') return { state: 'not_accepted', reason: shown.reviewNotes?.trim() || null, receivedAt: shown.uploadedAt };
  return { state: 'under_review', reason: null, receivedAt: shown.uploadedAt };
}

export function createUploadLinksService(deps: UploadLinksDeps) {
  const now = deps.now ?? (() => new Date());

  /** The season a staff request names (id or year), and the player's registration in it within the principal's divisions. */
  const registrationInScope = async (db: Db, playerId: string, season: string, principal: TPrincipal) => {
    const row = await resolveSeason(db, season);
    if (!row) throw new AppError('NOT_FOUND', `Season "${season}" does not exist.`);
    const registration = await findRegistrationOf(db, playerId, row.id);
    if (!registration || !inDivisionScope(principal, registration.division)) {
      throw new AppError('NOT_FOUND', `Player ${playerId} is not registered in ${row.name}.`);
    }
    return { seasonId: row.id, seasonName: row.name };
  };

  /** The link a token names, if it still works; 404 for a token that names none (or is not one), 410 once it stopped. */
  const workingLink = async (token: string, at: Date): Promise<UploadLinkRow> => {
    // Looked up by its hash: the token itself is never compared, so the time taken tells nothing of it.
    const link = isWellFormedUploadToken(token) ? await findUploadLinkByHash(deps.db, hashUploadToken(token)) : undefined;
    if (!link) throw new AppError('NOT_FOUND', INVALID_LINK_MESSAGE);
    if (link.revokedAt !== null) throw new AppError('GONE', REVOKED_LINK_MESSAGE);
    if (link.expiresAt.getTime() <= at.getTime()) throw new AppError('GONE', EXPIRED_LINK_MESSAGE);
    return link;
  };

  /** 429 once the link has sent its hour's uploads, with when the next one is taken. */
  const checkUploadLimit = async (db: Db, linkId: string, at: Date) => {
    const recent = await countUploadsSince(db, linkId, new Date(at.getTime() - HOUR_MS));
    if (recent.count < FAMILY_UPLOADS_PER_HOUR) return;
    const freeAt = (recent.oldest?.getTime() ?? at.getTime()) + HOUR_MS;
    const seconds = Math.max(1, Math.ceil((freeAt - at.getTime()) / 1000));
    const minutes = Math.ceil(seconds / 60);
    throw new UploadLimitReached(
      `This link has sent ${FAMILY_UPLOADS_PER_HOUR} files in the last hour, the most it may. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      seconds,
    );
  };

  const familyPage = async (db: Db, link: Pick<UploadLinkRow, 'playerId' | 'seasonId' | 'expiresAt'>): Promise<TFamilyPage> => {
    const facts = await findFamilyPageFacts(db, link.playerId, link.seasonId);
    // The registration was removed since the link was issued: the link opens nothing.
    if (!facts) throw new AppError('NOT_FOUND', INVALID_LINK_MESSAGE);
    const rows = await listFamilyDocuments(db, link.playerId, link.seasonId);
    return {
      playerFirstName: facts.firstName,
      season: { name: facts.seasonName, registrationDeadline: facts.registrationDeadline },
      expiresAt: link.expiresAt.toISOString(),
      documents: DOC_TYPES.map((type) => {
        const shown = familyDocumentState(rows.filter((row) => row.docType === type));
        return { type, label: DOC_TYPE_LABELS[type], state: shown.state, reason: shown.reason, receivedAt: shown.receivedAt?.toISOString() ?? null };
      }),
    };
  };

  return {
    /** Staff: a new link for the player and season, shown once. Expiry from System Settings. */
    async issue(playerId: string, season: string, actor: Actor, requestOrigin: string): Promise<TUploadLink> {
      const days = await deps.uploadLinkDays();
      const origin = deps.publicUrl ? deps.publicUrl.origin : requestOrigin;
      return deps.db.transaction(async (tx) => {
        const { seasonId } = await registrationInScope(tx, playerId, season, actor.principal);
        const issued = await issueUploadLink(tx, { playerId, seasonId, actor: actor.principal, origin, days, now: now(), why: 'copied', requestId: actor.requestId });
        return { url: issued.url, expiresAt: issued.expiresAt.toISOString() };
      });
    },

    /** Staff: whether the family has a working link for the season, and when one was last issued and used. */
    async status(playerId: string, season: string, principal: TPrincipal): Promise<TUploadLinkStatus> {
      const { seasonId } = await registrationInScope(deps.db, playerId, season, principal);
      const status = await uploadLinkStatus(deps.db, playerId, seasonId, now());
      return { active: status.active, lastIssuedAt: status.lastIssuedAt?.toISOString() ?? null, lastUsedAt: status.lastUsedAt?.toISOString() ?? null };
    },

    /** Staff: every working link of the player for the season stops, audited. */
    async revoke(playerId: string, season: string, actor: Actor): Promise<{ revoked: number }> {
      return deps.db.transaction(async (tx) => {
        const { seasonId } = await registrationInScope(tx, playerId, season, actor.principal);
        const revoked = await revokeUploadLinks(tx, playerId, seasonId, now());
        await recordAuditEvent(tx, {
          actor: actor.principal,
          action: 'upload_link.revoked',
          subjectType: 'player',
          subjectId: playerId,
          detail: { seasonId, revoked },
          requestId: actor.requestId,
        });
        return { revoked };
      });
    },

    /** The family page a token opens; opening it counts as using the link. */
    async openFamilyPage(token: string): Promise<TFamilyPage> {
      const at = now();
      const link = await workingLink(token, at);
      const page = await familyPage(deps.db, link);
      await touchUploadLink(deps.db, link.id, at);
      return page;
    },

    /** Before an upload's body is read: the link works and has uploads left this hour. */
    async linkForUpload(token: string): Promise<ActiveUploadLink> {
      const at = now();
      const link = await workingLink(token, at);
      const facts = await findFamilyPageFacts(deps.db, link.playerId, link.seasonId);
      if (!facts) throw new AppError('NOT_FOUND', INVALID_LINK_MESSAGE);
      // Said before a file is sent; the recording transaction decides again under its lock on the season.
      if (facts.closed) throw new AppError('CONFLICT', `The ${facts.seasonName} season is closed: it takes no more documents.`);
      await checkUploadLimit(deps.db, link.id, at);
      return { id: link.id, playerId: link.playerId, seasonId: link.seasonId, expiresAt: link.expiresAt };
    },

    /**
     * In the recording transaction, before anything is written: the link's row locked (concurrent uploads
     * through it wait here), still working, and under its hour's limit, counted again.
     */
    async guardUpload(tx: Db, linkId: string, receivedAt: Date): Promise<void> {
      const link = await lockUploadLink(tx, linkId);
      if (!link) throw new AppError('NOT_FOUND', INVALID_LINK_MESSAGE);
      if (link.revokedAt !== null) throw new AppError('GONE', REVOKED_LINK_MESSAGE);
      if (link.expiresAt.getTime() <= receivedAt.getTime()) throw new AppError('GONE', EXPIRED_LINK_MESSAGE);
      await checkUploadLimit(tx, linkId, receivedAt);
    },

    /** In the recording transaction, once the submission is written: the use audited (no names) and remembered. */
    async recordUse(tx: Db, link: ActiveUploadLink, use: { docType: TDocType; submissionId: string; receivedAt: Date }): Promise<void> {
      await recordAuditEvent(tx, {
        actor: 'family',
        action: 'upload_link.used',
        subjectType: 'player',
        subjectId: link.playerId,
        detail: { seasonId: link.seasonId, linkId: link.id, docType: use.docType, submissionId: use.submissionId },
      });
      await touchUploadLink(tx, link.id, use.receivedAt);
    },

    /** The page as it is now, for the answer to an upload (the link was checked before it). */
    pageOf(link: ActiveUploadLink): Promise<TFamilyPage> {
      return familyPage(deps.db, link);
    },
  };
}
export type UploadLinksService = ReturnType<typeof createUploadLinksService>;
