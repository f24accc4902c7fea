import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { z } from 'zod';
import {
  MAX_DOCUMENTS_PAGE_SIZE,
  NOTIFICATION_HISTORY_PAGE_SIZE,
  SEASON_REPORT_MAX_PLAYERS,
  ZDocumentList,
  ZMissingReport,
  ZNotificationHistory,
  ZPlayerReport,
  ZPlayerTimeline,
  ZRecentUploads,
  ZSeasonReport,
  ZStats,
  ZUserList,
  type TDocType,
  type TDocumentStatus,
} from '../src/contract';
import { CONFIG_VARIABLES } from '../src/server/platform/config';
import { openDatabase, POSTGRES_POOL_SIZE, type Database, type Db } from '../src/server/platform/db/client';
import { lastActionTimes, listPlayerEvents } from '../src/server/audit';
import {
  countDocumentList,
  documentListPageQuery,
  listPlayerTimelineDocuments,
  recentUploadsRead,
  type DocumentListFilter,
} from '../src/server/documents/documents.repository';
import { countNotificationHistory, listNotificationHistory, listPlayerNotificationHistory } from '../src/server/notifications/notification-history.repository';
import { QUIET_DOCUMENT_ACTIONS } from '../src/server/players/player-timeline';
import { listPlayerRegistrations } from '../src/server/players/registrations.repository';
import { documentReadingView } from '../src/server/reading';
import {
  findPlayerRegistration,
  listPlayerSeasonDocuments,
  missingReportCountsRead,
  missingReportPageRead,
  statsRead,
  type ReportFilters,
} from '../src/server/reports/reports.repository';
import { seasonReportQueries } from '../src/server/reports/season-report.repository';
import {
  auditEvents as auditEventsTable,
  documents as documentsTable,
  notificationHistory as notificationHistoryTable,
  players as playersTable,
  registrations as registrationsTable,
  schema,
  users as usersTable,
} from '../src/server/platform/db/schema';
import { insertSeasons, resolveSeason } from '../src/server/seasons/seasons.repository';
import { findUsers } from '../src/server/users/users.repository';
import { freePort, signIn } from '../tests/support/child-server';
import { ensureWebBuild } from '../scripts/ensure-web-build';
import { figure, type BenchFigure } from './figures';
import { processCpuMs, startServerProcess, summarize, type Latencies, type ServerProcess } from './server-process';
import { formatGrowthTable, growthFigures, type GrowthCase, type GrowthResult, type GrowthSize } from './growth.bench';
import type { FloorRoutes } from './http-floor';
import { formatPlayersScreen, measurePlayersScreen, type PlayersScreenTimings } from './players-screen.bench';
import { BENCH_EARLIER_SEASON, BENCH_SEASON, createScratchDatabase, DEFAULT_POSTGRES_URL } from './support';

/**
 * Every screen's first call at league scale. A scratch PostgreSQL database gets `players` players (one
 * registration each in the current season, divisions spread), about 4 documents each, 40 staff accounts, the
 * audit trail of their reviews and the History of the reminders sent over the season (seedScaleData and
 * seedScaleActivity, written by the database itself: INSERT … SELECT generate_series), then VACUUM ANALYZE.
 * The real server (`src/server/main.ts`, as `npm start` runs it, NODE_ENV=production, LOG_LEVEL=info to a file)
 * runs on it in a child process, so the load generator here never shares its event loop.
 *
 * Per endpoint (endpointCases: the dashboard's figures, the Players screen's first page and its player dialog
 * with the timeline, the Reports screen, the Documents screen's first page without and with filters, the Review
 * queue, Settings → Users, notification History): `clients` concurrent clients, each with its own keep-alive
 * connection and a session cookie, send GETs one after another for `timedSeconds` and at least
 * `requestsPerClient` each (after an untimed warm-up whose first requests also check the answer against the
 * contract and the seeded data); latency is from sending the request to the last byte of the answer. Then the
 * same data queries the endpoint runs (the same SQL text and parameters, in the same steps: one after another,
 * or at once where the service runs them at once), by the same number of concurrent callers on a pg.Pool the
 * size of the server's own: raw. Then the same requests to bench/http-floor.ts, a bare node:http server that
 * runs the same statements and answers their rows: the floor, the least any HTTP server on this machine does
 * for that answer. floor / raw is the HTTP hop alone (a process and two socket round trips more, on the same
 * cores), p95 / floor what Clearbase's own stack (session check, validation, mapping, JSON) adds to it.
 *
 * The statements are the repository's own: the builder's `.toSQL()`, or a prepared read's `.statement(db, …)`
 * (which also gives its name, so it runs prepared as the server runs it). Where a repository function runs its
 * query instead of handing out a builder, it runs once on a recording handle (openRecorder) and its statement
 * is taken from drizzle's query log, so it is the text the server sends, not a copy.
 *
 * Target at 50,000 players and 20 clients: p95 ≤ 25 ms and p95 ≤ 1.5 × the floor's p95. Missing it is
 * reported, not a failure; a failed request or a wrong answer is a failure.
 *
 * Growth (bench/growth.bench.ts): the same endpoints on leagues of 5,000 and 200,000 players as well (the
 * `sizes`), one scratch database each, with a shorter warm-up and timed run and without the raw and floor
 * runs; per size, each endpoint's p95 and the shared buffers its statements touch (EXPLAIN ANALYZE BUFFERS).
 */

export const FULL_SCALE_PLAYERS = 50_000;
export const QUICK_SCALE_PLAYERS = 5_000;
/** The league sizes of the growth table in a full run (the main size is one of them). */
export const GROWTH_SIZES: readonly number[] = [5_000, FULL_SCALE_PLAYERS, 200_000];
/** p95 at most `p95Ms` and at most `ratio` × the HTTP floor's p95 for the same statements. */
export const SCALE_TARGET = { p95Ms: 25, ratio: 1.5 } as const;
/** The server's pool: the raw queries get no more connections than it has. */
const SERVER_POOL_SIZE = POSTGRES_POOL_SIZE;
const PASSWORD = 'scale bench password';
/** Warm-up rounds per client whose answers are checked against the contract and the seeded data. */
const CHECKED_WARMUP = 5;
/** Staff accounts of the seeded league (seedScaleActivity): a league has tens of them. */
const SCALE_USERS = 40;
/** Of them, the admins (1-4) and moderators (5-28) who review documents and send messages. */
const SCALE_REVIEWERS = 28;

export interface ScaleBenchOptions {
  /** The main league size: the table held to the target, with the raw and floor runs. */
  players?: number;
  /**
   * The growth table's league sizes (the main size is added when missing). Default: GROWTH_SIZES when `players`
   * is FULL_SCALE_PLAYERS, else the main size alone.
   */
  sizes?: readonly number[];
  /** Admin connection to the PostgreSQL server that gets the scratch database (BENCH_POSTGRES_URL in bench/run.ts). */
  postgresUrl?: string;
  clients?: number;
  /** The timed run: every client sends at least this many requests… */
  requestsPerClient?: number;
  /**
   * …and keeps sending until this long has passed. A fast endpoint answers 500 requests in 50 ms, a window in
   * which one GC pause or descheduling decides the p95; a few seconds of samples give a p95 that repeats.
   */
  timedSeconds?: number;
  /**
   * Untimed requests to the server before the timed ones, from every client for this long (the first
   * CHECKED_WARMUP of each client check the answer). A server that has just started runs its code unoptimised:
   * on this 2-core machine /api/stats needed about 3,500 requests before its CPU per request settled
   * (0.48 → 0.16 ms), so a warm-up of a hundred requests measured V8's warm-up, not the server a league uses all
   * season.
   */
  warmupSeconds?: number;
  /** The same before the raw SQL and before the floor (default: 2 s, at most `warmupSeconds`): less code to warm up. */
  comparisonWarmupSeconds?: number;
  /**
   * Warm-up, timed run and least requests per client at the growth table's other sizes (defaults 2 s, 2 s and 10):
   * only the server's p95 is taken there, and an endpoint whose cost follows the league's size is slow at 200,000.
   */
  growthWarmupSeconds?: number;
  growthTimedSeconds?: number;
  growthRequestsPerClient?: number;
  /** Parent folder of the server's temporary data dir; defaults to the OS temp dir. */
  workDir?: string;
  write?: (text: string) => void;
  /** When set, the server of the main size writes V8 CPU profiles of its whole run (seeding excluded), one per thread, here as it exits. */
  profileDir?: string;
  /** Also time the Players screen in Chromium on the main size's data (default true; needs /usr/bin/chromium). */
  browser?: boolean;
}

