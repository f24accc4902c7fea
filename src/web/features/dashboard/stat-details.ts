import { DOC_TYPE_LABELS, DOC_TYPES, type TDocType, type TStats, type TStatsBreakdown } from '../../../contract';
import { matchesSearch } from '@/lib/search-text';

/**
 * What the dashboard's detail dialogs show (DetailItem is one line of their lists), built from
 * GET /api/stats/breakdown only: every figure is the season's real data, nothing is made up.
 * Pure functions, so the expected items can be worked out by hand in the tests.
 */

/** The four summary cards; each opens a modal about its figure. */
export const STAT_KINDS = ['players', 'documents', 'pending', 'complete'] as const;
export type TStatKind = (typeof STAT_KINDS)[number];

/** A player profile's status as the detail dialogs show it. */
export const ITEM_STATUSES = ['complete', 'incomplete', 'pending', 'error'] as const;
export type TItemStatus = (typeof ITEM_STATUSES)[number];
export type TItemStatusFilter = 'all' | TItemStatus;

/** A status filter's value from a select; anything unknown reads as 'all'. */
export function toItemStatusFilter(value: string): TItemStatusFilter {
  return (ITEM_STATUSES as readonly string[]).includes(value) ? (value as TItemStatus) : 'all';
}

export const ITEM_STATUS_LABELS: Record<TItemStatus, string> = {
  complete: 'Complete',
  incomplete: 'Incomplete',
  pending: 'Pending',
  error: 'Error',
};

/** The colour of a breakdown card or bar; the components map it to classes that pass contrast in both themes. */
export type TTone = 'green' | 'red' | 'orange' | 'blue' | 'violet' | 'teal' | 'amber' | 'slate';

/** One line of a detail dialog's list: id, name, status, value, metadata, children. */
export interface DetailItem {
  id: string;
  name: string;
  status: TItemStatus;
  value: number;
  /** Label → text, shown under the name and written to the CSV. */
  metadata: Record<string, string>;
  children: DetailItem[];
}

/** A card of the Overview tab: a count, its colour and its share of a named whole. */
export interface BreakdownCard {
  id: string;
  label: string;
  count: number;
  /** Whole percent of `of`, 0 when the whole is 0. */
  percent: number;
  /** What the percentage is of, e.g. 'players' in '40% of players'. */
  of: string;
  tone: TTone;
}

/** A bar of the Analytics tab's status distribution. */
export interface DistributionRow {
  id: string;
  label: string;
  count: number;
  total: number;
  percent: number;
  tone: TTone;
}

export interface StatCardSpec {
  kind: TStatKind;
  title: string;
  testId: string;
  value: (stats: TStats) => number;
  subtitle: (stats: TStats) => string;
  /** One sentence under the modal's title. */
  describe: (breakdown: TStatsBreakdown) => string;
}

/** Whole percent of a whole; 0 of 0 is 0 %. */
export function percentOf(count: number, whole: number): number {
  if (whole <= 0) return 0;
  return Math.round((count / whole) * 100);
}

const plural = (count: number, one: string, many = `${one}s`): string => `${count} ${count === 1 ? one : many}`;

/** Every document of the season the breakdown counts, rejected ones included. */
export const documentsReceived = (breakdown: TStatsBreakdown): number =>
  Object.values(breakdown.documentsByStatus).reduce((sum, count) => sum + count, 0);

/** The dashboard's four summary cards, in order. */
export const STAT_CARDS: readonly StatCardSpec[] = [
  {
    kind: 'players',
    title: 'Total Players',
    testId: 'stat-total-players',
    value: (stats) => stats.totalPlayers,
    subtitle: () => 'Active registrations',
    describe: (b) => `${plural(b.players.total, 'player')} registered for ${b.season.name}, by profile status and division.`,
  },
  {
    kind: 'documents',
    title: 'Documents Uploaded',
    testId: 'stat-documents-uploaded',
    value: (stats) => stats.documentsUploaded,
    subtitle: () => 'Files processed',
    describe: (b) =>
      `${plural(documentsReceived(b), 'document')} received for ${b.season.name}, by status and document type; ${b.documentsByStatus.rejected} rejected.`,
  },
  {
    kind: 'pending',
    title: 'Pending Review',
    testId: 'stat-pending-review',
    value: (stats) => stats.pendingReview,
    subtitle: () => 'Needs attention',
    describe: (b) => `${plural(b.documentsByStatus.pending, 'document')} awaiting a review decision for ${b.season.name}, by document type.`,
  },
  {
    kind: 'complete',
    title: 'Complete Profiles',
    testId: 'stat-complete-profiles',
    value: (stats) => stats.completeProfiles,
    subtitle: (stats) => `${percentOf(stats.completeProfiles, stats.totalPlayers)}% of total`,
    describe: (b) => `${plural(b.players.complete, 'player')} of ${b.players.total} with all four documents verified for ${b.season.name}.`,
  },
];

