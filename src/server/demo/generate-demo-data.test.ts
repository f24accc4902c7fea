import { describe, expect, it } from 'vitest';
import { DIVISIONS, DOC_TYPES, DOCUMENT_STATUSES, NOTIFICATION_STATUSES, placeholderProblem, USER_ROLES } from '../../contract';
import { derivePlayerId } from '../players/player-id';
import { countDemoData, generateDemoData, generateDemoDataInChunks, type DemoData, type DemoDataOptions } from './generate-demo-data';
import { sanitizeStoredName } from '../files';

const NOW = new Date('2025-10-15T12:00:00Z');
const OPTIONS: DemoDataOptions = { seed: 42, players: 1_500, idPrefix: 'CB', now: NOW };
const data = generateDemoData(OPTIONS);

const DAY_MS = 24 * 60 * 60 * 1000;
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const seasonById = new Map(data.seasons.map((season) => [season.id, season]));
const playerById = new Map(data.players.map((player) => [player.id, player]));
const registrationKey = (playerId: string, seasonId: string) => `${playerId}|${seasonId}`;
const registrationByKey = new Map(data.registrations.map((r) => [registrationKey(r.playerId, r.seasonId), r]));
const submissionById = new Map(data.submissions.map((submission) => [submission.id, submission]));

function tally<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(keyOf(item), (counts.get(keyOf(item)) ?? 0) + 1);
  return counts;
}

function requireDate(value: Date | null | undefined, what: string): Date {
  if (!(value instanceof Date)) throw new Error(`${what} is not set`);
  return value;
}

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

describe('generateDemoData: determinism', () => {
  it('returns identical rows for identical options', () => {
    const options = { ...OPTIONS, players: 300 };
    expect(generateDemoData(options)).toEqual(generateDemoData(options));
  });

  it('returns different rows, ids and uuids for a different seed', () => {
    const first = generateDemoData({ ...OPTIONS, players: 300 });
    const second = generateDemoData({ ...OPTIONS, players: 300, seed: 43 });
    expect(second.players.map((p) => p.id)).not.toEqual(first.players.map((p) => p.id));
    expect(second.documents[0]?.id).not.toBe(first.documents[0]?.id);
  });

  it('refuses a player count outside 1 to 1,000,000 and a malformed id prefix', () => {
    expect(() => generateDemoData({ ...OPTIONS, players: 0 })).toThrow(RangeError);
    expect(() => generateDemoData({ ...OPTIONS, players: 2.5 })).toThrow(RangeError);
    expect(() => generateDemoData({ ...OPTIONS, players: 1_000_001 })).toThrow(RangeError);
    expect(() => generateDemoData({ ...OPTIONS, idPrefix: 'cb' })).toThrow(RangeError);
  });

  it('still produces a consistent demo for a single player', () => {
    const tiny = generateDemoData({ ...OPTIONS, players: 1 });
    expect(tiny.players).toHaveLength(1);
    expect(tiny.registrations.length).toBeGreaterThanOrEqual(1);
    expect(tiny.seasons).toHaveLength(6);
  });
});