export interface ScaleCaseResult {
  endpoint: string;
  requests: number;
  http: Latencies;
  /** Requests answered per second over the timed run. */
  httpPerSecond: number;
  raw: Latencies;
  /** The same statements behind bench/http-floor.ts: the HTTP hop with nothing of Clearbase's stack. */
  floor: Latencies;
  /** Statements one answer runs (an endpoint may run more than one). */
  statements: number;
  /** Shared buffers one answer's statements touch (EXPLAIN ANALYZE BUFFERS): the database's work. */
  pages: number;
  /** p95 / floor p95: the target's ratio (the same as floorRatio). */
  ratio: number;
  /** p95 / raw p95: what HTTP and Clearbase's stack cost on top of the database under that load (context). */
  rawRatio: number;
  /** floor p95 / raw p95: what the HTTP hop alone costs on this machine. */
  hopRatio: number;
  /** p95 / floor p95: what Clearbase's stack costs above the least any HTTP server on this machine does. */
  floorRatio: number;
  /** CPU of the server process (every thread) per request, from /proc; undefined where there is none. */
  serverCpuMs: number | undefined;
  /** CPU of the database's backends per request (parallel workers left out), from /proc; undefined where out of reach. */
  databaseCpuMs: number | undefined;
  /** 1-minute load average when the case started. */
  loadAverage: number;
  pass: boolean;
}

export interface ScaleBenchResult {
  players: number;
  documents: number;
  seedSeconds: number;
  analyzeSeconds: number;
  clients: number;
  requestsPerClient: number;
  timedSeconds: number;
  cases: ScaleCaseResult[];
  playersScreen: PlayersScreenTimings | undefined;
  /** Every size's p95 and pages, the main size's among them. */
  growth: GrowthResult;
  /** The main table (section 'scale': each p95 and its ratio to the floor, with their targets) and the growth table (section 'growth'). */
  figures: BenchFigure[];
  /** Wall-clock seconds of the whole section, every size. */
  seconds: number;
}

/** A statement as the driver gets it; named = a prepared statement, as the server runs its prepared reads. */
type Statement = { name?: string; text: string; values: unknown[] };

/** One endpoint, and the data queries behind one of its answers. */
interface EndpointCase {
  label: string;
  path: string;
  /** The statements of one answer in the service's order: the steps one after another, each step's statements at once. */
  steps: Statement[][];
  /** Checks a warm-up answer against the contract and the seeded data; throws when it is wrong. */
  check: (body: unknown) => void;
}

/** What the seeded league holds, for the answers' checks. */
type League = {
  players: number;
  registrations: number;
  documents: number;
  users: number;
  auditEvents: number;
  messages: number;
};

const toStatement = (query: { toSQL(): { sql: string; params: unknown[] } }): Statement => {
  const { sql: text, params: values } = query.toSQL();
  return { text, values };
};

/** The id seedScaleData gives player `i` of `year` (as its SQL writes it). */
export const scalePlayerId = (year: number, i: number): string => `CB-${year}-${i.toString(16).padStart(8, '0')}`;

/**
 * A handle on the scratch database that keeps the statements it sends (drizzle's query log: the SQL text and
 * its parameters), for the repository functions that run their query instead of handing out its builder: run
 * once through it, each gives the very statement the server sends. Those functions run unprepared, so the
 * statements have no name.
 */
type Recorder = {
  db: Db;
  /** Runs `work` on the recording handle: its result, and the statements it sent, in order. */
  capture<T>(work: (db: Db) => Promise<T>): Promise<{ result: T; statements: Statement[] }>;
  close(): Promise<void>;
};

function openRecorder(url: string): Recorder {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  let recording: Statement[] | undefined;
  const db: Db = drizzle(pool, { schema, logger: { logQuery: (text, values) => recording?.push({ text, values: [...values] }) } });
  return {
    db,
    async capture(work) {
      if (recording) throw new Error('one capture at a time: the statements of two would mix');
      const statements: Statement[] = [];
      recording = statements;
      try {
        return { result: await work(db), statements };
      } finally {
        recording = undefined;
      }
    },
    close: () => pool.end(),
  };
}

/** documents.service listDocuments' filter for a query without a search, as the service builds it (every division). */
function documentsFilter(query: { status?: TDocumentStatus; docType?: TDocType; sort?: 'newest' | 'oldest'; seasonId?: string }): DocumentListFilter {
  return {
    search: undefined,
    searchWordHashes: undefined,
    sort: query.sort ?? 'newest',
    status: query.status,
    docType: query.docType,
    scope: null,
    ...(query.seasonId === undefined ? {} : { seasonId: query.seasonId }),
  };
}

/** A documents page's check: `length` rows (the first page is full at this scale), each matching the filter. */
const documentsCheck =
  (length: number, expect: { status?: TDocumentStatus; docType?: TDocType; oldestFirst?: boolean } = {}) =>
  (body: unknown) => {
    const list = ZDocumentList.parse(body);
    // The total is not compared with the seeded count: it may become an estimate past some size.
    if (list.documents.length !== length || list.total < length) throw new Error(`expected ${length} documents, got ${list.documents.length} of ${list.total}`);
    const off = list.documents.find((d) => (expect.status !== undefined && d.status !== expect.status) || (expect.docType !== undefined && d.docType !== expect.docType));
    if (off) throw new Error(`a listed document does not match the filter: ${off.status} ${off.docType ?? 'undetected'}`);
    const times = list.documents.map((d) => Date.parse(d.uploadedAt));
    if (expect.oldestFirst && times.some((at, i) => i > 0 && at < (times[i - 1] ?? at))) throw new Error('the documents are not oldest first');
  };

/**
 * Every screen's first call, each with the statements its service runs (keep in step with the services: the
 * order and which run at once are the service's). One list, so a change of a repository's statements needs
 * only its line here changed.
 */
