import {
  DEFAULT_RETENTION_YEARS,
  DOC_TYPE_LABELS,
  DOC_TYPES,
  type TDivision,
  type TDocType,
  type TDocumentStatus,
  type TSeasonKind,
  type TSubmissionSource,
} from '../../contract';
import type { DemoRowCounts } from './demo.repository';
import type { NewDocument } from '../documents';
import type { NewNotificationHistory } from '../notifications';
import type { NewNotificationTemplate } from '../notifications';
import type { NewPlayer } from '../players';
import type { NewRegistration } from '../players';
import type { NewSeason } from '../seasons';
import type { NewSubmission } from '../pipeline';
import type { NewUser } from '../users';
import { derivePlayerId } from '../players';
import { DEFAULT_NOTIFICATION_TEMPLATES } from '../notifications';
import { buildStoredPath, sanitizeStoredName } from '../files';

/** Seed and size of the demo a fresh embedded database gets at first start: seeds in about a second. */
export const DEFAULT_DEMO_SEED = 42;
export const DEFAULT_DEMO_PLAYERS = 600;
export const MAX_DEMO_PLAYERS = 1_000_000;

export interface DemoDataOptions {
  seed: number;
  /** Number of distinct player rows (a child playing in two season years is two rows). */
  players: number;
  idPrefix: string;
  /** Every timestamp is at or before this instant; "today" and "last 7 days" are relative to it. */
  now: Date;
}