describe('generateDemoDataInChunks', () => {
  const options = { ...OPTIONS, players: 700 };
  const chunks = [...generateDemoDataInChunks(options, 100)];

  it('hands out the same rows in the same order as generateDemoData', () => {
    const merged: DemoData = {
      seasons: chunks.flatMap((c) => c.seasons),
      players: chunks.flatMap((c) => c.players),
      registrations: chunks.flatMap((c) => c.registrations),
      submissions: chunks.flatMap((c) => c.submissions),
      documents: chunks.flatMap((c) => c.documents),
      users: chunks.flatMap((c) => c.users),
      notificationTemplates: chunks.flatMap((c) => c.notificationTemplates),
      notificationHistory: chunks.flatMap((c) => c.notificationHistory),
    };
    expect(merged).toEqual(generateDemoData(options));
  });

  it('puts at most the requested number of players in a chunk', () => {
    expect(chunks.length).toBeGreaterThanOrEqual(7);
    for (const chunk of chunks) expect(chunk.players.length).toBeLessThanOrEqual(100);
  });

  it('only refers to rows of the same chunk or an earlier one, so chunks can be written in order', () => {
    const players = new Set<string>();
    const seasons = new Set<string>();
    const submissions = new Set<string>();
    const templates = new Set<string>();
    for (const chunk of chunks) {
      chunk.seasons.forEach((s) => seasons.add(s.id));
      chunk.players.forEach((p) => players.add(p.id));
      chunk.submissions.forEach((s) => submissions.add(s.id ?? ''));
      chunk.notificationTemplates.forEach((t) => templates.add(t.id ?? ''));
      for (const r of chunk.registrations) expect(players.has(r.playerId) && seasons.has(r.seasonId)).toBe(true);
      for (const s of chunk.submissions) if (s.playerId) expect(players.has(s.playerId)).toBe(true);
      for (const d of chunk.documents) expect(players.has(d.playerId) && submissions.has(d.submissionId ?? '')).toBe(true);
      for (const n of chunk.notificationHistory) expect(templates.has(n.templateId ?? '')).toBe(true);
    }
  });
});

describe('generateDemoData: seasons', () => {
  it('creates the six seasons of the reports screen in order, with their dates', () => {
    expect(data.seasons.map((s) => [s.id, s.name, s.kind, s.year, s.startsOn, s.endsOn])).toEqual([
      ['spring-2023', 'Spring Ball 2023', 'Spring Ball', 2023, '2023-03-01', '2023-06-30'],
      ['fall-2023', 'Fall Ball 2023', 'Fall Ball', 2023, '2023-08-15', '2023-11-30'],
      ['spring-2024', 'Spring Ball 2024', 'Spring Ball', 2024, '2024-03-01', '2024-06-30'],
      ['fall-2024', 'Fall Ball 2024', 'Fall Ball', 2024, '2024-08-15', '2024-11-30'],
      ['spring-2025', 'Spring Ball 2025', 'Spring Ball', 2025, '2025-03-01', '2025-06-30'],
      ['fall-2025', 'Fall Ball 2025', 'Fall Ball', 2025, '2025-08-15', '2025-11-30'],
    ]);
  });

  it('marks only Fall Ball 2025 as the current season', () => {
    expect(data.seasons.filter((s) => s.isCurrent).map((s) => s.id)).toEqual(['fall-2025']);
  });

  it('grows: every season has more registrations than the one before, so each Fall beats the last', () => {
    const perSeason = tally(data.registrations, (r) => r.seasonId);
    const counts = data.seasons.map((s) => perSeason.get(s.id) ?? 0);
    for (let i = 1; i < counts.length; i += 1) expect(counts[i]).toBeGreaterThan(counts[i - 1] ?? 0);
  });
});