async function endpointCases(db: Db, recorder: Recorder, league: League): Promise<EndpointCase[]> {
  const capture = <T>(work: (db: Db) => Promise<T>) => recorder.capture(work);
  const everyone: ReportFilters = { division: 'all', status: 'all' };
  const expiring: ReportFilters = { division: 'all', status: 'expiring' };
  // No `season` parameter: the current season, resolved inside each statement (reports.repository).
  const current = undefined;
  const seasonId = BENCH_SEASON.id;
  // A returning child (registered in the earlier season too): the timeline spans two seasons.
  const playerId = scalePlayerId(BENCH_SEASON.year, 3 * Math.max(1, Math.floor(league.players / 6)));
  // documents.service listDocuments: the page and the total at once; the total is the capped count, then past
  // its cap the estimate's EXPLAIN (decision 033), as recorded. Run side by side with the page here, the
  // raw and floor cases are, if anything, a little quicker than the server's order.
  const documentsPage = async (filter: DocumentListFilter, pageSize: number): Promise<Statement[]> => [
    toStatement(documentListPageQuery(db, filter, { limit: pageSize, offset: 0 })),
    ...(await capture((d) => countDocumentList(d, filter))).statements,
  ];

  // The Players dialog (reports.service getPlayerReport): the season, the registration, its documents, then
  // each document's reading at once. Without builders: recorded (see openRecorder).
  const reportSeason = await capture((d) => resolveSeason(d, seasonId));
  if (!reportSeason.result) throw new Error(`no season ${seasonId}`);
  const registration = await capture((d) => findPlayerRegistration(d, playerId, seasonId));
  if (!registration.result) throw new Error(`player ${playerId} is not registered for ${seasonId}`);
  const seasonDocuments = await capture((d) => listPlayerSeasonDocuments(d, playerId, seasonId));
  const readings: Statement[] = [];
  for (const row of seasonDocuments.result) readings.push(...(await capture((d) => documentReadingView(d, row.id, new Date().toISOString().slice(0, 10)))).statements);

  // Its timeline (players.service timeline): the registrations, then the documents and messages at once, then the audit records.
  const timelineRegistrations = listPlayerRegistrations(db, playerId);
  const seasonIds = [...new Set((await timelineRegistrations).map((row) => row.seasonId))];
  const timelineDocuments = await capture((d) => listPlayerTimelineDocuments(d, playerId, seasonIds));
  const timelineMessages = await capture((d) => listPlayerNotificationHistory(d, playerId));
  const timelineEvents = await capture((d) =>
    listPlayerEvents(d, { playerId, documentIds: timelineDocuments.result.map((row) => row.id), except: QUIET_DOCUMENT_ACTIONS }),
  );

  // Settings → Users (users.service listUsers): the accounts, then when each last acted. Recorded.
  const staff = await capture((d) => findUsers(d, { search: undefined, role: undefined, status: undefined }));
  const lastActions = await capture((d) => lastActionTimes(d, staff.result.map((row) => row.id)));

  // Notifications → History (notifications.service listHistory): the first page and the count at once. Recorded.
  const historyPage = await capture((d) => listNotificationHistory(d, NOTIFICATION_HISTORY_PAGE_SIZE, 0, null));
  const historyCount = await capture((d) => countNotificationHistory(d, null));

  // The review queue of one season: documents.service resolves the season first.
  const queueSeason = await capture((d) => resolveSeason(d, seasonId));

  return [
    {
      label: 'GET /api/stats',
      path: '/api/stats',
      steps: [[statsRead.statement(db, current)]],
      check: (body) => {
        const stats = ZStats.parse(body);
        if (stats.totalPlayers !== league.players) throw new Error(`expected ${league.players} players, got ${stats.totalPlayers}`);
      },
    },
    {
      label: 'GET /api/report/missing',
      path: '/api/report/missing?pageSize=10',
      // reports.service getMissingReport: the counts and the first page at once.
      steps: [[missingReportCountsRead.statement(db, current, everyone), missingReportPageRead.statement(db, current, everyone, { limit: 10, offset: 0 })]],
      check: (body) => {
        const report = ZMissingReport.parse(body);
        if (report.players.length !== 10 || report.summary.total !== league.players) {
          throw new Error(`expected 10 of ${league.players} players, got ${report.players.length} of ${report.summary.total}`);
        }
      },
    },
    {
      label: 'GET /api/report/missing?status=expiring',
      path: '/api/report/missing?status=expiring&pageSize=10',
      // The expiring filter: its count and first page read registrations_season_expires_idx, not season_totals.
      steps: [[missingReportCountsRead.statement(db, current, expiring), missingReportPageRead.statement(db, current, expiring, { limit: 10, offset: 0 })]],
      check: (body) => {
        const report = ZMissingReport.parse(body);
        if (report.players.length !== 10 || report.players.some((row) => row.expiresOn === null)) {
          throw new Error(`expected 10 players whose approval runs out soon, got ${report.players.length}`);
        }
      },
    },
    {
      label: 'GET /api/report/player',
      path: `/api/report/player?player_id=${encodeURIComponent(playerId)}&season=${encodeURIComponent(seasonId)}`,
      steps: [reportSeason.statements, registration.statements, seasonDocuments.statements, ...(readings.length > 0 ? [readings] : [])],
      check: (body) => {
        const report = ZPlayerReport.parse(body);
        if (report.status.playerId !== playerId || report.documents.length !== seasonDocuments.result.length) {
          throw new Error(`expected ${playerId} with ${seasonDocuments.result.length} documents, got ${report.status.playerId} with ${report.documents.length}`);
        }
      },
    },
    {
      label: 'GET /api/players/:id/timeline',
      path: `/api/players/${encodeURIComponent(playerId)}/timeline`,
      steps: [[toStatement(timelineRegistrations)], [...timelineDocuments.statements, ...timelineMessages.statements], timelineEvents.statements],
      check: (body) => {
        const timeline = ZPlayerTimeline.parse(body);
        const kinds = new Set(timeline.entries.map((entry) => entry.kind));
        if (timeline.playerId !== playerId || !(['registration', 'upload', 'review', 'notification'] as const).every((kind) => kinds.has(kind))) {
          throw new Error(`expected ${playerId}'s registrations, uploads, reviews and messages, got ${[...kinds].join(', ')}`);
        }
      },
    },
    {
      label: 'GET /api/reports/season',
      path: '/api/reports/season',
      // season-report.service getSeasonReport: its aggregate statements at once (all divisions, compared).
      steps: [Object.values(seasonReportQueries(db, current, 'all', SEASON_REPORT_MAX_PLAYERS)).map(toStatement)],
      check: (body) => {
        const report = ZSeasonReport.parse(body);
        const listed = Math.min(SEASON_REPORT_MAX_PLAYERS, report.playersTotal);
        if (report.summary.totalPlayers !== league.players || report.players.length !== listed) {
          throw new Error(`expected ${league.players} players and ${listed} listed, got ${report.summary.totalPlayers} and ${report.players.length}`);
        }
      },
    },
    {
      label: 'GET /api/uploads/recent',
      path: '/api/uploads/recent',
      steps: [[recentUploadsRead.statement(db, 10)]],
      check: (body) => {
        const { uploads } = ZRecentUploads.parse(body);
        if (uploads.length !== 10) throw new Error(`expected 10 uploads, got ${uploads.length}`);
      },
    },
    {
      // The Documents screen's query (documents/api.ts documentListQuery): status and type sent even when 'all'.
      label: 'GET /api/documents',
      path: '/api/documents?status=all&docType=all&page=1&pageSize=50',
      steps: [await documentsPage(documentsFilter({}), 50)],
      check: documentsCheck(50),
    },
    {
      label: 'GET /api/documents?status=pending',
      path: '/api/documents?status=pending&docType=all&page=1&pageSize=50',
      steps: [await documentsPage(documentsFilter({ status: 'pending' }), 50)],
      check: documentsCheck(50, { status: 'pending' }),
    },
    {
      label: 'GET /api/documents?docType=medical',
      path: '/api/documents?status=all&docType=medical&page=1&pageSize=50',
      steps: [await documentsPage(documentsFilter({ docType: 'medical' }), 50)],
      check: documentsCheck(50, { docType: 'medical' }),
    },
    {
      // The Review screen (review/api.ts reviewQueueQuery): pending, oldest first, a hundred at a time, every season.
      label: 'GET /api/documents (review queue)',
      path: `/api/documents?status=pending&sort=oldest&pageSize=${MAX_DOCUMENTS_PAGE_SIZE}&page=1`,
      steps: [await documentsPage(documentsFilter({ status: 'pending', sort: 'oldest' }), MAX_DOCUMENTS_PAGE_SIZE)],
      check: documentsCheck(MAX_DOCUMENTS_PAGE_SIZE, { status: 'pending', oldestFirst: true }),
    },
    {
      label: 'GET /api/documents (review queue, season)',
      path: `/api/documents?status=pending&sort=oldest&pageSize=${MAX_DOCUMENTS_PAGE_SIZE}&page=1&season=${encodeURIComponent(seasonId)}`,
      steps: [queueSeason.statements, await documentsPage(documentsFilter({ status: 'pending', sort: 'oldest', seasonId }), MAX_DOCUMENTS_PAGE_SIZE)],
      check: documentsCheck(MAX_DOCUMENTS_PAGE_SIZE, { status: 'pending', oldestFirst: true }),
    },
    {
      label: 'GET /api/users',
      path: '/api/users',
      steps: [staff.statements, lastActions.statements],
      check: (body) => {
        const list = ZUserList.parse(body);
        if (list.users.length !== league.users || !list.users.some((user) => user.lastActionAt !== null)) {
          throw new Error(`expected ${league.users} users, some who acted, got ${list.users.length}`);
        }
      },
    },
    {
      label: 'GET /api/notifications/history',
      path: `/api/notifications/history?page=1&pageSize=${NOTIFICATION_HISTORY_PAGE_SIZE}`,
      steps: [[...historyPage.statements, ...historyCount.statements]],
      check: (body) => {
        const history = ZNotificationHistory.parse(body);
        if (history.items.length !== NOTIFICATION_HISTORY_PAGE_SIZE || history.total !== league.messages) {
          throw new Error(`expected ${NOTIFICATION_HISTORY_PAGE_SIZE} of ${league.messages} messages, got ${history.items.length} of ${history.total}`);
        }
      },
    },
  ];
}

