/** The shapes every part of the demo generation shares: its options and output, and one run's mutable state. */
import type { TDivision, TDocType, TDocumentStatus } from '../../contract';
import type { NewDocument } from '../documents';
import type { NewNotificationHistory, NewNotificationTemplate } from '../notifications';
import type { NewPlayer, NewRegistration } from '../players';
import type { NewSeason } from '../seasons';
import type { NewSubmission } from '../pipeline';
import type { NewUser } from '../users';
import type { SeasonPlan } from './demo-seasons';
import type { Random } from './seeded-random';

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

// Durations in milliseconds.
export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

export interface Child {
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

export interface PlayerRef {
  id: string;
  child: Child;
}

export interface RegistrationRef {
  player: PlayerRef;
  season: SeasonPlan;
  division: TDivision;
}

/** Mutable state of one generation run. */
export interface Generation {
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

/** A DemoData with no rows, for the next chunk to fill. */
export function createEmptyChunk(): DemoData {
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

/**
 * A current-season registration placed just before `now`: 'queued' in the last 30 minutes and not yet
 * through the pipeline, 'today' in the last 24 hours, 'week' in the last 7 days. Placed there even when
 * `now` is past the season's end, so the dashboard's "today" and "7 days" figures are never empty.
 */
export type RecentSlot = 'queued' | 'today' | 'week';

/** A document a submission will carry, and the status it ends up in. */
export interface PlannedDocument {
  docType: TDocType | null;
  status: TDocumentStatus;
}

/**
 * A moment in (fromMs, toMs]: drawn over the whole range rather than clamped to its end, so capping by
 * `now` does not pile hundreds of rows onto the same instant.
 */
export function pickTimeAfter(random: Random, fromMs: number, toMs: number): number {
  return toMs <= fromMs ? fromMs : Math.floor(toMs - (toMs - fromMs) * random.nextFloat());
}
