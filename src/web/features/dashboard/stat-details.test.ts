import { describe, expect, it } from 'vitest';
import type { TStatsBreakdown } from '../../../contract';
import {
  buildDetailItems,
  buildDistribution,
  buildOverviewCards,
  completionTrend,
  DETAIL_CSV_HEADER,
  detailCsvFileName,
  detailCsvRows,
  filterItems,
  formatReviewHours,
  percentOf,
  STAT_CARDS,
  toItemStatusFilter,
  type DetailItem,
} from './stat-details';

/** A season small enough to work every figure out by hand. */
const BREAKDOWN: TStatsBreakdown = {
  season: { id: 'fall-2025', name: 'Fall Ball 2025', year: 2025 },
  players: { total: 40, complete: 10, incomplete: 30, withPending: 12 },
  byDivision: [
    { division: 'AAA', players: 20, complete: 6 },
    { division: 'AA', players: 15, complete: 4 },
    { division: 'A', players: 5, complete: 0 },
    { division: 'TEST', players: 0, complete: 0 },
    { division: 'Peewee', players: 0, complete: 0 },
  ],
  byDocType: [
    { docType: 'birth_certificate', complete: 30, pending: 4, processing: 1, missing: 5 },
    { docType: 'residency', complete: 25, pending: 6, processing: 0, missing: 9 },
    { docType: 'medical', complete: 20, pending: 3, processing: 2, missing: 15 },
    { docType: 'waiver', complete: 35, pending: 0, processing: 0, missing: 5 },
  ],
  documentsByStatus: { verified: 110, pending: 14, processing: 3, rejected: 3 },
  undetectedType: 2,
  completionRate: 25,
  completionRateWeekAgo: 22.5,
  averageReviewHours: 2.34,
  recent: [],
};

const STATS = { season: BREAKDOWN.season, totalPlayers: 40, documentsUploaded: 127, pendingReview: 14, completeProfiles: 10, expiringSoon: 3 };

/** Only what a test checks: name, status, value and children, in order. */
type Shape = { name: string; status: string; value: number; children?: Shape[] };
const shape = (items: readonly DetailItem[]): Shape[] =>
  items.map(({ name, status, value, children }) =>
    children.length > 0 ? { name, status, value, children: shape(children) } : { name, status, value },
  );

describe('percentOf', () => {
  it('rounds to a whole percent and reads 0 of 0 as 0', () => {
    expect(percentOf(1, 3)).toBe(33);
    expect(percentOf(3, 40)).toBe(8);
    expect(percentOf(5, 0)).toBe(0);
  });
});

describe('STAT_CARDS', () => {
  it('reads each card’s figure and subtitle from the stats, the complete share as a percentage of the total', () => {
    expect(STAT_CARDS.map((card) => [card.title, card.value(STATS), card.subtitle(STATS)])).toEqual([
      ['Total Players', 40, 'Active registrations'],
      ['Documents Uploaded', 127, 'Files processed'],
      ['Pending Review', 14, 'Needs attention'],
      ['Complete Profiles', 10, '25% of total'],
    ]);
  });

  it('says 0% of total for a season without players', () => {
    const empty = { ...STATS, totalPlayers: 0, completeProfiles: 0 };
    expect(STAT_CARDS[3]?.subtitle(empty)).toBe('0% of total');
  });
});

