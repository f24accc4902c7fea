import { describe, expect, it } from 'vitest';
import { countDemoData, generateDemoData, generateDemoDataInChunks, type DemoData } from './generate-demo-data';
import { data, NOW, OPTIONS, UUID_V4 } from './demo-data.fixture';

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

describe('generateDemoData: scale', () => {
  // How long it takes is the start bench's to measure (npm run bench -- --only start), never a test's: a
  // time limit here failed on a busy machine while the code was right.
  it('generates a league of 50,000 players with their documents', () => {
    const big = generateDemoData({ ...OPTIONS, players: 50_000 });
    expect(countDemoData(big).players).toBe(50_000);
    expect(big.documents.length).toBeGreaterThan(150_000);
  }, 120_000);
});
