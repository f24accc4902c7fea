/**
 * The demo league, generated from a seed. This file puts the parts together; each part sits in its own
 * file: seeded-random (the one random stream), name-pools, demo-seasons, demo-players (players and
 * registrations), demo-documents and demo-submissions, demo-users and demo-notifications, sharing the
 * run's state through generation-state.
 */
import type { DemoRowCounts } from './demo.repository';
import { generateNotificationHistory, generateNotificationTemplates } from './demo-notifications';
import { generatePlayers } from './demo-players';
import { planSeasons, toSeasonRows } from './demo-seasons';
import { generateRecentFailures } from './demo-submissions';
import { generateUsers } from './demo-users';
import { createEmptyChunk, type DemoData, type DemoDataOptions, type Generation } from './generation-state';
import { createRandom } from './seeded-random';

export type { DemoData, DemoDataOptions } from './generation-state';

/** Seed and size of the demo a fresh embedded database gets at first start: seeds in about a second. */
export const DEFAULT_DEMO_SEED = 42;
export const DEFAULT_DEMO_PLAYERS = 600;
export const MAX_DEMO_PLAYERS = 1_000_000;

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
  generation.data.seasons = toSeasonRows(seasonPlans);

  yield* generatePlayers(generation, seasonPlans, options, playersPerChunk);
  generateRecentFailures(generation);
  generation.data.users = generateUsers(generation);
  generation.data.notificationTemplates = generateNotificationTemplates(generation);
  generation.data.notificationHistory = generateNotificationHistory(generation);
  yield generation.data;
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