describe('buildOverviewCards', () => {
  const cards = (kind: Parameters<typeof buildOverviewCards>[0]) =>
    buildOverviewCards(kind, BREAKDOWN).map(({ label, count, percent, of, tone }) => [label, count, percent, of, tone]);

  it('players: complete, incomplete, awaiting review and the largest division, each of all players', () => {
    expect(cards('players')).toEqual([
      ['Complete profiles', 10, 25, 'players', 'green'],
      ['Incomplete profiles', 30, 75, 'players', 'red'],
      ['Awaiting review', 12, 30, 'players', 'orange'],
      ['Largest division: AAA', 20, 50, 'players', 'blue'],
    ]);
  });

  it('documents: the four statuses, each of every document received (rejected included: 130)', () => {
    expect(cards('documents')).toEqual([
      ['Verified', 110, 85, 'documents', 'green'],
      ['Under Review', 14, 11, 'documents', 'orange'],
      ['Processing', 3, 2, 'documents', 'blue'],
      ['Rejected', 3, 2, 'documents', 'red'],
    ]);
  });

  it('pending review: players with each document type under review', () => {
    expect(cards('pending')).toEqual([
      ['Birth Certificate', 4, 10, 'players', 'blue'],
      ['Residency Proof', 6, 15, 'players', 'violet'],
      ['Medical Form', 3, 8, 'players', 'teal'],
      ['Liability Waiver', 0, 0, 'players', 'amber'],
    ]);
  });

  it('complete profiles: players with each document type verified', () => {
    expect(cards('complete')).toEqual([
      ['Birth Certificate verified', 30, 75, 'players', 'blue'],
      ['Residency Proof verified', 25, 63, 'players', 'violet'],
      ['Medical Form verified', 20, 50, 'players', 'teal'],
      ['Liability Waiver verified', 35, 88, 'players', 'amber'],
    ]);
  });

  it('names no largest division when the season has no players', () => {
    const empty: TStatsBreakdown = {
      ...BREAKDOWN,
      players: { total: 0, complete: 0, incomplete: 0, withPending: 0 },
      byDivision: BREAKDOWN.byDivision.map((row) => ({ ...row, players: 0, complete: 0 })),
    };
    expect(buildOverviewCards('players', empty)[3]).toMatchObject({ label: 'Largest division', count: 0, percent: 0 });
  });
});

describe('buildDetailItems', () => {
  it('players: divisions with players, largest first, each with its complete and incomplete profiles', () => {
    const items = buildDetailItems('players', BREAKDOWN);
    expect(shape(items)).toEqual([
      {
        name: 'AAA division',
        status: 'incomplete',
        value: 20,
        children: [
          { name: 'Complete profiles', status: 'complete', value: 6 },
          { name: 'Incomplete profiles', status: 'incomplete', value: 14 },
        ],
      },
      {
        name: 'AA division',
        status: 'incomplete',
        value: 15,
        children: [
          { name: 'Complete profiles', status: 'complete', value: 4 },
          { name: 'Incomplete profiles', status: 'incomplete', value: 11 },
        ],
      },
      {
        name: 'A division',
        status: 'incomplete',
        value: 5,
        children: [
          { name: 'Complete profiles', status: 'complete', value: 0 },
          { name: 'Incomplete profiles', status: 'incomplete', value: 5 },
        ],
      },
    ]);
    expect(items[1]?.metadata).toEqual({ Players: '15', Complete: '4', Completion: '27%' });
  });

  it('complete profiles: the same divisions valued by their complete players; a fully complete division is complete', () => {
    const allDone: TStatsBreakdown = { ...BREAKDOWN, byDivision: [{ division: 'AA', players: 3, complete: 3 }] };
    expect(shape(buildDetailItems('complete', BREAKDOWN)).map(({ name, value }) => [name, value])).toEqual([
      ['AAA division', 6],
      ['AA division', 4],
      ['A division', 0],
    ]);
    expect(buildDetailItems('complete', allDone)[0]).toMatchObject({ name: 'AA division', status: 'complete', value: 3 });
  });

  it('documents: each type with players on file and its four statuses, then rejected and undetected documents', () => {
    const items = buildDetailItems('documents', BREAKDOWN);
    expect(shape(items)).toEqual([
      {
        name: 'Birth Certificate',
        status: 'pending',
        value: 35,
        children: [
          { name: 'Verified', status: 'complete', value: 30 },
          { name: 'Under Review', status: 'pending', value: 4 },
          { name: 'Processing', status: 'pending', value: 1 },
          { name: 'Missing', status: 'incomplete', value: 5 },
        ],
      },
      {
        name: 'Residency Proof',
        status: 'pending',
        value: 31,
        children: [
          { name: 'Verified', status: 'complete', value: 25 },
          { name: 'Under Review', status: 'pending', value: 6 },
          { name: 'Processing', status: 'pending', value: 0 },
          { name: 'Missing', status: 'incomplete', value: 9 },
        ],
      },
      {
        name: 'Medical Form',
        status: 'pending',
        value: 25,
        children: [
          { name: 'Verified', status: 'complete', value: 20 },
          { name: 'Under Review', status: 'pending', value: 3 },
          { name: 'Processing', status: 'pending', value: 2 },
          { name: 'Missing', status: 'incomplete', value: 15 },
        ],
      },
      {
        // Nothing under review or processing, five missing: incomplete.
        name: 'Liability Waiver',
        status: 'incomplete',
        value: 35,
        children: [
          { name: 'Verified', status: 'complete', value: 35 },
          { name: 'Under Review', status: 'pending', value: 0 },
          { name: 'Processing', status: 'pending', value: 0 },
          { name: 'Missing', status: 'incomplete', value: 5 },
        ],
      },
      { name: 'Rejected documents', status: 'error', value: 3 },
      { name: 'Type not detected', status: 'pending', value: 2 },
    ]);
    expect(items[3]?.metadata).toEqual({ Verified: '35', 'Under review': '0', Processing: '0', Missing: '5' });
  });

  it('pending review: documents under review and still processing, each by type, then documents of no detected type', () => {
    expect(shape(buildDetailItems('pending', BREAKDOWN))).toEqual([
      {
        name: 'Under Review',
        status: 'pending',
        value: 14,
        children: [
          { name: 'Birth Certificate', status: 'pending', value: 4 },
          { name: 'Residency Proof', status: 'pending', value: 6 },
          { name: 'Medical Form', status: 'pending', value: 3 },
          { name: 'Liability Waiver', status: 'pending', value: 0 },
        ],
      },
      {
        name: 'Processing',
        status: 'pending',
        value: 3,
        children: [
          { name: 'Birth Certificate', status: 'pending', value: 1 },
          { name: 'Residency Proof', status: 'pending', value: 0 },
          { name: 'Medical Form', status: 'pending', value: 2 },
          { name: 'Liability Waiver', status: 'pending', value: 0 },
        ],
      },
      { name: 'Type not detected', status: 'pending', value: 2 },
    ]);
  });

  it('gives every item an id unique within its tree', () => {
    for (const kind of ['players', 'documents', 'pending', 'complete'] as const) {
      const ids: string[] = [];
      const walk = (items: readonly DetailItem[]) =>
        items.forEach((item) => {
          ids.push(item.id);
          walk(item.children);
        });
      walk(buildDetailItems(kind, BREAKDOWN));
      expect(new Set(ids).size).toBe(ids.length);
    }
  });
});