/** How one league size is measured: the main size against the raw SQL and the floor as well, the others the server alone. */
type SizePlan = {
  players: number;
  main: boolean;
  warmupSeconds: number;
  comparisonWarmupSeconds: number;
  timedSeconds: number;
  requestsPerClient: number;
  clients: number;
  profileDir: string | undefined;
  browser: boolean;
};

type EndpointRun = {
  label: string;
  statements: number;
  pages: number;
  requests: number;
  httpSeconds: number;
  http: Latencies;
  /** The main size only. */
  comparison: { raw: Latencies; floor: Latencies } | undefined;
  serverCpuMs: number | undefined;
  databaseCpuMs: number | undefined;
  loadAverage: number;
  /** Requests answered with a server error (growth sizes only: at the main size one fails the bench), warm-up included. */
  failed: number;
  firstFailure: string | undefined;
};

type SizeRun = {
  league: League;
  seedSeconds: number;
  /** CPU seconds the database's backends spent seeding (undefined where their /proc is out of reach). */
  seedDatabaseCpuSeconds: number | undefined;
  analyzeSeconds: number;
  endpoints: EndpointRun[];
  playersScreen: PlayersScreenTimings | undefined;
};

export async function runScaleBench(options: ScaleBenchOptions = {}): Promise<ScaleBenchResult> {
  const started = performance.now();
  const players = options.players ?? FULL_SCALE_PLAYERS;
  const sizes = [...new Set([...(options.sizes ?? (players === FULL_SCALE_PLAYERS ? GROWTH_SIZES : [players])), players])].sort((a, b) => a - b);
  const clients = options.clients ?? 20;
  const requestsPerClient = options.requestsPerClient ?? 25;
  const timedSeconds = options.timedSeconds ?? 3;
  const warmupSeconds = options.warmupSeconds ?? 5;
  const comparisonWarmupSeconds = options.comparisonWarmupSeconds ?? Math.min(2, warmupSeconds);
  const growthWarmupSeconds = options.growthWarmupSeconds ?? 2;
  const growthTimedSeconds = options.growthTimedSeconds ?? 2;
  const growthRequestsPerClient = options.growthRequestsPerClient ?? 10;
  const write = options.write ?? (() => undefined);
  const browser = options.browser ?? true;
  // The server serves the built web app only if it exists when it starts.
  if (browser) ensureWebBuild();

  const runs = new Map<number, { plan: SizePlan; run: SizeRun }>();
  for (const size of sizes) {
    const main = size === players;
    const plan: SizePlan = {
      players: size,
      main,
      warmupSeconds: main ? warmupSeconds : growthWarmupSeconds,
      comparisonWarmupSeconds,
      timedSeconds: main ? timedSeconds : growthTimedSeconds,
      requestsPerClient: main ? requestsPerClient : growthRequestsPerClient,
      clients,
      profileDir: main ? options.profileDir : undefined,
      browser: main && browser,
    };
    const sizeStarted = performance.now();
    write(`  -- ${size.toLocaleString('en-US')} players${main ? ' (the main table)' : ' (growth)'} --\n`);
    const run = await measureSize(plan, options.postgresUrl ?? DEFAULT_POSTGRES_URL, options.workDir ?? tmpdir(), write);
    write(`  ${size.toLocaleString('en-US')} players done in ${((performance.now() - sizeStarted) / 1000).toFixed(0)} s\n`);
    runs.set(size, { plan, run });
    // The main table as soon as it is measured: a larger league measured after it may still fail.
    if (main) {
      write(formatScaleTable({ players: run.league.players, documents: run.league.documents, clients, requestsPerClient, timedSeconds, cases: run.endpoints.map(scaleCase) }));
      if (run.playersScreen) write(formatPlayersScreen(run.playersScreen));
    }
  }

  const mainRun = runs.get(players);
  if (!mainRun) throw new Error('the main size was not measured');
  const cases = mainRun.run.endpoints.map(scaleCase);
  const growth: GrowthResult = {
    clients,
    sizes: [...runs.values()].map(({ plan, run }): GrowthSize => ({
      players: run.league.players,
      documents: run.league.documents,
      seedSeconds: run.seedSeconds,
      seedDatabaseCpuSeconds: run.seedDatabaseCpuSeconds,
      analyzeSeconds: run.analyzeSeconds,
      warmupSeconds: plan.warmupSeconds,
      timedSeconds: plan.timedSeconds,
      cases: run.endpoints.map(
        (e): GrowthCase => ({
          endpoint: e.label,
          requests: e.requests,
          p95: e.http.p95,
          pages: e.pages,
          serverCpuMs: e.serverCpuMs,
          databaseCpuMs: e.databaseCpuMs,
          loadAverage: e.loadAverage,
          failed: e.failed,
          firstFailure: e.firstFailure,
        }),
      ),
    })),
  };
  const result: ScaleBenchResult = {
    players: mainRun.run.league.players,
    documents: mainRun.run.league.documents,
    seedSeconds: mainRun.run.seedSeconds,
    analyzeSeconds: mainRun.run.analyzeSeconds,
    clients,
    requestsPerClient,
    timedSeconds,
    cases,
    playersScreen: mainRun.run.playersScreen,
    growth,
    figures: [],
    seconds: 0,
  };
  result.figures = [...scaleFigures(result), ...growthFigures(growth)];
  result.seconds = (performance.now() - started) / 1000;
  write(formatGrowthTable(growth));
  write(`  scale and growth: ${result.seconds.toFixed(0)} s in all (${sizes.length} league size${sizes.length === 1 ? '' : 's'})\n`);
  return result;
}

function scaleCase(e: EndpointRun): ScaleCaseResult {
  if (!e.comparison) throw new Error(`${e.label}: the main size runs the raw SQL and the floor too`);
  const { raw, floor } = e.comparison;
  const floorRatio = e.http.p95 / floor.p95;
  return {
    endpoint: e.label,
    requests: e.requests,
    http: e.http,
    httpPerSecond: e.requests / e.httpSeconds,
    raw,
    floor,
    statements: e.statements,
    pages: e.pages,
    ratio: floorRatio,
    rawRatio: e.http.p95 / raw.p95,
    hopRatio: floor.p95 / raw.p95,
    floorRatio,
    serverCpuMs: e.serverCpuMs,
    databaseCpuMs: e.databaseCpuMs,
    loadAverage: e.loadAverage,
    pass: e.http.p95 <= SCALE_TARGET.p95Ms && floorRatio <= SCALE_TARGET.ratio,
  };
}

