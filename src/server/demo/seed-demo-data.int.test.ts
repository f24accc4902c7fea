import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '../../../tests/support/databases';
import { listAuditEventsByAction } from '../audit/audit-events.repository';
import { countDemoRows } from './demo.repository';
import { countDocuments } from '../documents/documents.repository';
import { countSubmissions } from '../pipeline/submissions.repository';
import { countDemoData, generateDemoData, type DemoDataOptions } from './generate-demo-data';
import { replaceWithDemoData, seedDemoDataIfEmpty, type SeedIfEmptyResult, type SeedProgress } from './seed-demo-data';

const OPTIONS: DemoDataOptions = { seed: 7, players: 150, idPrefix: 'CB', now: new Date('2025-10-15T12:00:00Z') };
/** Small chunks, so the test also covers writing a seed in several steps inside one transaction. */
const SEED_OPTIONS = { ...OPTIONS, playersPerChunk: 40 };

describeEachDatabase('seedDemoDataIfEmpty', ({ getDb }) => {
  let firstCalls: SeedIfEmptyResult[] = [];

  beforeAll(async () => {
    // Two callers at once, as two instances starting on one empty database would.
    firstCalls = await Promise.all([seedDemoDataIfEmpty(getDb(), SEED_OPTIONS), seedDemoDataIfEmpty(getDb(), SEED_OPTIONS)]);
  });

  it('seeds an empty database exactly once when two callers race', () => {
    expect(firstCalls.filter((call) => call.seeded)).toHaveLength(1);
  });

  it('writes exactly the generated rows to every table and reports those counts', async () => {
    const expected = countDemoData(generateDemoData(OPTIONS));
    expect(await countDemoRows(getDb())).toEqual(expected);
    const seeded = firstCalls.find((call) => call.seeded);
    expect(seeded?.seeded && seeded.counts).toEqual(expected);
  });

  it('keeps every document status and both submission sources through the round trip', async () => {
    for (const status of ['verified', 'pending', 'processing', 'rejected'] as const) {
      expect(await countDocuments(getDb(), status)).toBeGreaterThan(0);
    }
    expect(await countSubmissions(getDb(), 'form')).toBeGreaterThan(0);
    expect(await countSubmissions(getDb(), 'mailbox')).toBeGreaterThan(0);
  });

  it('records one demo.seeded audit event by the system, with the counts', async () => {
    const events = await listAuditEventsByAction(getDb(), 'demo.seeded');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ actor: 'system', subjectType: 'database' });
    expect(events[0]?.detail).toMatchObject({ counts: countDemoData(generateDemoData(OPTIONS)) });
  });

  it('leaves a seeded database untouched and says it did not seed', async () => {
    const before = await countDemoRows(getDb());
    await expect(seedDemoDataIfEmpty(getDb(), { ...SEED_OPTIONS, seed: 8 })).resolves.toEqual({ seeded: false });
    expect(await countDemoRows(getDb())).toEqual(before);
    expect(await listAuditEventsByAction(getDb(), 'demo.seeded')).toHaveLength(1);
  });

  it('replaces everything with a fresh demo on reset, reporting progress after each chunk', async () => {
    const options = { ...OPTIONS, seed: 9, players: 120 };
    const progress: SeedProgress[] = [];
    const counts = await replaceWithDemoData(getDb(), { ...options, playersPerChunk: 50, onProgress: (p) => progress.push(p) });
    expect(counts).toEqual(countDemoData(generateDemoData(options)));
    expect(progress.map((p) => p.players)).toEqual([50, 100, 120]);
    expect(progress.at(-1)?.written).toEqual(counts);
    expect(await countDemoRows(getDb())).toEqual(counts);
    expect(await listAuditEventsByAction(getDb(), 'demo.seeded')).toHaveLength(1);
  });
});