export function statCardSpec(kind: TStatKind): StatCardSpec {
  const spec = STAT_CARDS.find((card) => card.kind === kind);
  if (!spec) throw new Error(`Unknown stat card ${kind}`);
  return spec;
}

/** Each document type keeps one colour across cards and bars. */
export const DOC_TYPE_TONES: Record<TDocType, TTone> = {
  birth_certificate: 'blue',
  residency: 'violet',
  medical: 'teal',
  waiver: 'amber',
};

const docTypeRow = (breakdown: TStatsBreakdown, docType: TDocType) =>
  breakdown.byDocType.find((row) => row.docType === docType) ?? { docType, complete: 0, pending: 0, processing: 0, missing: 0 };

/** The divisions that have players this season, largest first (ties in the contract's order). */
function divisionsWithPlayers(breakdown: TStatsBreakdown) {
  return breakdown.byDivision.filter((row) => row.players > 0).sort((a, b) => b.players - a.players);
}

function card(id: string, label: string, count: number, whole: number, of: string, tone: TTone): BreakdownCard {
  return { id, label, count, percent: percentOf(count, whole), of, tone };
}

/** The Overview tab's four cards for one summary card. */
export function buildOverviewCards(kind: TStatKind, breakdown: TStatsBreakdown): BreakdownCard[] {
  const { players, documentsByStatus } = breakdown;
  switch (kind) {
    case 'players': {
      const largest = divisionsWithPlayers(breakdown)[0];
      return [
        card('complete', 'Complete profiles', players.complete, players.total, 'players', 'green'),
        card('incomplete', 'Incomplete profiles', players.incomplete, players.total, 'players', 'red'),
        card('with-pending', 'Awaiting review', players.withPending, players.total, 'players', 'orange'),
        card(
          'largest-division',
          largest ? `Largest division: ${largest.division}` : 'Largest division',
          largest?.players ?? 0,
          players.total,
          'players',
          'blue',
        ),
      ];
    }
    case 'documents': {
      const received = documentsReceived(breakdown);
      return [
        card('verified', 'Verified', documentsByStatus.verified, received, 'documents', 'green'),
        card('pending', 'Under Review', documentsByStatus.pending, received, 'documents', 'orange'),
        card('processing', 'Processing', documentsByStatus.processing, received, 'documents', 'blue'),
        card('rejected', 'Rejected', documentsByStatus.rejected, received, 'documents', 'red'),
      ];
    }
    case 'pending':
      return DOC_TYPES.map((docType) =>
        card(docType, DOC_TYPE_LABELS[docType], docTypeRow(breakdown, docType).pending, players.total, 'players', DOC_TYPE_TONES[docType]),
      );
    case 'complete':
      return DOC_TYPES.map((docType) =>
        card(
          docType,
          `${DOC_TYPE_LABELS[docType]} verified`,
          docTypeRow(breakdown, docType).complete,
          players.total,
          'players',
          DOC_TYPE_TONES[docType],
        ),
      );
  }
}

function item(id: string, name: string, status: TItemStatus, value: number, metadata: Record<string, string> = {}, children: DetailItem[] = []): DetailItem {
  return { id, name, status, value, metadata, children };
}