export interface DemoData {
  seasons: NewSeason[];
  players: NewPlayer[];
  registrations: NewRegistration[];
  submissions: NewSubmission[];
  documents: NewDocument[];
  users: NewUser[];
  notificationTemplates: NewNotificationTemplate[];
  notificationHistory: NewNotificationHistory[];
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

// ---------------------------------------------------------------------------------------------------------
// Seeded randomness. Everything random, uuids included, comes from one stream so a seed replays exactly.
// ---------------------------------------------------------------------------------------------------------

interface Random {
  /** Uniform in [0, 1). */
  nextFloat(): number;
  /** Uniform integer in [min, max], both inclusive. */
  nextInt(min: number, max: number): number;
  rollChance(probability: number): boolean;
  pickOne<T>(items: readonly T[]): T;
  pickWeighted<T>(table: WeightedTable<T>): T;
  nextHex(length: number): string;
  /** A version-4 formatted uuid drawn from the stream: stable per seed, unlike crypto.randomUUID. */
  nextUuid(): string;
}

/** sfc32 (Chris Doty-Humphrey's small fast counter), seeded through splitmix32: tiny and good enough. */
function createRandom(seed: number): Random {
  let seedState = seed >>> 0;
  const splitmix32 = (): number => {
    seedState = (seedState + 0x9e3779b9) >>> 0;
    let z = seedState;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = splitmix32();
  let b = splitmix32();
  let c = splitmix32();
  let d = splitmix32();
  const nextUint32 = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  // The first outputs of a freshly seeded sfc32 are correlated with the seed; discard them.
  for (let i = 0; i < 12; i += 1) nextUint32();

  const nextFloat = () => nextUint32() / 4_294_967_296;
  // Reused buffers and native encoding: hashes and uuids are drawn ~600,000 times for a big demo, and
  // this way each is one flat string rather than a rope of pieces that the garbage collector must trace.
  const hexBuffer = Buffer.alloc(64);
  const nextHex = (length: number): string => {
    const bytes = Math.ceil(length / 2);
    if (bytes > hexBuffer.length) throw new RangeError(`nextHex supports up to ${hexBuffer.length * 2} digits`);
    for (let offset = 0; offset < bytes; offset += 4) hexBuffer.writeUInt32LE(nextUint32(), offset);
    const hex = hexBuffer.toString('hex', 0, bytes);
    return hex.length === length ? hex : hex.slice(0, length);
  };
  const uuidBuffer = Buffer.alloc(36);
  const nextUuid = (): string => {
    let position = 0;
    for (let word = 0; word < 4; word += 1) {
      let value = nextUint32();
      for (let nibble = 0; nibble < 8; nibble += 1) {
        if (position === 8 || position === 13 || position === 18 || position === 23) {
          uuidBuffer[position] = DASH;
          position += 1;
        }
        let digit = value & 15;
        value >>>= 4;
        if (position === 14) digit = 4; // version 4
        if (position === 19) digit = 8 | (digit & 3); // variant 10xx
        uuidBuffer[position] = HEX_DIGITS[digit] ?? DASH;
        position += 1;
      }
    }
    return uuidBuffer.toString('latin1');
  };
  return {
    nextFloat,
    nextInt: (min, max) => min + Math.floor(nextFloat() * (max - min + 1)),
    rollChance: (probability) => nextFloat() < probability,
    pickOne: <T>(items: readonly T[]): T => {
      const item = items[Math.floor(nextFloat() * items.length)];
      if (item === undefined) throw new RangeError('pickOne needs a non-empty list');
      return item;
    },
    pickWeighted: <T>(table: WeightedTable<T>): T => {
      const target = nextFloat() * table.total;
      for (const entry of table.entries) if (target < entry.upTo) return entry.value;
      return table.last;
    },
    nextHex,
    nextUuid,
  };
}

const HEX_DIGITS = Buffer.from('0123456789abcdef', 'latin1');
const DASH = 0x2d;

interface WeightedTable<T> {
  entries: ReadonlyArray<{ value: T; upTo: number }>;
  total: number;
  last: T;
}

/** Precomputes cumulative weights once so each draw is a short scan, not a re-sum. */
function buildWeightedTable<T>(weights: ReadonlyArray<readonly [T, number]>): WeightedTable<T> {
  let total = 0;
  const entries = weights.map(([value, weight]) => {
    total += weight;
    return { value, upTo: total };
  });
  const lastEntry = entries[entries.length - 1];
  if (!lastEntry || total <= 0) throw new RangeError('A weighted table needs a positive weight');
  return { entries, total, last: lastEntry.value };
}

// ---------------------------------------------------------------------------------------------------------
// Fixed vocabulary.
// ---------------------------------------------------------------------------------------------------------

const FIRST_NAMES = [
  'Emma', 'Olivia', 'Ava', 'Sophia', 'Isabella', 'Mia', 'Charlotte', 'Amelia', 'Harper', 'Evelyn', 'Abigail',
  'Emily', 'Ella', 'Avery', 'Scarlett', 'Grace', 'Chloé', 'Zoë', 'Lucía', 'Sofía', 'Renée', 'Maya', 'Aaliyah',
  'Priya', 'Hana', 'Nora', 'Leah', 'Ruby', 'Ivy', 'Camila', 'Liam', 'Noah', 'Oliver', 'Elijah', 'James',
  'William', 'Benjamin', 'Lucas', 'Henry', 'Alexander', 'Mason', 'Ethan', 'Daniel', 'Jacob', 'Logan', 'Jackson',
  'Sebastián', 'José', 'Matías', 'André', 'Noé', 'Mateo', 'Diego', 'Kai', 'Arjun', 'Omar', 'Wei', 'Kofi',
  'Finn', 'Owen', 'Caleb', 'Jayden',
] as const;

const LAST_NAMES = [
  'Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Miller', 'Davis', 'Wilson', 'Anderson', 'Taylor', 'Thomas',
  'Moore', 'Martin', 'Jackson', 'Thompson', 'White', 'Harris', 'Clark', 'Lewis', 'Robinson', 'Walker', 'Young',
  'Allen', 'King', 'Wright', 'Scott', 'Hill', 'Green', 'Adams', 'Baker', 'Nguyen', 'Kim', 'Patel', 'Chen',
  'García', 'Martínez', 'Rodríguez', 'Hernández', 'López', 'Peña', 'Muñoz', 'Núñez', 'Côté', 'Lefèvre',
  'Müller', "O'Brien", 'García-López', 'Smith-Jones', 'Okafor', 'Kowalski', 'Rossi', 'Novak',
] as const;

const GUARDIAN_FIRST_NAMES = [
  'Jennifer', 'Michael', 'Sarah', 'David', 'Jessica', 'Christopher', 'Ashley', 'Matthew', 'Amanda', 'Joshua',
  'Melissa', 'Andrew', 'Stephanie', 'Ryan', 'Nicole', 'Brian', 'Elizabeth', 'Kevin', 'Laura', 'Carlos', 'María',
  'Ana', 'Luis', 'Thi', 'Min-jun', 'Aisha', 'Rahul', 'Ngozi', 'Françoise', 'Björn',
] as const;

const EMAIL_DOMAINS = ['example.org', 'example.com', 'example.net'] as const;
const MAIL_HOSTS = ['mail.example.org', 'mx.example.com', 'smtp.example.net'] as const;
const AREA_CODES = ['212', '312', '415', '503', '617', '720', '919', '206'] as const;

const DIVISION_WEIGHTS = buildWeightedTable<TDivision>([
  ['AAA', 24],
  ['AA', 31],
  ['A', 30],
  ['Peewee', 12],
  ['TEST', 3],
]);

interface SeasonPlan {
  id: string;
  name: string;
  kind: TSeasonKind;
  year: number;
  startsOn: string;
  endsOn: string;
  isCurrent: boolean;
  /** Activity window: season start to the earlier of season end and `now`. */
  windowStartMs: number;
  windowEndMs: number;
  /** Share of registrations with all four documents verified. */
  allVerifiedShare: number;
  /** Status of each document of the other registrations; 'missing' = never sent. */
  documentOutcomes: WeightedTable<DocumentOutcome>;
}

type DocumentOutcome = TDocumentStatus | 'missing';

const YEARS = [2023, 2024, 2025] as const;
/** Later years are bigger, so reports show growth. */
const YEAR_SHARES: Readonly<Record<(typeof YEARS)[number], number>> = { 2023: 0.24, 2024: 0.32, 2025: 0.44 };
/** A child plays Spring only, Fall only, or both in one year; Fall is the bigger season. */
const PLAYS_BOTH_SHARE = 0.35;
const PLAYS_SPRING_ONLY_SHARE = 0.25;
/** Children from the previous year who sign up again (as a new player row with a new id). */
const RETURNING_SHARE = 0.4;

/** Older seasons were followed up long ago: more verified, nothing left processing. */
const PAST_OUTCOMES = buildWeightedTable<DocumentOutcome>([
  ['verified', 55],
  ['pending', 8],
  ['rejected', 6],
  ['missing', 31],
]);
const CURRENT_OUTCOMES = buildWeightedTable<DocumentOutcome>([
  ['verified', 35],
  ['pending', 30],
  ['processing', 8],
  ['rejected', 5],
  ['missing', 22],
]);
/** Files that arrived in the last week have mostly not been looked at yet. */
const RECENT_OUTCOMES = buildWeightedTable<DocumentOutcome>([
  ['pending', 55],
  ['processing', 10],
  ['verified', 17],
  ['rejected', 4],
  ['missing', 14],
]);
const PAST_ALL_VERIFIED = [0.72, 0.7, 0.66, 0.62, 0.55] as const;
const CURRENT_ALL_VERIFIED = 0.22;

const SOURCE_WEIGHTS = buildWeightedTable<TSubmissionSource>([
  ['form', 70],
  ['mailbox', 30],
]);

/** About 1% of documents: one extra, unrecognised file in ~3.5% of registrations (≈3.5 documents each). */
const UNDETECTED_SHARE = 0.035;
const REPLACED_AFTER_REJECTION_SHARE = 0.5;
const SPLIT_SUBMISSION_SHARE = 0.25;
/** Per registration; plus six recent ones at the end. */
const FAILED_SUBMISSION_SHARE = 0.02;
const RECENT_SHARE_OF_CURRENT = 0.03;
const MIN_RECENT_REGISTRATIONS = 12;
/** The newest few are still queued: submission pending, files processing. Few, so today's success rate looks healthy. */
const QUEUED_SHARE_OF_RECENT = 0.02;
const MIN_QUEUED = 2;

/** Failures phrased so staff know what to do next. */
const SUBMISSION_FAILURES: ReadonlyArray<{ message: string; source: TSubmissionSource; identified: boolean }> = [
  { message: 'No player name found in the e-mail', source: 'mailbox', identified: false },
  { message: 'Attachment is not a PDF or image', source: 'mailbox', identified: true },
  { message: 'Virus found: Eicar-Test-Signature', source: 'mailbox', identified: true },
  { message: 'No attachments found in the e-mail', source: 'mailbox', identified: true },
  { message: 'Birth date is missing from the form', source: 'form', identified: false },
];

const REJECTION_REASONS: Readonly<Record<TDocType, readonly string[]>> = {
  birth_certificate: [
    'Image is blurry; the birth date cannot be read',
    'Name on the certificate does not match the player',
    'Only the first page was sent',
  ],
  residency: [
    'Proof of residency is older than 90 days',
    'Address is outside the league boundary',
    'Guardian name is not on the document',
  ],
  medical: [
    'Physician signature is missing',
    'Medical form is from last season',
    'Page 2 of the medical form is missing',
  ],
  waiver: ['Waiver is not signed by a guardian', 'Wrong season on the waiver', 'Waiver page is cut off'],
};

interface FileKind {
  extension: string;
  mime: string;
  minBytes: number;
  maxBytes: number;
}
const PDF: FileKind = { extension: 'pdf', mime: 'application/pdf', minBytes: 30 * 1024, maxBytes: 1_600 * 1024 };
const JPEG: FileKind = { extension: 'jpg', mime: 'image/jpeg', minBytes: 600 * 1024, maxBytes: 4 * 1024 * 1024 };
const PNG: FileKind = { extension: 'png', mime: 'image/png', minBytes: 300 * 1024, maxBytes: 3 * 1024 * 1024 };
const HEIC: FileKind = { extension: 'heic', mime: 'image/heic', minBytes: 500 * 1024, maxBytes: 3 * 1024 * 1024 };

// ---------------------------------------------------------------------------------------------------------
// Generation.
// ---------------------------------------------------------------------------------------------------------

interface Child {
  firstName: string;
  lastName: string;
  /** The name part of the stored path, folded once here rather than once per file. */
  storedName: string;
  /** Plain lowercase surname for file names such as 'birth_certificate_garcia.pdf'. */
  fileSurname: string;
  birthDate: string;
  guardianName: string | null;
  guardianEmail: string | null;
  guardianPhone: string | null;
}

interface PlayerRef {
  id: string;
  child: Child;
}

interface RegistrationRef {
  player: PlayerRef;
  season: SeasonPlan;
  division: TDivision;
}

/** Mutable state of one generation run. */
interface Generation {
  random: Random;
  nowMs: number;
  /** The chunk being filled; rows are pushed here and handed out when it is full. */
  data: DemoData;
  formCounter: number;
  mailboxCounter: number;
  failureCounter: number;
  /** The first few current-season registrations: recipients for notifications and the newest failures. */
  currentSample: RegistrationRef[];
  firstRegistration: RegistrationRef | undefined;
}

const CURRENT_SAMPLE_SIZE = 200;

/**
 * Deterministic demo data for every screen: six seasons with growth, players with partial and complete
 * document sets in every status, form and mailbox submissions (some failed, some in the last 24 hours),
 * staff users and notifications. Pure: same options, same rows; no clock, no I/O.
 */
export function generateDemoData(options: DemoDataOptions): DemoData {
  // With no chunk limit there is exactly one chunk; merging keeps this right even if that changes.
  let merged: DemoData | undefined;
  for (const chunk of generateDemoDataInChunks(options, Number.POSITIVE_INFINITY)) {
    if (merged) appendChunk(merged, chunk);
    else merged = chunk;
  }
  return merged ?? createEmptyChunk();
}

/**
 * The same rows as generateDemoData, in the same order, handed out about `playersPerChunk` players at a
 * time so a million-player seed never holds more than one chunk in memory. Each chunk is complete in
 * itself for foreign keys once the chunks before it are written: seasons come in the first, a player's
 * registrations, submissions and documents with the player, users and notifications in the last.
 */
export function* generateDemoDataInChunks(options: DemoDataOptions, playersPerChunk = 10_000): Generator<DemoData, void> {
  validateOptions(options);
  if (!(playersPerChunk >= 1)) throw new RangeError(`playersPerChunk must be at least 1, got ${playersPerChunk}`);
  const seasonPlans = planSeasons(options.now.getTime());
  const generation: Generation = {
    random: createRandom(options.seed),
    nowMs: options.now.getTime(),
    data: createEmptyChunk(),
    formCounter: 0,
    mailboxCounter: 0,
    failureCounter: 0,
    currentSample: [],
    firstRegistration: undefined,
  };
  generation.data.seasons = seasonPlans.map((plan) => ({
    id: plan.id,
    name: plan.name,
    kind: plan.kind,
    year: plan.year,
    startsOn: plan.startsOn,
    endsOn: plan.endsOn,
    isCurrent: plan.isCurrent,
  }));

  yield* generatePlayers(generation, seasonPlans, options, playersPerChunk);
  generateRecentFailures(generation);
  generation.data.users = generateUsers(generation);
  generation.data.notificationTemplates = generateNotificationTemplates(generation);
  generation.data.notificationHistory = generateNotificationHistory(generation);
  yield generation.data;
}

function createEmptyChunk(): DemoData {
  return {
    seasons: [],
    players: [],
    registrations: [],
    submissions: [],
    documents: [],
    users: [],
    notificationTemplates: [],
    notificationHistory: [],
  };
}

/** push(...rows) would overflow the call stack on a 200,000-row array, so rows are copied one by one. */
function appendChunk(target: DemoData, chunk: DemoData): void {
  const append = <T>(into: T[], rows: readonly T[]) => {
    for (const row of rows) into.push(row);
  };
  append(target.seasons, chunk.seasons);
  append(target.players, chunk.players);
  append(target.registrations, chunk.registrations);
  append(target.submissions, chunk.submissions);
  append(target.documents, chunk.documents);
  append(target.users, chunk.users);
  append(target.notificationTemplates, chunk.notificationTemplates);
  append(target.notificationHistory, chunk.notificationHistory);
}

export function countDemoData(data: DemoData): DemoRowCounts {
  return {
    seasons: data.seasons.length,
    players: data.players.length,
    registrations: data.registrations.length,
    submissions: data.submissions.length,
    documents: data.documents.length,
    users: data.users.length,
    notificationTemplates: data.notificationTemplates.length,
    notificationHistory: data.notificationHistory.length,
  };
}

function validateOptions(options: DemoDataOptions): void {
  if (!Number.isInteger(options.players) || options.players < 1 || options.players > MAX_DEMO_PLAYERS) {
    throw new RangeError(`players must be a whole number from 1 to ${MAX_DEMO_PLAYERS}, got ${options.players}`);
  }
  if (!Number.isInteger(options.seed)) throw new RangeError(`seed must be a whole number, got ${options.seed}`);
  if (!Number.isFinite(options.now.getTime())) throw new RangeError('now must be a valid date');
  if (!/^[A-Z][A-Z0-9]{0,7}$/.test(options.idPrefix)) {
    throw new RangeError(`idPrefix must be 1 to 8 capital letters or digits, got '${options.idPrefix}'`);
  }
}

function planSeasons(nowMs: number): SeasonPlan[] {
  const plans: SeasonPlan[] = [];
  let pastIndex = 0;
  for (const year of YEARS) {
    for (const kind of ['Spring Ball', 'Fall Ball'] as const) {
      const isSpring = kind === 'Spring Ball';
      const startsOn = isSpring ? `${year}-03-01` : `${year}-08-15`;
      const endsOn = isSpring ? `${year}-06-30` : `${year}-11-30`;
      const isCurrent = year === 2025 && !isSpring;
      // Ends a little before midnight so files processed minutes after the last registration still fall in the season.
      let windowEndMs = Math.min(Date.parse(`${endsOn}T22:00:00Z`), nowMs);
      let windowStartMs = Date.parse(`${startsOn}T00:00:00Z`);
      // A `now` before the season (odd clocks, old test dates) still needs somewhere to put the rows.
      if (windowEndMs - windowStartMs < DAY_MS) {
        windowEndMs = nowMs;
        windowStartMs = nowMs - 30 * DAY_MS;
      }
      const allVerifiedShare = isCurrent ? CURRENT_ALL_VERIFIED : (PAST_ALL_VERIFIED[pastIndex] ?? 0.5);
      if (!isCurrent) pastIndex += 1;
      plans.push({
        id: `${isSpring ? 'spring' : 'fall'}-${year}`,
        name: `${kind} ${year}`,
        kind,
        year,
        startsOn,
        endsOn,
        isCurrent,
        windowStartMs,
        windowEndMs,
        allVerifiedShare,
        documentOutcomes: isCurrent ? CURRENT_OUTCOMES : PAST_OUTCOMES,
      });
    }
  }
  return plans;
}

/** Splits `total` by `shares` so the parts are whole numbers that add up exactly (largest remainder). */
function apportion(total: number, shares: readonly number[]): number[] {
  const sum = shares.reduce((acc, share) => acc + share, 0);
  const exact = shares.map((share) => (total * share) / sum);
  const parts = exact.map(Math.floor);
  let left = total - parts.reduce((acc, part) => acc + part, 0);
  const byRemainder = exact.map((value, index) => ({ index, remainder: value - Math.floor(value) }));
  byRemainder.sort((x, y) => y.remainder - x.remainder || x.index - y.index);
  for (const { index } of byRemainder) {
    if (left <= 0) break;
    parts[index] = (parts[index] ?? 0) + 1;
    left -= 1;
  }
  return parts;
}

type SeasonPattern = 'both' | 'spring' | 'fall';

function shuffleInPlace<T>(random: Random, items: T[]): void {
  for (let i = items.length - 1; i > 0; i -= 1) {
    const j = random.nextInt(0, i);
    const item = items[i] as T;
    items[i] = items[j] as T;
    items[j] = item;
  }
}

function* generatePlayers(
  generation: Generation,
  seasonPlans: SeasonPlan[],
  options: DemoDataOptions,
  playersPerChunk: number,
): Generator<DemoData, void> {
  const { random } = generation;
  const perYear = apportion(options.players, YEARS.map((year) => YEAR_SHARES[year]));
  let previousYearChildren: Child[] = [];
  let playersLeft = options.players;

  for (const [yearIndex, year] of YEARS.entries()) {
    const count = perYear[yearIndex] ?? 0;
    const [both = 0, springOnly = 0] = apportion(count, [
      PLAYS_BOTH_SHARE,
      PLAYS_SPRING_ONLY_SHARE,
      1 - PLAYS_BOTH_SHARE - PLAYS_SPRING_ONLY_SHARE,
    ]);
    const patterns: SeasonPattern[] = Array.from({ length: count }, (_, i): SeasonPattern =>
      i < both ? 'both' : i < both + springOnly ? 'spring' : 'fall',
    );
    shuffleInPlace(random, patterns);
    const spring = seasonPlans.find((plan) => plan.year === year && plan.kind === 'Spring Ball');
    const fall = seasonPlans.find((plan) => plan.year === year && plan.kind === 'Fall Ball');
    if (!spring || !fall) throw new Error(`No seasons planned for ${year}`);

    // Exactly this many current-season registrations land in the last 7 days (selection sampling).
    const currentCandidates = fall.isCurrent ? count - springOnly : 0;
    let recentNeeded = Math.min(
      currentCandidates,
      Math.max(MIN_RECENT_REGISTRATIONS, Math.round(currentCandidates * RECENT_SHARE_OF_CURRENT)),
    );
    const queuedCount = Math.min(recentNeeded, Math.max(MIN_QUEUED, Math.round(recentNeeded * QUEUED_SHARE_OF_RECENT)));
    let candidatesLeft = currentCandidates;
    let recentIndex = 0;

    const usedIds = new Set<string>();
    const returningPool = previousYearChildren;
    const thisYearChildren: Child[] = [];

    for (const pattern of patterns) {
      const { id, child } = createUniquePlayer(generation, year, returningPool, usedIds, options.idPrefix);
      usedIds.add(id);
      thisYearChildren.push(child);
      const player: PlayerRef = { id, child };

      const yearDivision = random.pickWeighted(DIVISION_WEIGHTS);
      const seasonsPlayed = pattern === 'both' ? [spring, fall] : pattern === 'spring' ? [spring] : [fall];
      let firstRegisteredAt: Date | undefined;
      for (const season of seasonsPlayed) {
        // Some children move up or down a division between Spring and Fall.
        const division = season === fall && pattern === 'both' && random.rollChance(0.1)
          ? random.pickWeighted(DIVISION_WEIGHTS)
          : yearDivision;
        let recent: RecentSlot | undefined;
        if (season.isCurrent) {
          if (random.nextFloat() * candidatesLeft < recentNeeded) {
            recent = recentIndex < queuedCount ? 'queued' : recentIndex % 3 === 0 ? 'today' : 'week';
            recentIndex += 1;
            recentNeeded -= 1;
          }
          candidatesLeft -= 1;
        }
        const ref: RegistrationRef = { player, season, division };
        const registeredAt = generateRegistration(generation, ref, recent);
        firstRegisteredAt ??= registeredAt;
        generation.firstRegistration ??= ref;
        if (season.isCurrent && generation.currentSample.length < CURRENT_SAMPLE_SIZE) generation.currentSample.push(ref);
        if (random.rollChance(FAILED_SUBMISSION_SHARE)) {
          addFailedSubmission(generation, ref, pickTimeAfter(random, season.windowStartMs, season.windowEndMs));
        }
      }
      const createdAt = firstRegisteredAt ?? new Date(spring.windowStartMs);
      generation.data.players.push({
        id,
        firstName: child.firstName,
        lastName: child.lastName,
        birthDate: child.birthDate,
        guardianName: child.guardianName,
        guardianEmail: child.guardianEmail,
        guardianPhone: child.guardianPhone,
        createdAt,
        updatedAt: createdAt,
      });
      playersLeft -= 1;
      // The last players stay in the final chunk with the staff and notification rows.
      if (generation.data.players.length >= playersPerChunk && playersLeft > 0) {
        yield generation.data;
        generation.data = createEmptyChunk();
      }
    }
    previousYearChildren = thisYearChildren;
  }
}

/**
 * A returning child from last year (same name, birth date and guardian, new id because the year differs)
 * or a new one; retried when the derived id is already taken this year so no row is silently dropped
 * by the insert's ON CONFLICT DO NOTHING.
 */
function createUniquePlayer(
  generation: Generation,
  year: number,
  returningPool: Child[],
  usedIds: ReadonlySet<string>,
  prefix: string,
): PlayerRef {
  const { random } = generation;
  for (let attempt = 0; attempt < 100; attempt += 1) {
    let child: Child | undefined;
    if (attempt === 0 && returningPool.length > 0 && random.rollChance(RETURNING_SHARE)) {
      child = takeRandom(random, returningPool);
      // Too old for this year's Fall season: they aged out.
      if (child && child.birthDate <= `${year - 15}-08-15`) child = undefined;
    }
    child ??= createChild(random, year);
    const id = derivePlayerId({ prefix, year, firstName: child.firstName, lastName: child.lastName, birthDate: child.birthDate });
    if (!usedIds.has(id)) return { id, child };
  }
  throw new Error(`Could not find a free player id in ${year}; the name lists are too small for this many players`);
}

/** Removes and returns a random element in O(1) by swapping with the last one. */
function takeRandom<T>(random: Random, items: T[]): T | undefined {
  if (items.length === 0) return undefined;
  const index = random.nextInt(0, items.length - 1);
  const item = items[index];
  const last = items.pop();
  if (index < items.length && last !== undefined) items[index] = last;
  return item;
}

/** Born so the child is 5 to 14 at the start of both seasons of `year` (Mar 1 and Aug 15). */
function createChild(random: Random, year: number): Child {
  const earliest = Date.UTC(year - 15, 7, 16);
  const latest = Date.UTC(year - 5, 2, 1);
  const birthDate = formatDate(earliest + random.nextInt(0, Math.round((latest - earliest) / DAY_MS)) * DAY_MS);
  const firstName = random.pickOne(FIRST_NAMES);
  const lastName = random.pickOne(LAST_NAMES);
  const storedName = sanitizeStoredName(firstName, lastName);
  const fileSurname = foldToAscii(lastName) || 'player';
  const names = { firstName, lastName, storedName, fileSurname, birthDate };
  if (random.rollChance(0.03)) {
    return { ...names, guardianName: null, guardianEmail: null, guardianPhone: null };
  }
  const guardianFirst = random.pickOne(GUARDIAN_FIRST_NAMES);
  const guardianLast = random.rollChance(0.8) ? lastName : random.pickOne(LAST_NAMES);
  const localPart = `${foldToAscii(guardianFirst)}.${foldToAscii(guardianLast)}${random.rollChance(0.4) ? random.nextInt(1, 99) : ''}`;
  return {
    ...names,
    guardianName: `${guardianFirst} ${guardianLast}`,
    guardianEmail: `${localPart}@${random.pickOne(EMAIL_DOMAINS)}`,
    // 555-0100 to 555-0199 are reserved for fiction: no real family gets a call.
    guardianPhone: `(${random.pickOne(AREA_CODES)}) 555-01${String(random.nextInt(0, 99)).padStart(2, '0')}`,
  };
}

function foldToAscii(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');
}

function formatDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * A current-season registration placed just before `now`: 'queued' in the last 30 minutes and not yet
 * through the pipeline, 'today' in the last 24 hours, 'week' in the last 7 days. Placed there even when
 * `now` is past the season's end, so the dashboard's "today" and "7 days" figures are never empty.
 */
type RecentSlot = 'queued' | 'today' | 'week';

const RECENT_MINUTES_AGO: Readonly<Record<RecentSlot, readonly [number, number]>> = {
  queued: [1, 30],
  today: [31, 23 * 60],
  week: [25 * 60, 7 * 24 * 60],
};

interface PlannedDocument {
  docType: TDocType | null;
  status: TDocumentStatus;
}

/** Writes one registration with its submissions and documents; returns when the player registered. */
function generateRegistration(generation: Generation, ref: RegistrationRef, recent: RecentSlot | undefined): Date {
  const { random, nowMs } = generation;
  const { season } = ref;
  const registeredMs = recent
    ? nowMs - random.nextInt(...RECENT_MINUTES_AGO[recent]) * MINUTE_MS
    : season.windowStartMs + (season.windowEndMs - season.windowStartMs) * random.nextFloat() ** 1.7;
  const registeredAt = new Date(Math.floor(registeredMs));
  generation.data.registrations.push({
    playerId: ref.player.id,
    seasonId: season.id,
    division: ref.division,
    registeredAt,
  });

  const planned = planDocuments(random, season, recent);
  const lastActivityMs = Math.min(season.windowEndMs, nowMs);
  // Most families send everything at once; some send the rest within the next weeks.
  const canSplit = planned.length >= 2 && !recent && lastActivityMs - registeredMs > DAY_MS;
  const splitAt = canSplit && random.rollChance(SPLIT_SUBMISSION_SHARE)
    ? random.nextInt(1, planned.length - 1)
    : planned.length;
  const firstSource: TSubmissionSource = recent ? 'mailbox' : random.pickWeighted(SOURCE_WEIGHTS);
  const rejected: Array<{ docType: TDocType | null; reviewedAt: Date }> = [];

  const firstBatch = planned.slice(0, splitAt);
  const firstStatus = recent === 'queued' ? 'pending' : 'processed';
  const firstSubmission = addSubmission(generation, ref, firstSource, registeredAt, firstBatch, firstStatus);
  rejected.push(...addDocuments(generation, ref, firstSubmission, firstBatch));

  if (splitAt < planned.length) {
    const laterMs = pickTimeAfter(random, registeredMs, Math.min(registeredMs + 40 * DAY_MS, lastActivityMs));
    const laterBatch = planned.slice(splitAt);
    const later = addSubmission(generation, ref, random.pickWeighted(SOURCE_WEIGHTS), new Date(laterMs), laterBatch, 'processed');
    rejected.push(...addDocuments(generation, ref, later, laterBatch));
  }

  // A rejected file is often followed by a corrected one; the newest decides the player's status.
  for (const { docType, reviewedAt } of rejected) {
    if (docType === null || !random.rollChance(REPLACED_AFTER_REJECTION_SHARE)) continue;
    const reviewedMs = reviewedAt.getTime();
    // Rejected at the very end of the season: nobody sends a corrected file after it closed.
    if (lastActivityMs - reviewedMs < HOUR_MS) continue;
    const replacementMs = pickTimeAfter(random, reviewedMs, Math.min(reviewedMs + 10 * DAY_MS, lastActivityMs));
    const status: TDocumentStatus = season.isCurrent
      ? random.pickOne(['pending', 'pending', 'processing', 'verified'] as const)
      : random.rollChance(0.9) ? 'verified' : 'pending';
    const batch = [{ docType, status }];
    const source = random.pickWeighted(SOURCE_WEIGHTS);
    const resubmission = addSubmission(generation, ref, source, new Date(replacementMs), batch, 'processed');
    addDocuments(generation, ref, resubmission, batch);
  }
  return registeredAt;
}

/**
 * A moment in (fromMs, toMs]: drawn over the whole range rather than clamped to its end, so capping by
 * `now` does not pile hundreds of rows onto the same instant.
 */
function pickTimeAfter(random: Random, fromMs: number, toMs: number): number {
  return toMs <= fromMs ? fromMs : Math.floor(toMs - (toMs - fromMs) * random.nextFloat());
}

function planDocuments(random: Random, season: SeasonPlan, recent: RecentSlot | undefined): PlannedDocument[] {
  const planned: PlannedDocument[] = [];
  const allVerified = !recent && random.rollChance(season.allVerifiedShare);
  const outcomes = recent ? RECENT_OUTCOMES : season.documentOutcomes;
  for (const docType of DOC_TYPES) {
    const outcome = allVerified ? 'verified' : random.pickWeighted(outcomes);
    if (outcome === 'missing') continue;
    // Still in the pipeline: nothing about these files is decided yet.
    planned.push({ docType, status: recent === 'queued' ? 'processing' : outcome });
  }
  // Type detection has not run on queued files yet, so only processed submissions hold undetected ones.
  if (recent !== 'queued' && random.rollChance(UNDETECTED_SHARE)) planned.push({ docType: null, status: 'pending' });
  return planned;
}

function addSubmission(
  generation: Generation,
  ref: RegistrationRef,
  requestedSource: TSubmissionSource,
  receivedAt: Date,
  batch: readonly PlannedDocument[],
  status: 'pending' | 'processed',
): SubmissionRef {
  const { random } = generation;
  const { child } = ref.player;
  // A mailbox submission needs a sender, and an e-mail with no files would not register anyone.
  const source = child.guardianEmail === null || batch.length === 0 ? 'form' : requestedSource;
  const id = random.nextUuid();
  const isMailbox = source === 'mailbox';
  generation.data.submissions.push({
    id,
    source,
    externalId: nextExternalId(generation, source),
    receivedAt,
    fromEmail: child.guardianEmail,
    subject: isMailbox ? composeSubject(random, child, batch) : null,
    playerId: ref.player.id,
    seasonId: ref.season.id,
    fields: isMailbox ? describeMailboxFields(ref) : describeFormFields(ref),
    status,
    errorMessage: null,
    attachmentCount: batch.length,
    createdAt: receivedAt,
  });
  return { id, receivedAt };
}

interface SubmissionRef {
  id: string;
  receivedAt: Date;
}

function nextExternalId(generation: Generation, source: TSubmissionSource): string {
  if (source === 'mailbox') {
    generation.mailboxCounter += 1;
    // Fixed-width random part + counter: unique by construction, still looks like a Message-ID.
    const local = `${generation.random.nextHex(10)}.${generation.mailboxCounter.toString(36)}`;
    return `<${local}@${generation.random.pickOne(MAIL_HOSTS)}>`;
  }
  generation.formCounter += 1;
  return `form-${String(generation.formCounter).padStart(6, '0')}`;
}

function composeSubject(random: Random, child: Child, batch: readonly PlannedDocument[]): string | null {
  const fullName = `${child.firstName} ${child.lastName}`;
  const firstType = batch[0]?.docType;
  const roll = random.nextFloat();
  if (roll < 0.1) return null;
  if (roll < 0.55) return `Registration documents for ${fullName}`;
  if (roll < 0.75 && firstType) return `${DOC_TYPE_LABELS[firstType]} - ${fullName}`;
  if (roll < 0.9) return `Fwd: ${child.firstName}'s paperwork`;
  return `Re: Missing documents for ${fullName}`;
}

function describeFormFields(ref: RegistrationRef): Record<string, string> {
  const { child } = ref.player;
  const fields: Record<string, string> = {
    playerFirstName: child.firstName,
    playerLastName: child.lastName,
    birthDate: child.birthDate,
    division: ref.division,
    season: ref.season.name,
  };
  if (child.guardianName !== null) fields.guardianName = child.guardianName;
  if (child.guardianEmail !== null) fields.guardianEmail = child.guardianEmail;
  if (child.guardianPhone !== null) fields.guardianPhone = child.guardianPhone;
  return fields;
}

function describeMailboxFields(ref: RegistrationRef): Record<string, string> {
  const { child } = ref.player;
  return {
    playerName: `${child.firstName} ${child.lastName}`,
    birthDate: child.birthDate,
    division: ref.division,
  };
}

/** Adds the batch's documents; returns the rejected ones so a replacement can follow. */
function addDocuments(
  generation: Generation,
  ref: RegistrationRef,
  submission: SubmissionRef,
  batch: readonly PlannedDocument[],
): Array<{ docType: TDocType | null; reviewedAt: Date }> {
  const { random, nowMs } = generation;
  const { child } = ref.player;
  const rejected: Array<{ docType: TDocType | null; reviewedAt: Date }> = [];
  for (const planned of batch) {
    const file = nameFile(random, child, planned.docType, ref.season.year);
    const fileSha256 = random.nextHex(64);
    const uploadedMs = Math.min(submission.receivedAt.getTime() + random.nextInt(5, 180) * 1000, nowMs);
    const reviewed = planned.status === 'verified' || planned.status === 'rejected';
    const reviewedAt = reviewed
      ? new Date(pickTimeAfter(random, uploadedMs, Math.min(uploadedMs + 4 * DAY_MS, nowMs)))
      : null;
    const storedPath = buildStoredPath({
      year: ref.season.year,
      division: ref.division,
      storedName: child.storedName,
      birthDate: child.birthDate,
      playerId: ref.player.id,
      docType: planned.docType,
      submissionId: submission.id,
      fileSha256,
      extension: file.kind.extension,
    });
    const uploadedAt = new Date(uploadedMs);
    const reviewNotes = planned.status === 'rejected' && planned.docType
      ? random.pickOne(REJECTION_REASONS[planned.docType])
      : null;
    generation.data.documents.push({
      id: random.nextUuid(),
      playerId: ref.player.id,
      seasonId: ref.season.id,
      submissionId: submission.id,
      docType: planned.docType,
      originalFilename: file.name,
      // Demo rows point at a key that holds no object: there is no file, so no wrapped key, IV or tag.
      storedPath,
      storageDriver: 'local',
      storageKey: storedPath,
      status: planned.status,
      bytes: random.nextInt(file.kind.minBytes, file.kind.maxBytes),
      mime: file.kind.mime,
      fileSha256,
      uploadedAt,
      reviewedAt,
      reviewNotes,
      retainUntil: addYears(uploadedAt, DEFAULT_RETENTION_YEARS),
      createdAt: uploadedAt,
    });
    if (planned.status === 'rejected' && reviewedAt) rejected.push({ docType: planned.docType, reviewedAt });
  }
  return rejected;
}

function addYears(date: Date, years: number): Date {
  const result = new Date(date.getTime());
  result.setUTCFullYear(result.getUTCFullYear() + years);
  return result;
}

/** File names as parents really send them: tidy PDFs, phone photos, scanner defaults. */
function nameFile(random: Random, child: Child, docType: TDocType | null, year: number): { name: string; kind: FileKind } {
  const last = child.fileSurname;
  const first = child.firstName;
  const photo = (): { name: string; kind: FileKind } => {
    const kind = random.pickOne([JPEG, JPEG, JPEG, HEIC, PNG]);
    const stem = kind === PNG ? `Screenshot ${year}-${String(random.nextInt(1, 12)).padStart(2, '0')}-${String(random.nextInt(1, 28)).padStart(2, '0')}` : `IMG_${random.nextInt(1000, 9999)}`;
    return { name: `${stem}.${kind === HEIC ? 'HEIC' : kind.extension}`, kind };
  };
  const pdf = (name: string) => ({ name, kind: PDF });
  const roll = random.nextFloat();
  if (roll < 0.25) return photo();
  switch (docType) {
    case 'birth_certificate':
      return pdf(random.pickOne([`birth_certificate_${last}.pdf`, `Birth Certificate - ${first}.pdf`, `scan_${random.nextInt(1, 999).toString().padStart(4, '0')}.pdf`]));
    case 'residency':
      return pdf(random.pickOne(['utility_bill.pdf', `Lease Agreement ${year}.pdf`, `proof_of_address_${last}.pdf`, 'bank statement.pdf']));
    case 'medical':
      return pdf(random.pickOne([`Medical Form - ${first}.pdf`, `physical_${year}_${last}.pdf`, 'sports_physical.pdf']));
    case 'waiver':
      return pdf(random.pickOne(['waiver_signed.pdf', `Liability Waiver - ${first} ${child.lastName}.pdf`, `waiver_${last}.pdf`]));
    case null:
      return pdf(random.pickOne(['document.pdf', `scan${random.nextInt(1, 99).toString().padStart(4, '0')}.pdf`, 'attachment.pdf', 'forms.pdf']));
  }
}

/**
 * The newest failures: three in the last day and three in the last week, one of each message at least,
 * so the mailbox panel's "today" numbers include failures whatever the size of the demo.
 */
function generateRecentFailures(generation: Generation): void {
  const { random, nowMs } = generation;
  const pool = generation.currentSample.length > 0 ? generation.currentSample : [generation.firstRegistration];
  for (let i = 0; i < 6; i += 1) {
    const ref = random.pickOne(pool);
    if (!ref) return;
    const minutesAgo = i < 3 ? random.nextInt(10, 20 * 60) : random.nextInt(26 * 60, 6 * 24 * 60);
    addFailedSubmission(generation, ref, nowMs - minutesAgo * MINUTE_MS, SUBMISSION_FAILURES[i % SUBMISSION_FAILURES.length]);
  }
}

/** A failed submission never produced a document; the ones no player could be read from have no player. */
function addFailedSubmission(
  generation: Generation,
  ref: RegistrationRef,
  receivedMs: number,
  failure = SUBMISSION_FAILURES[generation.failureCounter++ % SUBMISSION_FAILURES.length],
): void {
  if (!failure) return;
  const { random } = generation;
  const receivedAt = new Date(Math.floor(receivedMs));
  const { child } = ref.player;
  const isMailbox = failure.source === 'mailbox';
  const fromEmail = child.guardianEmail ?? `parent${random.nextInt(1, 999)}@${random.pickOne(EMAIL_DOMAINS)}`;
  const attachmentCount = failure.message.startsWith('No attachments') ? 0 : random.nextInt(1, 3);
  generation.data.submissions.push({
    id: random.nextUuid(),
    source: failure.source,
    externalId: nextExternalId(generation, failure.source),
    receivedAt,
    fromEmail,
    subject: isMailbox
      ? failure.identified
        ? `Registration documents for ${child.firstName} ${child.lastName}`
        : random.pickOne([null, 'Documents', 'Sign up', 'Fwd: forms'])
      : null,
    playerId: failure.identified ? ref.player.id : null,
    seasonId: ref.season.id,
    fields: failure.identified
      ? describeMailboxFields(ref)
      : isMailbox
        ? {}
        : { playerFirstName: child.firstName, playerLastName: child.lastName },
    status: 'failed',
    errorMessage: failure.message,
    attachmentCount,
    createdAt: receivedAt,
  });
}

function generateUsers(generation: Generation): NewUser[] {
  const { random, nowMs } = generation;
  return [
    {
      id: random.nextUuid(),
      email: 'morgan.reyes@example.org',
      firstName: 'Morgan',
      lastName: 'Reyes',
      role: 'admin',
      status: 'active',
      lastLoginAt: new Date(nowMs - random.nextInt(20, 180) * MINUTE_MS),
      profileImageUrl: null,
      createdAt: new Date(nowMs - 980 * DAY_MS),
    },
    {
      id: random.nextUuid(),
      email: 'priya.natarajan@example.org',
      firstName: 'Priya',
      lastName: 'Natarajan',
      role: 'moderator',
      status: 'inactive',
      lastLoginAt: new Date(nowMs - random.nextInt(90, 150) * DAY_MS),
      profileImageUrl: null,
      createdAt: new Date(nowMs - 700 * DAY_MS),
    },
    {
      id: random.nextUuid(),
      email: 'sam.okafor@example.org',
      firstName: 'Sam',
      lastName: 'Okafor',
      role: 'viewer',
      status: 'pending',
      lastLoginAt: null,
      profileImageUrl: null,
      createdAt: new Date(nowMs - 3 * DAY_MS),
    },
  ];
}

function generateNotificationTemplates(generation: Generation): NewNotificationTemplate[] {
  const { random, nowMs } = generation;
  const createdAt = new Date(nowMs - 400 * DAY_MS);
  return [
    // The templates every installation starts with (services/notification-defaults.ts); the reject flow sends one.
    ...DEFAULT_NOTIFICATION_TEMPLATES.map((template, index) => ({
      ...template,
      id: random.nextUuid(),
      createdAt,
      // The first one was edited last month, so the list shows an update.
      updatedAt: index === 0 ? new Date(nowMs - 30 * DAY_MS) : createdAt,
    })),
    {
      id: random.nextUuid(),
      name: 'Weekly Processing Summary',
      type: 'slack',
      subject: 'Weekly processing summary',
      content:
        'Weekly processing summary: {{season}}\nReceived: {{received}}  Approved: {{approved}}  Rejected: {{rejected}}  Awaiting review: {{pending}}',
      // Chat notifications are off by default (spec §2 Settings), so the demo shows a disabled one.
      enabled: false,
      createdAt,
      updatedAt: createdAt,
    },
  ];
}

function generateNotificationHistory(generation: Generation): NewNotificationHistory[] {
  const { random, nowMs } = generation;
  const [missingReminder, deadlineReminder, weeklySummary] = generation.data.notificationTemplates;
  const guardianEmails = generation.currentSample
    .map((ref) => ref.player.child.guardianEmail)
    .filter((email): email is string => email !== null);
  const pickRecipient = () => (guardianEmails.length > 0 ? random.pickOne(guardianEmails) : 'parents@example.org');
  const rows: NewNotificationHistory[] = [];
  const addRow = (row: Omit<NewNotificationHistory, 'id' | 'createdAt' | 'sentAt'>, hoursAgo: number) => {
    const createdAt = new Date(nowMs - hoursAgo * HOUR_MS - random.nextInt(0, 59) * MINUTE_MS);
    rows.push({
      id: random.nextUuid(),
      ...row,
      createdAt,
      sentAt: row.status === 'sent' ? new Date(createdAt.getTime() + random.nextInt(1, 30) * 1000) : null,
    });
  };
  const reminderSubject = 'Documents still missing for your player (Fall Ball 2025)';
  for (let i = 0; i < 5; i += 1) {
    addRow({ templateId: missingReminder?.id ?? null, type: 'email', recipient: pickRecipient(), subject: reminderSubject, status: 'sent', errorMessage: null }, 2 + i * 20);
  }
  addRow({
    templateId: missingReminder?.id ?? null,
    type: 'email',
    recipient: 'no-such-parent@example.net',
    subject: reminderSubject,
    status: 'failed',
    errorMessage: 'SMTP 550 5.1.1: recipient address rejected (mailbox does not exist); check the guardian e-mail',
  }, 30);
  addRow({ templateId: deadlineReminder?.id ?? null, type: 'email', recipient: pickRecipient(), subject: 'Registration closes Nov 30: Fall Ball 2025', status: 'sent', errorMessage: null }, 50);
  addRow({ templateId: deadlineReminder?.id ?? null, type: 'email', recipient: pickRecipient(), subject: 'Registration closes Nov 30: Fall Ball 2025', status: 'pending', errorMessage: null }, 0);
  addRow({ templateId: weeklySummary?.id ?? null, type: 'slack', recipient: '#registrations', subject: 'Weekly processing summary', status: 'sent', errorMessage: null }, 7 * 24);
  addRow({
    templateId: weeklySummary?.id ?? null,
    type: 'slack',
    recipient: '#registrations',
    subject: 'Weekly processing summary',
    status: 'failed',
    errorMessage: 'Slack webhook answered 404 no_service: the webhook address in Settings is no longer valid',
  }, 14 * 24);
  return rows;
}