describe('generateDemoData: players and registrations', () => {
  it('creates exactly the requested number of distinct player rows', () => {
    expect(data.players).toHaveLength(OPTIONS.players);
    expect(playerById.size).toBe(OPTIONS.players);
  });

  it('derives every player id from the name, birth date and season year with derivePlayerId', () => {
    for (const registration of data.registrations) {
      const player = playerById.get(registration.playerId);
      const season = seasonById.get(registration.seasonId);
      if (!player || !season) throw new Error(`dangling registration ${registration.playerId}`);
      expect(player.id).toMatch(/^CB-\d{4}-[0-9a-f]{8}$/);
      expect(player.id).toBe(
        derivePlayerId({ prefix: 'CB', year: season.year, firstName: player.firstName, lastName: player.lastName, birthDate: player.birthDate }),
      );
    }
  });

  it('uses the configured id prefix', () => {
    const other = generateDemoData({ ...OPTIONS, players: 50, idPrefix: 'HL7' });
    expect(other.players.every((p) => /^HL7-\d{4}-[0-9a-f]{8}$/.test(p.id))).toBe(true);
  });

  it('registers every player at least once, only in seasons of its id year, and once per season', () => {
    const registered = new Set(data.registrations.map((r) => r.playerId));
    expect(registered.size).toBe(data.players.length);
    expect(registrationByKey.size).toBe(data.registrations.length);
    for (const registration of data.registrations) {
      expect(registration.playerId.split('-')[1]).toBe(String(seasonById.get(registration.seasonId)?.year));
    }
  });

  it('gives some returning children a second player row, with a new id, in a later year', () => {
    const identities = tally(data.players, (p) => `${p.firstName}|${p.lastName}|${p.birthDate}`);
    const returning = [...identities.values()].filter((n) => n > 1).length;
    expect(returning).toBeGreaterThan(data.players.length * 0.1);
  });

  it('registers children aged 5 to 14 at the start of each season they play', () => {
    for (const registration of data.registrations) {
      const player = playerById.get(registration.playerId);
      const season = seasonById.get(registration.seasonId);
      if (!player || !season) throw new Error('dangling registration');
      const [by = 0, bm = 0, bd = 0] = player.birthDate.split('-').map(Number);
      const [sy = 0, sm = 0, sd = 0] = season.startsOn.split('-').map(Number);
      const age = sy - by - (sm < bm || (sm === bm && sd < bd) ? 1 : 0);
      expect(age).toBeGreaterThanOrEqual(5);
      expect(age).toBeLessThanOrEqual(14);
    }
  });

  it('uses every division, with TEST only a few percent', () => {
    const perDivision = tally(data.registrations, (r) => r.division);
    expect([...perDivision.keys()].sort()).toEqual([...DIVISIONS].sort());
    const testShare = (perDivision.get('TEST') ?? 0) / data.registrations.length;
    expect(testShare).toBeGreaterThan(0);
    expect(testShare).toBeLessThan(0.06);
  });

  it('includes accented and hyphenated names', () => {
    const names = data.players.map((p) => `${p.firstName} ${p.lastName}`).join('\n');
    expect(names).toMatch(/José|Zoë/);
    expect(data.players.some((p) => /\p{L}-\p{L}/u.test(p.lastName))).toBe(true);
  });

  it('uses only example.org, example.com and example.net addresses and 555-01xx phone numbers', () => {
    for (const player of data.players) {
      if (player.guardianEmail) expect(player.guardianEmail).toMatch(/^[a-z0-9.]+@example\.(org|com|net)$/);
      if (player.guardianPhone) expect(player.guardianPhone).toMatch(/^\(\d{3}\) 555-01\d{2}$/);
    }
    for (const submission of data.submissions) {
      if (submission.fromEmail) expect(submission.fromEmail).toMatch(/@example\.(org|com|net)$/);
    }
  });

  it('leaves a few players without guardian details', () => {
    const without = data.players.filter((p) => p.guardianName === null).length;
    expect(without).toBeGreaterThan(0);
    expect(without).toBeLessThan(data.players.length * 0.1);
  });
});

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
      expect(doc.originalFilename).toMatch(/\.(pdf|jpg|png|HEIC)$/);
      expect(doc.mime).toMatch(/^(application\/pdf|image\/(jpeg|png|heic))$/);
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

  it('stores every document under the spec path of its player, season, division, type and submission', () => {
    for (const doc of data.documents) {
      const player = playerById.get(doc.playerId);
      const season = seasonById.get(doc.seasonId);
      const registration = registrationByKey.get(registrationKey(doc.playerId, doc.seasonId));
      if (!player || !season || !registration) throw new Error('dangling document');
      const name = sanitizeStoredName(player.firstName, player.lastName);
      const ext = doc.mime === 'application/pdf' ? 'pdf' : doc.mime === 'image/jpeg' ? 'jpg' : doc.mime === 'image/png' ? 'png' : 'heic';
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

  it('has no encryption envelope, since demo documents have no stored object', () => {
    for (const doc of data.documents) {
      expect(doc.wrappedKey ?? null).toBeNull();
      expect(doc.iv ?? null).toBeNull();
      expect(doc.authTag ?? null).toBeNull();
    }
  });
});

describe('generateDemoData: submissions', () => {
  it('uses both sources, about 70% form and 30% mailbox', () => {
    const formShare = data.submissions.filter((s) => s.source === 'form').length / data.submissions.length;
    expect(formShare).toBeGreaterThan(0.6);
    expect(formShare).toBeLessThan(0.8);
  });

  it('gives every submission an external id unique within its source, in the source format', () => {
    const keys = new Set(data.submissions.map((s) => `${s.source}|${s.externalId}`));
    expect(keys.size).toBe(data.submissions.length);
    for (const submission of data.submissions) {
      expect(submission.externalId).toMatch(
        submission.source === 'form' ? /^form-\d{6}$/ : /^<[0-9a-z.]+@[a-z]+\.example\.(org|com|net)>$/,
      );
    }
  });

  it('has roughly one submission per registration', () => {
    expect(data.submissions.length).toBeGreaterThanOrEqual(data.registrations.length);
    expect(data.submissions.length).toBeLessThan(data.registrations.length * 1.6);
  });

  it('counts the documents of each submission as its attachments', () => {
    const perSubmission = tally(data.documents, (d) => d.submissionId ?? '');
    for (const submission of data.submissions) {
      if (submission.status !== 'failed') expect(submission.attachmentCount).toBe(perSubmission.get(submission.id ?? '') ?? 0);
    }
  });

  it('marks most submissions processed, some pending, and some failed with a message staff can act on', () => {
    const perStatus = tally(data.submissions, (s) => s.status ?? 'unset');
    expect(perStatus.get('processed') ?? 0).toBeGreaterThan(data.submissions.length * 0.8);
    expect(perStatus.get('pending') ?? 0).toBeGreaterThan(0);
    const failed = data.submissions.filter((s) => s.status === 'failed');
    expect(failed.length).toBeGreaterThan(0);
    const messages = new Set(failed.map((s) => s.errorMessage));
    for (const message of ['No player name found in the e-mail', 'Attachment is not a PDF or image', 'Virus found: Eicar-Test-Signature']) {
      expect(messages).toContain(message);
    }
    expect(data.submissions.filter((s) => s.status !== 'failed').every((s) => s.errorMessage === null)).toBe(true);
    expect(data.documents.some((d) => failed.some((s) => s.id === d.submissionId))).toBe(false);
  });

  it('keeps only the newest submissions pending, with their files still processing', () => {
    const pending = data.submissions.filter((s) => s.status === 'pending');
    expect(pending.length).toBeGreaterThanOrEqual(2);
    expect(pending.length).toBeLessThan(data.submissions.length * 0.01);
    for (const submission of pending) {
      expect(requireDate(submission.receivedAt, 'receivedAt').getTime()).toBeGreaterThan(NOW.getTime() - 60 * 60 * 1000);
      const docs = data.documents.filter((d) => d.submissionId === submission.id);
      expect(docs.every((d) => d.status === 'processing')).toBe(true);
    }
  });

  it('gives mailbox submissions a registration subject, some none, and form submissions the player fields', () => {
    const mailbox = data.submissions.filter((s) => s.source === 'mailbox' && s.status !== 'failed');
    expect(mailbox.some((s) => s.subject?.startsWith('Registration documents for '))).toBe(true);
    expect(mailbox.some((s) => s.subject === null)).toBe(true);
    const form = data.submissions.find((s) => s.source === 'form' && s.status === 'processed');
    expect(form?.fields?.playerFirstName).toMatch(/^\p{L}/u);
    expect(form?.fields?.birthDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('puts several mailbox submissions, including a failed one, in the last 24 hours and the last 7 days', () => {
    const within = (ms: number) =>
      data.submissions.filter(
        (s) => s.source === 'mailbox' && requireDate(s.receivedAt, 'receivedAt').getTime() >= NOW.getTime() - ms,
      );
    expect(within(DAY_MS).length).toBeGreaterThanOrEqual(3);
    expect(within(DAY_MS).some((s) => s.status === 'failed')).toBe(true);
    expect(within(7 * DAY_MS).length).toBeGreaterThan(within(DAY_MS).length);
  });
});

describe('generateDemoData: timestamps and ids', () => {
  it('keeps every timestamp at or before now', () => {
    const stamps = [
      ...data.registrations.map((r) => r.registeredAt),
      ...data.submissions.map((s) => s.receivedAt),
      ...data.documents.flatMap((d) => [d.uploadedAt, d.reviewedAt]),
      ...data.users.flatMap((u) => [u.lastLoginAt, u.createdAt]),
      ...data.notificationHistory.flatMap((n) => [n.createdAt, n.sentAt]),
    ];
    for (const stamp of stamps) if (stamp) expect(stamp.getTime()).toBeLessThanOrEqual(NOW.getTime());
  });

  it('formats every uuid as version 4 and never repeats one', () => {
    const ids = [
      ...data.submissions.map((s) => s.id),
      ...data.documents.map((d) => d.id),
      ...data.users.map((u) => u.id),
      ...data.notificationTemplates.map((t) => t.id),
      ...data.notificationHistory.map((n) => n.id),
    ];
    for (const id of ids) expect(id).toMatch(UUID_V4);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('generateDemoData: staff and notifications', () => {
  it('creates three staff users, one per role, in different statuses, one who never logged in', () => {
    expect(data.users.map((u) => u.role).sort()).toEqual([...USER_ROLES].sort());
    expect(new Set(data.users.map((u) => u.status))).toEqual(new Set(['active', 'inactive', 'pending']));
    expect(data.users.filter((u) => u.lastLoginAt === null)).toHaveLength(1);
  });

  it('creates the four notification templates, the reminder with every placeholder, none with an unknown one', () => {
    expect(data.notificationTemplates.map((t) => [t.name, t.type])).toEqual([
      ['Missing Documents Reminder', 'email'],
      ['Deadline Reminder', 'email'],
      ['Document Rejected', 'email'],
      ['Weekly Processing Summary', 'slack'],
    ]);
    for (const template of data.notificationTemplates) {
      expect(placeholderProblem(`${template.subject ?? ''}\n${template.content}`, template.type), template.name).toBeUndefined();
    }
    const reminder = data.notificationTemplates[0];
    for (const placeholder of ['{{guardianName}}', '{{playerName}}', '{{missingDocuments}}', '{{season}}', '{{deadline}}']) {
      expect(`${reminder?.subject} ${reminder?.content}`).toContain(placeholder);
    }
  });

  it('creates about ten notification history rows in every status, failures explained, linked to templates', () => {
    expect(data.notificationHistory.length).toBeGreaterThanOrEqual(8);
    expect(data.notificationHistory.length).toBeLessThanOrEqual(12);
    expect(new Set(data.notificationHistory.map((n) => n.status))).toEqual(new Set(NOTIFICATION_STATUSES));
    const templateIds = new Set(data.notificationTemplates.map((t) => t.id));
    for (const row of data.notificationHistory) {
      expect(templateIds.has(row.templateId ?? '')).toBe(true);
      expect(row.errorMessage === null).toBe(row.status !== 'failed');
      expect(row.sentAt === null).toBe(row.status !== 'sent');
    }
  });
});

describe('generateDemoData: scale', () => {
  it('generates 50,000 players in well under the time a quadratic step would take', () => {
    const started = performance.now();
    const big = generateDemoData({ ...OPTIONS, players: 50_000 });
    const elapsedMs = performance.now() - started;
    expect(countDemoData(big).players).toBe(50_000);
    expect(big.documents.length).toBeGreaterThan(150_000);
    // About 2-4 s on one core; the budget leaves room for a busy CI machine.
    expect(elapsedMs).toBeLessThan(20_000);
  }, 60_000);
});
