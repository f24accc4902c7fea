/** One demo, generated once per test file, and lookups over it, for the tests of the demo's parts. */
import { generateDemoData, type DemoDataOptions } from './generate-demo-data';

export const NOW = new Date('2025-10-15T12:00:00Z');
export const OPTIONS: DemoDataOptions = { seed: 42, players: 1_500, idPrefix: 'CB', now: NOW };
export const data = generateDemoData(OPTIONS);

export const DAY_MS = 24 * 60 * 60 * 1000;
export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

export const seasonById = new Map(data.seasons.map((season) => [season.id, season]));
export const playerById = new Map(data.players.map((player) => [player.id, player]));
export const registrationKey = (playerId: string, seasonId: string) => `${playerId}|${seasonId}`;
export const registrationByKey = new Map(data.registrations.map((r) => [registrationKey(r.playerId, r.seasonId), r]));
export const submissionById = new Map(data.submissions.map((submission) => [submission.id, submission]));

export function tally<T>(items: readonly T[], keyOf: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(keyOf(item), (counts.get(keyOf(item)) ?? 0) + 1);
  return counts;
}

export function requireDate(value: Date | null | undefined, what: string): Date {
  if (!(value instanceof Date)) throw new Error(`${what} is not set`);
  return value;
}