describe('filterItems', () => {
  const players = buildDetailItems('players', BREAKDOWN);
  const names = (items: readonly DetailItem[]) => shape(items).map(({ name, children }) => [name, (children ?? []).map((c) => c.name)]);

  it('keeps everything with no search and All', () => {
    expect(filterItems(players, { search: '', status: 'all' })).toEqual(players);
  });

  it('matches names case-insensitively, and a matching parent keeps its children', () => {
    expect(names(filterItems(players, { search: 'aa', status: 'all' }))).toEqual([
      ['AAA division', ['Complete profiles', 'Incomplete profiles']],
      ['AA division', ['Complete profiles', 'Incomplete profiles']],
    ]);
  });

  it('keeps the parents of a matching child, with only the children that match', () => {
    expect(names(filterItems(players, { search: 'INCOMPLETE', status: 'all' }))).toEqual([
      ['AAA division', ['Incomplete profiles']],
      ['AA division', ['Incomplete profiles']],
      ['A division', ['Incomplete profiles']],
    ]);
  });

  it('filters by status through the tree', () => {
    expect(names(filterItems(players, { search: '', status: 'complete' }))).toEqual([
      ['AAA division', ['Complete profiles']],
      ['AA division', ['Complete profiles']],
      ['A division', ['Complete profiles']],
    ]);
    expect(names(filterItems(buildDetailItems('documents', BREAKDOWN), { search: '', status: 'error' }))).toEqual([['Rejected documents', []]]);
  });

  it('needs both the search and the status', () => {
    expect(names(filterItems(players, { search: 'AAA', status: 'incomplete' }))).toEqual([['AAA division', ['Incomplete profiles']]]);
  });

  it('answers nothing for text no item holds', () => {
    expect(filterItems(players, { search: 'zzz-no-such-item', status: 'all' })).toEqual([]);
  });

  it('reads an unknown select value as All', () => {
    expect(toItemStatusFilter('pending')).toBe('pending');
    expect(toItemStatusFilter('bogus')).toBe('all');
  });
});