/** The main table as figures: each endpoint's p95 (target SCALE_TARGET.p95Ms) and its ratio to the floor (target SCALE_TARGET.ratio). */
export function scaleFigures(result: ScaleBenchResult): BenchFigure[] {
  return result.cases.flatMap((c) => {
    const detail = {
      players: result.players,
      clients: result.clients,
      floorP95: c.floor.p95,
      rawP95: c.raw.p95,
      ratioToFloor: c.floorRatio,
      statements: c.statements,
      pages: c.pages,
      serverCpuMs: c.serverCpuMs ?? null,
      databaseCpuMs: c.databaseCpuMs ?? null,
    };
    return [
      figure({ section: 'scale', name: `${c.endpoint} p95`, value: c.http.p95, unit: 'ms', target: { atMost: SCALE_TARGET.p95Ms }, detail, loadAverage: c.loadAverage }),
      figure({
        section: 'scale',
        name: `${c.endpoint} p95 / floor p95`,
        value: c.floorRatio,
        unit: 'ratio',
        target: { atMost: SCALE_TARGET.ratio },
        detail: { players: result.players, clients: result.clients, p95: c.http.p95, floorP95: c.floor.p95 },
        loadAverage: c.loadAverage,
      }),
    ];
  });
}

/** One league size: its scratch database seeded, the server (and for the main size the floor) on it, each endpoint measured. */
async function measureSize(plan: SizePlan, postgresUrl: string, workDir: string, write: (text: string) => void): Promise<SizeRun> {
  const { players, clients } = plan;
  const scratch = await createScratchDatabase(postgresUrl, 'clearbase_scale_');
  const dataDir = await mkdtemp(path.join(workDir, 'clearbase-scale-'));
  let database: Database | undefined;
  let recorder: Recorder | undefined;
  let server: ScaleServer | undefined;
  let floor: ScaleServer | undefined;
  let pool: pg.Pool | undefined;
  let admin: pg.Client | undefined;
  try {
    database = await openDatabase({ kind: 'postgres', url: scratch.url });
    // For the database's CPU while seeding, then for EXPLAIN.
    admin = new pg.Client({ connectionString: scratch.url });
    await admin.connect();
    write(`  seeding ${players.toLocaleString('en-US')} players into a scratch database…\n`);
    let started = performance.now();
    const cpuBeforeSeeding = await databaseCpuMs(admin);
    await insertSeasons(database.db, [BENCH_SEASON, BENCH_EARLIER_SEASON]);
    const seeded = await seedScaleData(database.db, { players, season: BENCH_SEASON, earlier: BENCH_EARLIER_SEASON });
    const leagueSeconds = (performance.now() - started) / 1000;
    const activity = await seedScaleActivity(database.db, { players, season: BENCH_SEASON });
    const league: League = { ...seeded, ...activity };
    const seedSeconds = (performance.now() - started) / 1000;
    const seedDatabaseCpuSeconds = cpuSpent(cpuBeforeSeeding, await databaseCpuMs(admin));
    started = performance.now();
    await database.db.execute(sql`vacuum analyze`);
    const analyzeSeconds = (performance.now() - started) / 1000;
    write(
      `  ${league.players.toLocaleString('en-US')} players, ${league.registrations.toLocaleString('en-US')} registrations, ` +
        `${league.documents.toLocaleString('en-US')} documents, ${league.users} users, ${league.auditEvents.toLocaleString('en-US')} audit records, ` +
        `${league.messages.toLocaleString('en-US')} messages in ${seedSeconds.toFixed(1)} s (players, registrations and documents ${leagueSeconds.toFixed(1)} s; ` +
        `database CPU ${seedDatabaseCpuSeconds === undefined ? 'n/a' : `${seedDatabaseCpuSeconds.toFixed(1)} s`}); ` +
        `VACUUM ANALYZE ${analyzeSeconds.toFixed(1)} s\n`,
    );

    server = await startScaleServer(scratch.url, dataDir, plan.profileDir);
    const serverUrl = server.url;
    const cpuMs = () => server?.cpuMs();
    const cookie = await signIn(serverUrl, PASSWORD);
    recorder = openRecorder(scratch.url);
    const endpoints = await endpointCases(database.db, recorder, league);
    await recorder.close();
    recorder = undefined;
    const floorUrl = plan.main ? (floor = await startFloorServer(scratch.url, dataDir, endpoints)).url : undefined;
    const rawPool = plan.main ? (pool = new pg.Pool({ connectionString: scratch.url, max: SERVER_POOL_SIZE })) : undefined;
    const timed = { rounds: plan.requestsPerClient, seconds: plan.timedSeconds };
    const warmedUp = async (round: () => Promise<unknown>, warmupSeconds: number) => {
      await runClients(clients, round, { seconds: warmupSeconds });
      return runClients(clients, round, timed);
    };

    const runs: EndpointRun[] = [];
    for (const endpoint of endpoints) {
      write(
        `  ${endpoint.label}: ${clients} clients, ${plan.warmupSeconds} s of warm-up, then ${plan.timedSeconds} s and ${plan.requestsPerClient} requests each timed` +
          `${plan.main ? `; then the same of its SQL, then of the HTTP floor (${plan.comparisonWarmupSeconds} s of warm-up each)` : ''}…\n`,
      );
      // Connections of their own for each endpoint and server, opened in the warm-up: a keep-alive connection left
      // idle while other endpoints run may be closed by its server just as it is used again (socket hang up).
      const serverAgent = new http.Agent({ keepAlive: true, maxSockets: clients });
      const floorAgent = new http.Agent({ keepAlive: true, maxSockets: clients });
      // At the growth sizes a server error (a 5xx: say the pool's wait for a connection ran out) is counted and
      // reported, and the run goes on; at the main size it fails the bench. A wrong answer fails it at any size.
      const failed = { count: 0, first: undefined as string | undefined };
      try {
        const loadAverage = loadavg()[0] ?? Number.NaN;
        const get = async (check: boolean) => {
          try {
            await getOk(serverAgent, serverUrl, endpoint.path, cookie, check ? endpoint.check : undefined);
          } catch (error) {
            if (plan.main || !(error instanceof HttpStatusError) || error.status < 500) throw error;
            failed.count += 1;
            failed.first ??= error.message;
          }
        };
        // The first requests of each client check the answer; the rest of the warm-up runs for its time.
        await Promise.all(
          Array.from({ length: clients }, async () => {
            for (let i = 0; i < CHECKED_WARMUP; i++) await get(true);
          }),
        );
        await runClients(clients, () => get(false), { seconds: plan.warmupSeconds });
        const databaseBefore = await databaseCpuMs(admin);
        const cpuBefore = cpuMs();
        const httpRun = await runClients(clients, () => get(false), timed);
        const cpuAfter = cpuMs();
        const databaseSpent = cpuSpent(databaseBefore, await databaseCpuMs(admin));

        let comparison: EndpointRun['comparison'];
        if (rawPool && floorUrl) {
          const rawRound = async () => {
            for (const step of endpoint.steps) await Promise.all(step.map((statement) => rawPool.query({ ...statement, rowMode: 'array' })));
          };
          const rawRun = await warmedUp(rawRound, plan.comparisonWarmupSeconds);
          const floorRun = await warmedUp(() => getOk(floorAgent, floorUrl, endpoint.path, '', undefined), plan.comparisonWarmupSeconds);
          comparison = { raw: summarize(rawRun.latencies), floor: summarize(floorRun.latencies) };
        }
        const requests = httpRun.latencies.length;
        runs.push({
          label: endpoint.label,
          statements: endpoint.steps.flat().length,
          pages: await pagesPerAnswer(admin, endpoint.steps),
          requests,
          httpSeconds: httpRun.seconds,
          http: summarize(httpRun.latencies),
          comparison,
          serverCpuMs: cpuBefore === undefined || cpuAfter === undefined ? undefined : (cpuAfter - cpuBefore) / requests,
          databaseCpuMs: databaseSpent === undefined ? undefined : (databaseSpent * 1000) / requests,
          loadAverage,
          failed: failed.count,
          firstFailure: failed.first,
        });
      } finally {
        serverAgent.destroy();
        floorAgent.destroy();
      }
    }

    let playersScreen: PlayersScreenTimings | undefined;
    if (plan.browser) {
      write('  the Players screen in Chromium…\n');
      playersScreen = await measurePlayersScreen(serverUrl, cookie);
    }
    return { league, seedSeconds, seedDatabaseCpuSeconds, analyzeSeconds, endpoints: runs, playersScreen };
  } catch (error) {
    const log = [server && (await server.logTail()), floor && `HTTP floor: ${await floor.logTail()}`].filter(Boolean).join('\n');
    throw log ? new Error(`${error instanceof Error ? error.message : String(error)}\nserver log (tail):\n${log}`, { cause: error }) : error;
  } finally {
    await recorder?.close().catch(() => undefined);
    await admin?.end().catch(() => undefined);
    await pool?.end().catch(() => undefined);
    await server?.stop();
    await floor?.stop();
    await database?.close().catch(() => undefined);
    await scratch.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

const ZExplain = z.array(z.object({ Plan: z.object({ 'Shared Hit Blocks': z.number(), 'Shared Read Blocks': z.number() }) })).length(1);

/**
 * The shared buffers (8 kB pages, found in memory or read) one answer's statements touch: EXPLAIN (ANALYZE,
 * BUFFERS) of each, its top plan node's counts, which take in the nodes below it and any parallel workers.
 * The database's work for the answer, the same on a busy machine as on an idle one.
 */
async function pagesPerAnswer(client: pg.Client, steps: Statement[][]): Promise<number> {
  let pages = 0;
  for (const statement of steps.flat()) {
    // A total's estimate is an EXPLAIN itself: it reads the planner's statistics, not the tables' pages.
    if (/^\s*explain\b/i.test(statement.text)) continue;
    const result = await client.query<{ 'QUERY PLAN': unknown }>({ text: `explain (analyze, buffers, format json) ${statement.text}`, values: statement.values });
    const [plan] = ZExplain.parse(result.rows[0]?.['QUERY PLAN']);
    pages += (plan?.Plan['Shared Hit Blocks'] ?? 0) + (plan?.Plan['Shared Read Blocks'] ?? 0);
  }
  return pages;
}

export function formatScaleTable(result: Pick<ScaleBenchResult, 'players' | 'documents' | 'clients' | 'requestsPerClient' | 'timedSeconds' | 'cases'>): string {
  const header = [
    `Scale: ${result.players.toLocaleString('en-US')} players, ${result.documents.toLocaleString('en-US')} documents on PostgreSQL; the server in a child process over HTTP (keep-alive),`,
    `${result.clients} concurrent clients for ${result.timedSeconds} s and at least ${result.requestsPerClient} requests each (after the warm-up); raw = the endpoint's own SQL`,
    `(same text and parameters, in the service's steps) run the same way by ${result.clients} concurrent callers on a pg.Pool of ${SERVER_POOL_SIZE} (the server's size).`,
    `floor = the same statements answered by bench/http-floor.ts (node:http + pg, nothing else). Latencies in ms (wall clock: they move with the`,
    `machine's load); stmts = statements per answer; pages = shared buffers they touch (EXPLAIN ANALYZE BUFFERS); server cpu, db cpu = CPU ms`,
    `per request of the server process and of the database's backends (parallel workers left out), which move far less with the load;`,
    `load = 1-minute load average at the start. Target: p95 ≤ ${SCALE_TARGET.p95Ms} ms and p95 ≤ ${SCALE_TARGET.ratio} × the floor's p95.`,
    '',
  ];
  const width = Math.max(8, ...result.cases.map((c) => c.endpoint.length));
  const columns: Array<[string, number, (c: ScaleCaseResult) => string]> = [
    ['endpoint', -width, (c) => c.endpoint],
    ['requests', 8, (c) => String(c.requests)],
    ['req/s', 6, (c) => c.httpPerSecond.toFixed(0)],
    ['p50', 6, (c) => c.http.p50.toFixed(1)],
    ['p95', 6, (c) => c.http.p95.toFixed(1)],
    ['max', 6, (c) => c.http.max.toFixed(1)],
    ['raw p95', 7, (c) => c.raw.p95.toFixed(1)],
    ['p95/raw', 7, (c) => c.rawRatio.toFixed(2)],
    ['floor p95', 9, (c) => c.floor.p95.toFixed(1)],
    ['floor/raw', 9, (c) => c.hopRatio.toFixed(2)],
    ['p95/floor', 9, (c) => c.floorRatio.toFixed(2)],
    ['stmts', 5, (c) => String(c.statements)],
    ['pages', 7, (c) => String(c.pages)],
    ['server cpu', 10, (c) => (c.serverCpuMs === undefined ? 'n/a' : c.serverCpuMs.toFixed(2))],
    ['db cpu', 6, (c) => (c.databaseCpuMs === undefined ? 'n/a' : c.databaseCpuMs.toFixed(2))],
    ['load', 4, (c) => c.loadAverage.toFixed(1)],
    ['verdict', -1, verdict],
  ];
  const pad = (text: string, width: number) => (width < 0 ? text.padEnd(-width) : text.padStart(width));
  const line = (cell: (column: (typeof columns)[number]) => string) => columns.map((column) => pad(cell(column), column[1])).join('  ').trimEnd();
  const passed = result.cases.filter((c) => c.pass).length;
  return [
    ...header,
    line(([title]) => title),
    ...result.cases.map((c) => line(([, , value]) => value(c))),
    '',
    `${passed} of ${result.cases.length} endpoints within the target.`,
    '',
  ].join('\n');
}

function verdict(c: ScaleCaseResult): string {
  if (c.pass) return 'PASS';
  const over = [
    ...(c.http.p95 > SCALE_TARGET.p95Ms ? [`p95 > ${SCALE_TARGET.p95Ms} ms`] : []),
    ...(c.floorRatio > SCALE_TARGET.ratio ? [`p95 > ${SCALE_TARGET.ratio} × floor`] : []),
  ];
  return `OVER TARGET (${over.join(', ')})`;
}

/**
 * `clients` callers at once, each running rounds one after another until it has run `rounds` of them (default
 * none) and `seconds` have passed since the start (default none); every round's latency in ms.
 */
async function runClients(
  clients: number,
  round: () => Promise<unknown>,
  { rounds = 0, seconds = 0 }: { rounds?: number; seconds?: number },
): Promise<{ latencies: number[]; seconds: number }> {
  const latencies: number[] = [];
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (let i = 0; i < rounds || performance.now() < until; i++) {
        const at = performance.now();
        await round();
        latencies.push(performance.now() - at);
      }
    }),
  );
  return { latencies, seconds: (performance.now() - started) / 1000 };
}