/** Divisions → complete and incomplete profiles; `value` is the division's players or its complete ones. */
function divisionItems(breakdown: TStatsBreakdown, value: 'players' | 'complete'): DetailItem[] {
  return divisionsWithPlayers(breakdown).map(({ division, players, complete }) => {
    const incomplete = players - complete;
    return item(
      `division-${division}`,
      `${division} division`,
      incomplete === 0 ? 'complete' : 'incomplete',
      value === 'players' ? players : complete,
      { Players: String(players), Complete: String(complete), Completion: `${percentOf(complete, players)}%` },
      [
        item(`division-${division}-complete`, 'Complete profiles', 'complete', complete),
        item(`division-${division}-incomplete`, 'Incomplete profiles', 'incomplete', incomplete),
      ],
    );
  });
}

/** Document types → players whose best document of the type is verified, under review, processing or missing. */
function docTypeItems(breakdown: TStatsBreakdown): DetailItem[] {
  return DOC_TYPES.map((docType) => {
    const { complete, pending, processing, missing } = docTypeRow(breakdown, docType);
    const status: TItemStatus = pending + processing > 0 ? 'pending' : missing > 0 ? 'incomplete' : 'complete';
    return item(
      `type-${docType}`,
      DOC_TYPE_LABELS[docType],
      status,
      complete + pending + processing,
      { Verified: String(complete), 'Under review': String(pending), Processing: String(processing), Missing: String(missing) },
      [
        item(`type-${docType}-verified`, 'Verified', 'complete', complete),
        item(`type-${docType}-pending`, 'Under Review', 'pending', pending),
        item(`type-${docType}-processing`, 'Processing', 'pending', processing),
        item(`type-${docType}-missing`, 'Missing', 'incomplete', missing),
      ],
    );
  });
}

/** The Details tab's tree for one summary card. */
export function buildDetailItems(kind: TStatKind, breakdown: TStatsBreakdown): DetailItem[] {
  const { documentsByStatus, undetectedType } = breakdown;
  switch (kind) {
    case 'players':
      return divisionItems(breakdown, 'players');
    case 'complete':
      return divisionItems(breakdown, 'complete');
    case 'documents':
      return [
        ...docTypeItems(breakdown),
        item('rejected', 'Rejected documents', 'error', documentsByStatus.rejected),
        item('undetected', 'Type not detected', 'pending', undetectedType, { Note: 'Needs a person to name its type' }),
      ];
    case 'pending':
      return [
        item(
          'under-review',
          'Under Review',
          'pending',
          documentsByStatus.pending,
          { Documents: String(documentsByStatus.pending) },
          DOC_TYPES.map((docType) =>
            item(`under-review-${docType}`, DOC_TYPE_LABELS[docType], 'pending', docTypeRow(breakdown, docType).pending, { Counts: 'players' }),
          ),
        ),
        item(
          'processing',
          'Processing',
          'pending',
          documentsByStatus.processing,
          { Documents: String(documentsByStatus.processing) },
          DOC_TYPES.map((docType) =>
            item(`processing-${docType}`, DOC_TYPE_LABELS[docType], 'pending', docTypeRow(breakdown, docType).processing, { Counts: 'players' }),
          ),
        ),
        item('undetected', 'Type not detected', 'pending', undetectedType, { Note: 'Needs a person to name its type' }),
      ];
  }
}

export interface ItemFilter {
  search: string;
  status: TItemStatusFilter;
}

/**
 * The search (a substring, ignoring case and accents) and the status filter over the tree. An item stays when it
 * matches both, or when a descendant does (so the path to a match stays visible); a match on a parent's
 * name carries down to its children, which then only need the status.
 */
export function filterItems(items: readonly DetailItem[], filter: ItemFilter, ancestorMatchesSearch = false): DetailItem[] {
  const kept: DetailItem[] = [];
  for (const entry of items) {
    const searchOk = ancestorMatchesSearch || matchesSearch(entry.name, filter.search);
    const statusOk = filter.status === 'all' || entry.status === filter.status;
    const children = filterItems(entry.children, filter, searchOk);
    if ((searchOk && statusOk) || children.length > 0) kept.push({ ...entry, children });
  }
  return kept;
}

export const DETAIL_CSV_HEADER = ['Group', 'Item', 'Status', 'Value', 'Details'] as const;