describe('detailCsvRows', () => {
  it('writes each visible item after its parent, with its group path, status label, value and details', () => {
    const visible = filterItems(buildDetailItems('players', BREAKDOWN), { search: 'AAA', status: 'all' });
    expect(DETAIL_CSV_HEADER).toEqual(['Group', 'Item', 'Status', 'Value', 'Details']);
    expect(detailCsvRows(visible)).toEqual([
      ['', 'AAA division', 'Incomplete', '20', 'Players: 20; Complete: 6; Completion: 30%'],
      ['AAA division', 'Complete profiles', 'Complete', '6', ''],
      ['AAA division', 'Incomplete profiles', 'Incomplete', '14', ''],
    ]);
  });

  it('writes nothing for an empty list', () => {
    expect(detailCsvRows([])).toEqual([]);
  });

  it('names the file after the card, the season and the time', () => {
    expect(detailCsvFileName('pending', 'fall-2025', '2026-11-22T11-24-07')).toBe('clearbase-pending-review-fall-2025-2026-11-22T11-24-07.csv');
  });
});

describe('buildDistribution', () => {
  const bars = (kind: Parameters<typeof buildDistribution>[0], breakdown = BREAKDOWN) =>
    buildDistribution(kind, breakdown).map(({ label, count, total, percent }) => [label, count, total, percent]);

  it('players: complete, incomplete and awaiting review out of all players', () => {
    expect(bars('players')).toEqual([
      ['Complete', 10, 40, 25],
      ['Incomplete', 30, 40, 75],
      ['Awaiting review', 12, 40, 30],
    ]);
  });

  it('documents: each status out of every document received', () => {
    expect(bars('documents')).toEqual([
      ['Verified', 110, 130, 85],
      ['Under Review', 14, 130, 11],
      ['Processing', 3, 130, 2],
      ['Rejected', 3, 130, 2],
    ]);
  });

  it('pending review: players with each type under review', () => {
    expect(bars('pending')).toEqual([
      ['Birth Certificate', 4, 40, 10],
      ['Residency Proof', 6, 40, 15],
      ['Medical Form', 3, 40, 8],
      ['Liability Waiver', 0, 40, 0],
    ]);
  });

  it('complete profiles: each division’s complete players out of its own players', () => {
    expect(bars('complete')).toEqual([
      ['AAA division', 6, 20, 30],
      ['AA division', 4, 15, 27],
      ['A division', 0, 5, 0],
    ]);
  });
});

describe('completionTrend', () => {
  it('signs a rise with + and calls it up', () => {
    expect(completionTrend(BREAKDOWN)).toEqual({ now: 25, weekAgo: 22.5, change: 2.5, direction: 'up', changeText: '+2.5 pts' });
  });

  it('signs a fall with a minus sign and calls it down', () => {
    expect(completionTrend({ completionRate: 20, completionRateWeekAgo: 23.4 })).toMatchObject({
      change: -3.4,
      direction: 'down',
      changeText: '\u22123.4 pts',
    });
  });

  it('calls no change flat, without a sign', () => {
    expect(completionTrend({ completionRate: 10, completionRateWeekAgo: 10 })).toMatchObject({ change: 0, direction: 'flat', changeText: '0.0 pts' });
  });

  it('rounds to one decimal before comparing, so noise below 0.05 points is flat', () => {
    expect(completionTrend({ completionRate: 33.333, completionRateWeekAgo: 33.331 }).direction).toBe('flat');
  });
});

describe('formatReviewHours', () => {
  it('reads minutes below an hour, hours below two days, then days', () => {
    expect(formatReviewHours(0.25)).toBe('15 min');
    expect(formatReviewHours(0.001)).toBe('1 min');
    expect(formatReviewHours(2.34)).toBe('2.3 h');
    expect(formatReviewHours(50)).toBe('2.1 days');
  });

  it('has no figure when nothing was reviewed', () => {
    expect(formatReviewHours(null)).toBeNull();
  });
});