/** An answer other than 200. */
class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** A GET that must answer 200 with JSON; with `check`, the parsed answer is checked too. */
function getOk(agent: http.Agent, base: string, pathAndQuery: string, cookie: string, check: ((body: unknown) => void) | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${base}${pathAndQuery}`, { agent, headers: { cookie, accept: 'application/json' } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        if (response.statusCode !== 200) {
          reject(new HttpStatusError(response.statusCode ?? 0, `GET ${pathAndQuery} answered ${response.statusCode}: ${body.slice(0, 300)}`));
          return;
        }
        try {
          const parsed: unknown = JSON.parse(body);
          check?.(parsed);
          resolve();
        } catch (error) {
          reject(new Error(`GET ${pathAndQuery} answered wrong: ${error instanceof Error ? error.message : String(error)}`));
        }
      });
    });
    request.on('error', reject);
    request.setTimeout(30_000, () => request.destroy(new Error(`GET ${pathAndQuery} timed out`)));
  });
}

type ScaleServer = ServerProcess;

/** `src/server/main.ts` on the scratch database, as production runs it, its log in a file of the data dir. */
async function startScaleServer(databaseUrl: string, dataDir: string, profileDir: string | undefined): Promise<ScaleServer> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    // Nothing from the developer's shell: every Clearbase setting empty (= unset), then the bench's.
    ...Object.fromEntries(CONFIG_VARIABLES.map((name) => [name, ''])),
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    CLEARBASE_DATA_DIR: dataDir,
    CLEARBASE_PASSWORD: PASSWORD,
    CLEARBASE_MASTER_KEY: randomBytes(32).toString('base64'),
    CLEARBASE_DEMO: 'false',
    LOG_LEVEL: 'info',
  };
  // One file per thread (the main thread's is the largest), named by Node: CPU.<date>.<time>.<pid>.<thread>.<n>.cpuprofile.
  const profile = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  return startServerProcess({
    what: 'the server',
    args: [...profile, '--import', 'tsx', 'src/server/main.ts'],
    env,
    logFile: path.join(dataDir, 'server.log'),
    url: `http://127.0.0.1:${port}`,
    readyPath: '/healthz',
  });
}

