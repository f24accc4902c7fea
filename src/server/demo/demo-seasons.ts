/** The six demo seasons, Spring and Fall of three years, and how complete each one's documents are. */
import { DIVISIONS, seasonIdFor, type TDocumentStatus, type TSeasonKind } from '../../contract';
import type { NewSeason } from '../seasons';
import { DAY_MS } from './generation-state';
import { buildWeightedTable, type WeightedTable } from './seeded-random';

export interface SeasonPlan {
  id: string;
  name: string;
  kind: TSeasonKind;
  year: number;
  startsOn: string;
  endsOn: string;
  /** Spring: end of March; Fall: mid-September. */
  registrationDeadline: string;
  isCurrent: boolean;
  /** Activity window: season start to the earlier of season end and `now`. */
  windowStartMs: number;
  windowEndMs: number;
  /** Share of registrations with all four documents verified. */
  allVerifiedShare: number;
  /** Status of each document of the other registrations; 'missing' = never sent. */
  documentOutcomes: WeightedTable<DocumentOutcome>;
}

export type DocumentOutcome = TDocumentStatus | 'missing';

/** The years the demo has a Spring and a Fall season in; Fall of the last one is the current season. */
export const YEARS = [2023, 2024, 2025] as const;

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
const PAST_ALL_VERIFIED = [0.72, 0.7, 0.66, 0.62, 0.55] as const;
const CURRENT_ALL_VERIFIED = 0.22;

/** Spring and Fall of every year in YEARS, oldest first, with the window their activity falls in. */
export function planSeasons(nowMs: number): SeasonPlan[] {
  const plans: SeasonPlan[] = [];
  let pastIndex = 0;
  for (const year of YEARS) {
    for (const kind of ['Spring Ball', 'Fall Ball'] as const) {
      const isSpring = kind === 'Spring Ball';
      const startsOn = isSpring ? `${year}-03-01` : `${year}-08-15`;
      const endsOn = isSpring ? `${year}-06-30` : `${year}-11-30`;
      const registrationDeadline = isSpring ? `${year}-03-31` : `${year}-09-15`;
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
        id: seasonIdFor(kind, year),
        name: `${kind} ${year}`,
        kind,
        year,
        startsOn,
        endsOn,
        registrationDeadline,
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

/** The season rows the database gets: a plan without its generation details. */
export function toSeasonRows(plans: readonly SeasonPlan[]): NewSeason[] {
  return plans.map((plan) => ({
    id: plan.id,
    name: plan.name,
    kind: plan.kind,
    year: plan.year,
    startsOn: plan.startsOn,
    endsOn: plan.endsOn,
    registrationDeadline: plan.registrationDeadline,
    // Every division: the demo's players are in all five. Open, so the demo's forms and mailbox keep working.
    divisions: [...DIVISIONS],
    closedAt: null,
    isCurrent: plan.isCurrent,
  }));
}
