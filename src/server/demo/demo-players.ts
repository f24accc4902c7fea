/**
 * Players and their registrations: how many children play each year and season, who returns the next
 * year, their names, birth dates and guardians, and which current-season registrations are recent.
 */
import { ageFitsDivision, DEFAULT_DIVISION_AGES, leagueAge, type TDivision } from '../../contract';
import { derivePlayerId } from '../players';
import { sanitizeStoredName } from '../files';
import { generateRegistrationDocuments } from './demo-documents';
import { YEARS, type SeasonPlan } from './demo-seasons';
import { addFailedSubmission } from './demo-submissions';
import {
  createEmptyChunk,
  DAY_MS,
  MINUTE_MS,
  pickTimeAfter,
  type Child,
  type DemoData,
  type DemoDataOptions,
  type Generation,
  type PlayerRef,
  type RecentSlot,
  type RegistrationRef,
} from './generation-state';
import { AREA_CODES, EMAIL_DOMAINS, FIRST_NAMES, GUARDIAN_FIRST_NAMES, LAST_NAMES } from './name-pools';
import { buildWeightedTable, shuffleInPlace, takeRandom, type Random } from './seeded-random';

/** How registrations spread over the divisions; TEST is only a few percent. */
const DIVISION_SHARES: ReadonlyArray<readonly [TDivision, number]> = [
  ['AAA', 24],
  ['AA', 31],
  ['A', 30],
  ['Peewee', 12],
  ['TEST', 3],
];
const DIVISION_WEIGHTS = buildWeightedTable<TDivision>(DIVISION_SHARES);
/** TEST takes any age; the league's own divisions are picked by league age. */
const TEST_SHARE = 0.03;
/** A few children play outside their division's ages (a waiver, a sibling's team): the Players screen flags them. */
const OUTSIDE_AGES_SHARE = 0.015;
/** The league ages the demo's children have on 31 August, the youngest Peewee to the oldest AAA. */
const YOUNGEST_LEAGUE_AGE = 4;
const OLDEST_LEAGUE_AGE = 12;

/**
 * A division for a child in `year`: one whose default ages (DEFAULT_DIVISION_AGES, league age on 31 August,
 * as a new season counts it) take the child, by the divisions' shares; now and then TEST, or any division.
 */
function divisionFor(random: Random, birthDate: string, year: number): TDivision {
  if (random.rollChance(TEST_SHARE)) return 'TEST';
  if (random.rollChance(OUTSIDE_AGES_SHARE)) return random.pickWeighted(DIVISION_WEIGHTS);
  const age = leagueAge(birthDate, `${year}-08-31`);
  const fitting = DIVISION_SHARES.filter(([division]) => division !== 'TEST' && ageFitsDivision(age, DEFAULT_DIVISION_AGES[division]));
  return fitting.length > 0 ? random.pickWeighted(buildWeightedTable(fitting)) : 'TEST';
}

/** Later years are bigger, so reports show growth. */
const YEAR_SHARES: Readonly<Record<(typeof YEARS)[number], number>> = { 2023: 0.24, 2024: 0.32, 2025: 0.44 };
/** A child plays Spring only, Fall only, or both in one year; Fall is the bigger season. */
const PLAYS_BOTH_SHARE = 0.35;
const PLAYS_SPRING_ONLY_SHARE = 0.25;
/** Children from the previous year who sign up again (as a new player row with a new id). */
const RETURNING_SHARE = 0.4;

/** Registrations that also have a failed submission; generateRecentFailures adds six recent ones at the end. */
const FAILED_SUBMISSION_SHARE = 0.02;
/** Current-season registrations placed in the last 7 days: this share of them, and at least this many. */
const RECENT_SHARE_OF_CURRENT = 0.03;
const MIN_RECENT_REGISTRATIONS = 12;
/** The newest few are still queued: submission pending, files processing. Few, so today's success rate looks healthy. */
const QUEUED_SHARE_OF_RECENT = 0.02;
const MIN_QUEUED = 2;

/** How many current-season registrations the generation keeps at hand (Generation.currentSample). */
const CURRENT_SAMPLE_SIZE = 200;

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

export function* generatePlayers(
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

      const yearDivision = divisionFor(random, child.birthDate, year);
      const seasonsPlayed = pattern === 'both' ? [spring, fall] : pattern === 'spring' ? [spring] : [fall];
      let firstRegisteredAt: Date | undefined;
      for (const season of seasonsPlayed) {
        // Some children move to another division their age fits between Spring and Fall.
        const division = season === fall && pattern === 'both' && random.rollChance(0.1)
          ? divisionFor(random, child.birthDate, year)
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
      // Older than the oldest league age this year: they aged out.
      if (child && leagueAge(child.birthDate, `${year}-08-31`) > OLDEST_LEAGUE_AGE) child = undefined;
    }
    child ??= createChild(random, year);
    const id = derivePlayerId({ prefix, year, firstName: child.firstName, lastName: child.lastName, birthDate: child.birthDate });
    if (!usedIds.has(id)) return { id, child };
  }
  throw new Error(`Could not find a free player id in ${year}; the name lists are too small for this many players`);
}

/** Born so the child's league age in `year` (on 31 August) is YOUNGEST_LEAGUE_AGE to OLDEST_LEAGUE_AGE. */
function createChild(random: Random, year: number): Child {
  const earliest = Date.UTC(year - OLDEST_LEAGUE_AGE - 1, 8, 1);
  const latest = Date.UTC(year - YOUNGEST_LEAGUE_AGE, 7, 31);
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

/** How many minutes before `now` a recent registration is placed, by its slot. */
const RECENT_MINUTES_AGO: Readonly<Record<RecentSlot, readonly [number, number]>> = {
  queued: [1, 30],
  today: [31, 23 * 60],
  week: [25 * 60, 7 * 24 * 60],
};

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
  generateRegistrationDocuments(generation, ref, registeredMs, registeredAt, recent);
  return registeredAt;
}