/** bench/http-floor.ts answering each endpoint's path with its statements, on the scratch database. */
async function startFloorServer(databaseUrl: string, dataDir: string, endpoints: EndpointCase[]): Promise<ScaleServer> {
  const port = await freePort();
  const routes: FloorRoutes = Object.fromEntries(endpoints.map(({ path: route, steps }) => [route, { steps }]));
  const routesFile = path.join(dataDir, 'floor-routes.json');
  await writeFile(routesFile, JSON.stringify(routes));
  return startServerProcess({
    what: 'the HTTP floor',
    args: ['--import', 'tsx', 'bench/http-floor.ts', routesFile, String(port), databaseUrl, String(SERVER_POOL_SIZE)],
    env: { ...process.env, NODE_ENV: 'production' },
    logFile: path.join(dataDir, 'floor.log'),
    url: `http://127.0.0.1:${port}`,
    readyPath: '/ready',
  });
}

/**
 * CPU ms of each backend of the database `client` is connected to, by pid, from /proc: the server on this machine
 * (PostgreSQL over its local socket); undefined when a backend's /proc entry cannot be read (another host).
 */
async function databaseCpuMs(client: pg.Client): Promise<Map<number, number> | undefined> {
  const { rows } = await client.query<{ pid: number }>('select pid from pg_stat_activity where datname = current_database()');
  const spent = new Map<number, number>();
  for (const { pid } of rows) {
    const ms = processCpuMs(pid);
    if (ms === undefined) return undefined;
    spent.set(pid, ms);
  }
  return spent;
}

/** CPU seconds between two readings of databaseCpuMs; a backend that ended between them is not counted. */
function cpuSpent(before: Map<number, number> | undefined, after: Map<number, number> | undefined): number | undefined {
  if (!before || !after) return undefined;
  let ms = 0;
  for (const [pid, now] of after) ms += now - (before.get(pid) ?? 0);
  return ms / 1000;
}

/**
 * A league at scale, written by the database itself (no rows through the client): `players` players, each
 * registered once in `season` (AAA 25 %, AA 35 %, A 35 %, Peewee 5 %), and per player and document type
 * most often one document, sometimes none (4 %), sometimes an earlier rejected copy next to the current one
 * (4 %): 4 documents per player on average. The current copies: about 75 % verified, 12 % pending (1.5 % of
 * all with no detected type), 2 % processing, 3 % rejected; uploads spread over the season's first 100
 * days. Deterministic: the same rows every run.
 */
export async function seedScaleData(
  db: Db,
  options: {
    players: number;
    season: { id: string; year: number; startsOn: string };
    /** An earlier season of the same year a third of the children played, with a verified birth certificate and medical form. */
    earlier?: { id: string; startsOn: string };
  },
): Promise<{ players: number; registrations: number; documents: number }> {
  const { players, season, earlier } = options;
  const idOf = (i: string) => sql.raw(`'CB-${season.year}-' || lpad(to_hex(${i}), 8, '0')`);
  await db.execute(sql`
    insert into players (id, first_name, last_name, birth_date, guardian_name, guardian_email, guardian_phone)
    select ${idOf('i')},
      (array['Ada','Grace','Alan','Edsger','Barbara','Donald','Frances','John','Katherine','Linus','Margaret','Niklaus',
             'Radia','Tim','Hedy','Ken','Dennis','Bjarne','Guido','Anita','Jean','Sophie','Mary','Karen','Evelyn',
             'Shafi','Leslie','Tony','Fran','Carl','Ivan','Joan','Annie','Ruth','Betty','Marlyn','Kathleen','Yukihiro','Rasmus','Brendan'])[1 + i % 40],
      (array['Lovelace','Hopper','Turing','Dijkstra','Liskov','Knuth','Allen','Backus','Johnson','Torvalds','Hamilton','Wirth',
             'Perlman','Berners-Lee','Lamarr','Thompson','Ritchie','Stroustrup','van Rossum','Borg','Sammet','Wilson','Keller','Jones',
             'Boyce','Goldwasser','Lamport','Hoare','Bilas','Petri','Sutherland','Clarke','Easley','Teitelbaum','Holberton','Wescoff',
             'Antonelli','Matsumoto','Lerdorf','Eich','Kay','Cerf','Kahn','McCarthy','Minsky','Shannon','Church','Gödel','Noether','Curie'])[1 + (i / 40) % 50],
      date '2008-01-01' + (i * 7919) % 3650,
      'Guardian ' || i,
      'guardian' || i || '@example.org',
      '555-' || lpad((i % 10000)::text, 4, '0')
    from generate_series(1, ${players}::int) as i`);
  await db.execute(sql`
    insert into registrations (player_id, season_id, division, registered_at)
    select ${idOf('i')}, ${season.id},
      case when h < 25 then 'AAA' when h < 60 then 'AA' when h < 95 then 'A' else 'Peewee' end,
      ${season.startsOn}::timestamptz + (i % 30) * interval '1 day'
    from generate_series(1, ${players}::int) as i, lateral (select abs(hashtext('division ' || i)) % 100 as h) d`);
  if (earlier) {
    // Returning children: registered in the earlier season too, where their birth certificate and medical form
    // were verified; under the default rules both count in the current season (decision 030).
    await db.execute(sql`
      insert into registrations (player_id, season_id, division, registered_at)
      select ${idOf('i')}, ${earlier.id}, 'A', ${earlier.startsOn}::timestamptz
      from generate_series(3, ${players}::int, 3) as i`);
    await db.execute(sql`
      insert into documents (player_id, season_id, doc_type, original_filename, stored_path, storage_driver, storage_key, status,
                             bytes, mime, file_sha256, uploaded_at, reviewed_at, document_date, retain_until)
      select ${idOf('i')}, ${earlier.id}, t.doc_type, t.doc_type || '.pdf', null, null, null, 'verified',
        50000, 'application/pdf', md5('earlier' || i || t.doc_type) || md5(t.doc_type || i || 'earlier'),
        ${earlier.startsOn}::timestamptz + (i % 60) * interval '1 day', ${earlier.startsOn}::timestamptz + (i % 60 + 2) * interval '1 day',
        case when t.doc_type = 'medical' then ${earlier.startsOn}::date - 30 + (i % 60) end,
        ${earlier.startsOn}::timestamptz + interval '7 years'
      from generate_series(3, ${players}::int, 3) as i
      cross join (values ('birth_certificate'), ('medical')) as t(doc_type)`);
  }
  // Per (player, type) r in 0-999 decides: r < 40 no document; 40-79 an earlier rejected copy (v = 1) as well.
  // The current copy (v = 0): 80-94 pending with no type, 95-199 pending, 200-219 processing, 220-249 rejected, else verified.
  await db.execute(sql`
    insert into documents (player_id, season_id, doc_type, original_filename, stored_path, storage_driver, storage_key, status,
                           bytes, mime, file_sha256, uploaded_at, reviewed_at, review_notes, document_date, retain_until)
    select ${idOf('i')}, ${season.id},
      case when v = 0 and r between 80 and 94 then null else t.doc_type end,
      t.file_name || case when v = 1 then ' (old)' else '' end || '.pdf',
      stored.path, case when stored.path is null then null else 'local' end, stored.path,
      s.status, 40000 + (r * 997) % 2000000, 'application/pdf',
      md5(i || t.doc_type || v) || md5(v || t.doc_type || i),
      u.at, case when s.status in ('verified', 'rejected') then u.at + interval '2 days' end,
      case when s.status = 'rejected' then 'The scan is unreadable' end,
      -- A medical form's exam: up to 400 days before it was sent, so some run out within the season.
      case when t.doc_type = 'medical' then (u.at AT TIME ZONE 'UTC')::date - (r * 7) % 400 end,
      u.at + interval '7 years'
    from generate_series(1, ${players}::int) as i
    cross join (values ('birth_certificate', 'Birth certificate'), ('residency', 'Proof of residency'), ('medical', 'Medical form'), ('waiver', 'Waiver'))
      as t(doc_type, file_name)
    cross join generate_series(0, 1) as v
    cross join lateral (select abs(hashtext(i || ' ' || t.doc_type)) % 1000 as r) pick
    cross join lateral (select case
        when v = 1 then 'rejected'
        when r between 80 and 199 then 'pending'
        when r between 200 and 219 then 'processing'
        when r between 220 and 249 then 'rejected'
        else 'verified' end as status) s
    cross join lateral (select ${season.startsOn}::timestamptz
        + ((abs(hashtext('at ' || i || t.doc_type)) % 8640000) - v * 864000) * interval '1 second' as at) u
    cross join lateral (select case when s.status in ('pending', 'verified')
        then 'seasons/' || ${season.year} || '/bench/' || i || '/' || t.doc_type || '.pdf' end as path) stored
    where r >= 40 and (v = 0 or r < 80)`);
  return { players: await db.$count(playersTable), registrations: await db.$count(registrationsTable), documents: await db.$count(documentsTable) };
}

