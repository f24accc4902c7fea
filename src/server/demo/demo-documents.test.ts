import { describe, expect, it } from 'vitest';
import { DOC_TYPES, DOCUMENT_STATUSES } from '../../contract';
import { sanitizeStoredName } from '../files';
import {
  data,
  DAY_MS,
  NOW,
  playerById,
  registrationByKey,
  registrationKey,
  requireDate,
  seasonById,
  submissionById,
  tally,
} from './demo-data.fixture';

/** Share of registrations per season with all four documents verified. */
function completeShareBySeason(): Map<string, number> {
  const verified = new Map<string, Set<string>>();
  for (const doc of data.documents) {
    if (doc.status !== 'verified' || !doc.docType) continue;
    const key = registrationKey(doc.playerId, doc.seasonId);
    const types = verified.get(key) ?? new Set<string>();
    types.add(doc.docType);
    verified.set(key, types);
  }
  const shares = new Map<string, number>();
  for (const season of data.seasons) {
    const inSeason = data.registrations.filter((r) => r.seasonId === season.id);
    const complete = inSeason.filter((r) => verified.get(registrationKey(r.playerId, r.seasonId))?.size === 4);
    shares.set(season.id, complete.length / inSeason.length);
  }
  return shares;
}

describe('generateDemoData: documents', () => {
  it('links every document to an existing registration (player and season) and submission', () => {
    for (const doc of data.documents) {
      expect(registrationByKey.has(registrationKey(doc.playerId, doc.seasonId))).toBe(true);
      const submission = doc.submissionId ? submissionById.get(doc.submissionId) : undefined;
      expect(submission?.playerId).toBe(doc.playerId);
      expect(submission?.seasonId).toBe(doc.seasonId);
    }
  });

  it('uses every document type and every status, verified most often', () => {
    expect(new Set(data.documents.map((d) => d.docType))).toEqual(new Set([...DOC_TYPES, null]));
    const perStatus = tally(data.documents, (d) => d.status ?? 'unset');
    expect([...perStatus.keys()].sort()).toEqual([...DOCUMENT_STATUSES].sort());
    const verified = perStatus.get('verified') ?? 0;
    for (const status of ['pending', 'processing', 'rejected']) expect(verified).toBeGreaterThan(perStatus.get(status) ?? 0);
  });

  it('leaves some document types missing for some registrations', () => {
    const typesPerRegistration = new Map<string, Set<string>>();
    for (const doc of data.documents) {
      if (!doc.docType) continue;
      const key = registrationKey(doc.playerId, doc.seasonId);
      typesPerRegistration.set(key, (typesPerRegistration.get(key) ?? new Set()).add(doc.docType));
    }
    const incomplete = data.registrations.filter(
      (r) => (typesPerRegistration.get(registrationKey(r.playerId, r.seasonId))?.size ?? 0) < 4,
    );
    expect(incomplete.length).toBeGreaterThan(data.registrations.length * 0.1);
  });

  it('has complete and partial players in every season, older seasons more complete than the current one', () => {
    const shares = completeShareBySeason();
    for (const share of shares.values()) {
      expect(share).toBeGreaterThan(0.05);
      expect(share).toBeLessThan(0.95);
    }
    const current = shares.get('fall-2025') ?? 1;
    for (const [seasonId, share] of shares) if (seasonId !== 'fall-2025') expect(share).toBeGreaterThan(current);
  });

  it('gives every rejected document a review note, and reviewed documents a review time after the upload', () => {
    for (const doc of data.documents) {
      const uploadedAt = requireDate(doc.uploadedAt, 'uploadedAt');
      if (doc.status === 'rejected') expect(doc.reviewNotes).toMatch(/\w{4,}/);
      if (doc.status === 'verified' || doc.status === 'rejected') {
        expect(requireDate(doc.reviewedAt, 'reviewedAt').getTime()).toBeGreaterThanOrEqual(uploadedAt.getTime());
      } else {
        expect(doc.reviewedAt).toBeNull();
      }
    }
  });

  it('leaves about 1% of documents with an undetected type, all pending review', () => {
    const undetected = data.documents.filter((d) => d.docType === null);
    expect(undetected.length / data.documents.length).toBeGreaterThan(0.003);
    expect(undetected.length / data.documents.length).toBeLessThan(0.03);
    expect(undetected.every((d) => d.status === 'pending')).toBe(true);
  });

  it('fills file details: name, mime, 30 KB to 4 MB, a SHA-256, and 7-year retention', () => {
    for (const doc of data.documents) {
      expect(doc.originalFilename).toMatch(/\.(pdf|jpg|png)$/);
      expect(doc.mime).toMatch(/^(application\/pdf|image\/(jpeg|png))$/);
      expect(doc.bytes).toBeGreaterThanOrEqual(30 * 1024);
      expect(doc.bytes).toBeLessThanOrEqual(4 * 1024 * 1024);
      expect(doc.fileSha256).toMatch(/^[0-9a-f]{64}$/);
      const uploadedAt = requireDate(doc.uploadedAt, 'uploadedAt');
      const retainUntil = requireDate(doc.retainUntil, 'retainUntil');
      expect(retainUntil.getUTCFullYear() - uploadedAt.getUTCFullYear()).toBe(7);
      expect(retainUntil.getTime() - uploadedAt.getTime()).toBeGreaterThan(7 * 365 * DAY_MS);
    }
    const names = data.documents.map((d) => d.originalFilename);
    expect(names.some((n) => /^birth_certificate_[a-z]+\.pdf$/.test(n))).toBe(true);
    expect(names.some((n) => /^IMG_\d{4}\.jpg$/.test(n))).toBe(true);
    expect(names.some((n) => /^Medical Form - .+\.pdf$/.test(n))).toBe(true);
  });

  it('stores every document under the stored path of its player, season, division, type and submission', () => {
    for (const doc of data.documents) {
      const player = playerById.get(doc.playerId);
      const season = seasonById.get(doc.seasonId);
      const registration = registrationByKey.get(registrationKey(doc.playerId, doc.seasonId));
      if (!player || !season || !registration) throw new Error('dangling document');
      const name = sanitizeStoredName(player.firstName, player.lastName);
      const ext = doc.mime === 'application/pdf' ? 'pdf' : doc.mime === 'image/jpeg' ? 'jpg' : 'png';
      expect(doc.storedPath).toBe(
        `seasons/${season.year}/${registration.division}/${name}_${player.birthDate}_${player.id}/` +
          `${name}_${player.birthDate}_${doc.docType ?? 'unclassified'}_${doc.submissionId}_${doc.fileSha256?.slice(0, 8)}.${ext}`,
      );
      expect(doc.storageDriver).toBe('local');
      expect(doc.storageKey).toBe(doc.storedPath);
    }
  });

  it('uploads each document within its season, at or before now', () => {
    for (const doc of data.documents) {
      const season = seasonById.get(doc.seasonId);
      if (!season) throw new Error('dangling document');
      const uploadedMs = requireDate(doc.uploadedAt, 'uploadedAt').getTime();
      expect(uploadedMs).toBeLessThanOrEqual(NOW.getTime());
      if (season.isCurrent) continue; // the current season's newest files are "the last 7 days"
      expect(uploadedMs).toBeGreaterThanOrEqual(Date.parse(`${season.startsOn}T00:00:00Z`));
      expect(uploadedMs).toBeLessThanOrEqual(Date.parse(`${season.endsOn}T23:59:59Z`));
    }
  });

  it('has no encryption envelope yet: seeding adds it with the file it stores', () => {
    for (const doc of data.documents) {
      expect(doc.wrappedKey ?? null).toBeNull();
      expect(doc.iv ?? null).toBeNull();
      expect(doc.authTag ?? null).toBeNull();
    }
  });
});

describe('generateDemoData: medical exam dates', () => {
  it('gives every verified medical form an exam date one to ten weeks before it was sent, and no other document one', () => {
    const WEEK_MS = 7 * 24 * 60 * 60_000;
    for (const document of data.documents) {
      if (document.status === 'verified' && document.docType === 'medical') {
        const before = (document.uploadedAt?.getTime() ?? 0) - Date.parse(`${document.documentDate ?? ''}T00:00:00Z`);
        expect(before).toBeGreaterThanOrEqual(WEEK_MS - 24 * 60 * 60_000);
        expect(before).toBeLessThanOrEqual(10 * WEEK_MS + 24 * 60 * 60_000);
      } else {
        expect(document.documentDate ?? null).toBeNull();
      }
    }
  });
});