/** The visible items, parents before their children, as rows of {@link DETAIL_CSV_HEADER}. */
export function detailCsvRows(items: readonly DetailItem[], group = ''): string[][] {
  return items.flatMap((entry) => [
    [
      group,
      entry.name,
      ITEM_STATUS_LABELS[entry.status],
      String(entry.value),
      Object.entries(entry.metadata)
        .map(([label, text]) => `${label}: ${text}`)
        .join('; '),
    ],
    ...detailCsvRows(entry.children, group ? `${group} / ${entry.name}` : entry.name),
  ]);
}

/** 'clearbase-pending-review-fall-2025-2026-11-22T11-24-07.csv' */
export function detailCsvFileName(kind: TStatKind, seasonId: string, timestamp: string): string {
  const slug = statCardSpec(kind).title.toLowerCase().replace(/\s+/g, '-');
  return `clearbase-${slug}-${seasonId}-${timestamp}.csv`;
}

function row(id: string, label: string, count: number, total: number, tone: TTone): DistributionRow {
  return { id, label, count, total, percent: percentOf(count, total), tone };
}

/** The Analytics tab's status distribution for one summary card. */
export function buildDistribution(kind: TStatKind, breakdown: TStatsBreakdown): DistributionRow[] {
  const { players, documentsByStatus } = breakdown;
  switch (kind) {
    case 'players':
      return [
        row('complete', 'Complete', players.complete, players.total, 'green'),
        row('incomplete', 'Incomplete', players.incomplete, players.total, 'red'),
        row('with-pending', 'Awaiting review', players.withPending, players.total, 'orange'),
      ];
    case 'documents': {
      const received = documentsReceived(breakdown);
      return [
        row('verified', 'Verified', documentsByStatus.verified, received, 'green'),
        row('pending', 'Under Review', documentsByStatus.pending, received, 'orange'),
        row('processing', 'Processing', documentsByStatus.processing, received, 'blue'),
        row('rejected', 'Rejected', documentsByStatus.rejected, received, 'red'),
      ];
    }
    case 'pending':
      return DOC_TYPES.map((docType) =>
        row(docType, DOC_TYPE_LABELS[docType], docTypeRow(breakdown, docType).pending, players.total, DOC_TYPE_TONES[docType]),
      );
    case 'complete':
      return divisionsWithPlayers(breakdown).map(({ division, players: inDivision, complete }) =>
        row(`division-${division}`, `${division} division`, complete, inDivision, 'green'),
      );
  }
}

/** What a distribution row's count is out of, for its caption. */
export const DISTRIBUTION_WHOLE: Record<TStatKind, string> = {
  players: 'players',
  documents: 'documents',
  pending: 'players',
  complete: 'players in the division',
};

export type TTrendDirection = 'up' | 'down' | 'flat';

export interface CompletionTrend {
  now: number;
  weekAgo: number;
  /** Percentage points, rounded to one decimal. */
  change: number;
  direction: TTrendDirection;
  /** '+2.5 pts', '−1.0 pts', '0.0 pts' */
  changeText: string;
}

const oneDecimal = (value: number): number => Math.round(value * 10) / 10;

/** Completion rate now against a week ago: a rise is good news, a fall bad. */
export function completionTrend(breakdown: Pick<TStatsBreakdown, 'completionRate' | 'completionRateWeekAgo'>): CompletionTrend {
  const now = oneDecimal(breakdown.completionRate);
  const weekAgo = oneDecimal(breakdown.completionRateWeekAgo);
  const change = oneDecimal(now - weekAgo);
  const direction: TTrendDirection = change > 0 ? 'up' : change < 0 ? 'down' : 'flat';
  const sign = direction === 'up' ? '+' : direction === 'down' ? '\u2212' : '';
  return { now, weekAgo, change, direction, changeText: `${sign}${Math.abs(change).toFixed(1)} pts` };
}

/** Mean review time as people read it: '45 min', '2.3 h', '3.1 days'; null when nothing was reviewed. */
export function formatReviewHours(hours: number | null): string | null {
  if (hours === null || !Number.isFinite(hours)) return null;
  if (hours < 1) return `${Math.max(1, Math.round(hours * 60))} min`;
  if (hours < 48) return `${oneDecimal(hours).toFixed(1)} h`;
  return `${oneDecimal(hours / 24).toFixed(1)} days`;
}