/**
 * What staff leave behind over a season, on top of seedScaleData's league: SCALE_USERS staff accounts (admins
 * 1-4 and moderators 5-28 review and send; 17-28 limited to one division; viewers 29-38, two of them inactive;
 * two moderators invited, pending), the audit trail of every review decision (by one of the reviewers, at the
 * document's reviewed_at, its file opened a few minutes before in 6 reviews of 10), and the History of the
 * reminders sent over the season: 40 send rounds, 2½ days apart, each player's family getting 1-5 messages
 * (3 on average; 1 in 50 failed), every round with the sender's audit record at the same instant, as a send
 * writes it. Deterministic: the same rows every run (document ids aside, which the database draws).
 */
export async function seedScaleActivity(
  db: Db,
  options: { players: number; season: { id: string; year: number; name: string; startsOn: string } },
): Promise<{ users: number; auditEvents: number; messages: number }> {
  const { players, season } = options;
  const idOf = (i: string) => sql.raw(`'CB-${season.year}-' || lpad(to_hex(${i}), 8, '0')`);
  await db.execute(sql`
    insert into users (id, email, first_name, last_name, role, status, divisions, password_hash, last_login_at, created_at)
    select md5('bench user ' || u)::uuid,
      'staff' || u || '@league.example.org',
      (array['Avery','Blake','Casey','Dana','Eden','Finley','Gray','Harper','Indy','Jordan','Kai','Logan','Morgan','Noel',
             'Oakley','Parker','Quinn','Reese','Sage','Taylor'])[1 + u % 20],
      (array['Abbott','Baker','Carter','Diaz','Ellis','Foster','Garcia','Hughes','Ibarra','Jensen','Khan','Lopez','Meyer',
             'Nakamura','Okafor','Patel','Quintero','Rossi','Silva','Tanaka','Usman','Vega','Walsh','Xu','Young'])[1 + (u * 7) % 25],
      case when u <= 4 then 'admin' when u <= ${SCALE_REVIEWERS} or u > 38 then 'moderator' else 'viewer' end,
      case when u > 38 then 'pending' when u > 36 then 'inactive' else 'active' end,
      case when u between 17 and ${SCALE_REVIEWERS} then array[(array['AAA','AA','A','Peewee'])[1 + u % 4]] else '{}'::text[] end,
      -- Never signed in with: the bench signs in with the shared password.
      case when u <= 38 then 'bench: not a password hash' end,
      case when u <= 36 then now() - (u % 9) * interval '1 day' end,
      ${season.startsOn}::timestamptz - interval '30 days'
    from generate_series(1, ${SCALE_USERS}::int) as u`);
  await db.execute(sql`
    insert into notification_history (id, type, recipient, subject, status, sent_at, error_message, created_at, player_id, season_id, body)
    select md5('message ' || i || ' ' || m)::uuid, 'email', 'guardian' || i || '@example.org',
      (array['Documents still needed for ' || ${season.name}, 'Reminder: registration documents for ' || ${season.name},
             'Last call: documents for ' || ${season.name}])[1 + k % 3],
      case when failed then 'failed' else 'sent' end,
      case when not failed then at + (i % 120) * interval '1 second' end,
      case when failed then 'The mail server refused the recipient' end,
      at, ${idOf('i')}, ${season.id},
      'Hello Guardian ' || i || ', some of the registration documents for ' || ${season.name} ||
        ' are still missing. Please send them through the link in this message before the season''s deadline. Thank you!'
    from generate_series(1, ${players}::int) as i
    cross join lateral generate_series(1, 1 + i % 5) as m
    cross join lateral (select (i * 7 + m * 13) % 40 as k, (i + m) % 50 = 0 as failed) pick
    cross join lateral (select ${season.startsOn}::timestamptz + k * interval '60 hours' + interval '18 hours' as at) round`);
  await db.execute(sql`
    with reviewed as (
      select d.id, d.status, d.review_notes, d.reviewed_at,
        1 + abs(hashtext('review ' || d.player_id || d.season_id || d.original_filename)) % ${SCALE_REVIEWERS} as reviewer,
        abs(hashtext('opened ' || d.player_id || d.season_id || d.original_filename)) % 10 < 6 as opened
      from documents d
      where d.status in ('verified', 'rejected') and d.reviewed_at is not null)
    insert into audit_events (at, actor, actor_user_id, actor_name, action, subject_type, subject_id, detail)
    select e.at, 'user', u.id, u.first_name || ' ' || u.last_name, e.action, e.subject_type, e.subject_id, e.detail
    from (
      select reviewed_at - interval '3 minutes' as at, 'document.downloaded' as action, 'document' as subject_type, id::text as subject_id,
        '{}'::jsonb as detail, reviewer
      from reviewed where opened
      union all
      select reviewed_at, 'document.status_changed', 'document', id::text,
        jsonb_build_object('from', 'pending', 'to', status, 'reviewNotes', review_notes), reviewer
      from reviewed
      union all
      select created_at, 'notifications.sent', 'notification_template', null,
        jsonb_build_object('channel', 'email', 'recipients', 'incomplete', 'messages', count(*)), 1 + (extract(epoch from created_at)::bigint / 3600) % 4
      from notification_history group by created_at) e
    join users u on u.id = md5('bench user ' || e.reviewer)::uuid
    order by e.at, e.action, e.subject_id`);
  return { users: await db.$count(usersTable), auditEvents: await db.$count(auditEventsTable), messages: await db.$count(notificationHistoryTable) };
}
