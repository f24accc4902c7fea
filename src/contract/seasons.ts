import { z } from 'zod';
import { DIVISIONS, SEASON_KINDS, ZDivision, type TDivision, type TSeasonKind } from './domain';

/**
 * Seasons, as Settings → Seasons lists, creates and changes them. A season offers some of the league's
 * divisions; families register into it through the form and the mailbox until it is closed. One season is
 * the current one: what the screens show when no season is picked.
 */

export const ZSeason = z.object({
  /** Readable and stable, made from the kind and the year when the season is created: `fall-2025`. */
  id: z.string(),
  name: z.string(),
  kind: z.enum(SEASON_KINDS),
  year: z.number(),
  /** YYYY-MM-DD. */
  startsOn: z.string(),
  endsOn: z.string(),
  /** The last day families are asked to register by (YYYY-MM-DD); the end date for a season made before deadlines were kept. */
  registrationDeadline: z.string(),
  /** The divisions the season offers, in the league's order. */
  divisions: z.array(ZDivision),
  isCurrent: z.boolean(),
  /** A closed season takes no new registrations from the form or the mailbox; `closedAt` says since when (ISO). */
  closed: z.boolean(),
  closedAt: z.string().nullable(),
});
export type TSeason = z.infer<typeof ZSeason>;

/** GET /api/seasons: newest first. */
export const ZSeasons = z.object({ seasons: z.array(ZSeason) });
export type TSeasons = z.infer<typeof ZSeasons>;

/** 201 of POST /api/seasons, 200 of PATCH /api/seasons/{id}: the season as it now is. */
export const ZSeasonResponse = z.object({ season: ZSeason });
export type TSeasonResponse = z.infer<typeof ZSeasonResponse>;

export const ZSeasonParams = z.object({ id: z.string().trim().min(1).max(40) });

/** The id a new season gets: `spring-2026`, `fall-2026`. It never changes afterwards, whatever is edited. */
export const seasonIdFor = (kind: TSeasonKind, year: number): string => `${kind === 'Spring Ball' ? 'spring' : 'fall'}-${year}`;

export const MAX_SEASON_NAME_LENGTH = 80;
export const SEASON_YEARS = { min: 2000, max: 2100 } as const;

const DATE_SHAPE = /^\d{4}-\d{2}-\d{2}$/;
/** A YYYY-MM-DD that is a day of the calendar (not 2026-02-30). */
export function isCalendarDate(text: string): boolean {
  if (!DATE_SHAPE.test(text)) return false;
  const time = Date.parse(`${text}T00:00:00Z`);
  return Number.isFinite(time) && new Date(time).toISOString().startsWith(text);
}

const seasonDate = (label: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? `${label} is required` : `${label} must be a date such as 2026-08-15`) })
    .trim()
    .refine(isCalendarDate, `${label} must be a date such as 2026-08-15`);

const seasonFields = {
  name: z
    .string({ error: 'Name is required' })
    .trim()
    .min(1, 'Name is required')
    .max(MAX_SEASON_NAME_LENGTH, `Name must be at most ${MAX_SEASON_NAME_LENGTH} characters`),
  kind: z.enum(SEASON_KINDS, {
    error: (issue) => (issue.input === undefined ? 'Kind is required' : `Kind must be ${SEASON_KINDS.join(' or ')}`),
  }),
  year: z
    .number({ error: (issue) => (issue.input === undefined ? 'Year is required' : 'Year must be a number such as 2026') })
    .int('Year must be a whole number such as 2026')
    .min(SEASON_YEARS.min, `Year must be ${SEASON_YEARS.min} or later`)
    .max(SEASON_YEARS.max, `Year must be ${SEASON_YEARS.max} or earlier`),
  startsOn: seasonDate('Start date'),
  endsOn: seasonDate('End date'),
  registrationDeadline: seasonDate('Registration deadline'),
  divisions: z
    .array(z.enum(DIVISIONS, { error: `Division must be one of ${DIVISIONS.join(', ')}` }), {
      error: (issue) => (issue.input === undefined ? 'Divisions are required' : 'Divisions must be a list'),
    })
    .min(1, 'Pick at least one division the season offers')
    .max(DIVISIONS.length, `Divisions must list each of the league's ${DIVISIONS.length} divisions at most once`)
    .transform((picked): TDivision[] => DIVISIONS.filter((division) => picked.includes(division))),
};

export type SeasonDateField = 'year' | 'startsOn' | 'endsOn' | 'registrationDeadline';
export type SeasonDates = Record<Exclude<SeasonDateField, 'year'>, string> & { year: number };

/**
 * What is wrong with a season's dates taken together (each already a calendar date): the end after the start,
 * the registration deadline no later than the end, and the year one the season runs in. The server checks a
 * new season and an edited one with this; the Seasons form shows the same messages before sending.
 */
export function seasonDateProblems(dates: SeasonDates): Array<{ field: SeasonDateField; message: string }> {
  const problems: Array<{ field: SeasonDateField; message: string }> = [];
  if (dates.endsOn <= dates.startsOn) problems.push({ field: 'endsOn', message: `End date must be after the start date (${dates.startsOn})` });
  if (dates.registrationDeadline > dates.endsOn) {
    problems.push({ field: 'registrationDeadline', message: `Registration deadline must be on or before the end date (${dates.endsOn})` });
  }
  const first = Number(dates.startsOn.slice(0, 4));
  const last = Number(dates.endsOn.slice(0, 4));
  if (first <= last && (dates.year < first || dates.year > last)) {
    problems.push({ field: 'year', message: `Year must be one the season runs in (${first === last ? first : `${first} or ${last}`})` });
  }
  return problems;
}

/** POST /api/seasons: the 'New season' form. The first season created becomes the current one. */
export const ZCreateSeason = z
  .strictObject(seasonFields, {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `Unknown field ${issue.keys.join(', ')}: send name, kind, year, startsOn, endsOn, registrationDeadline and divisions`
        : undefined,
  })
  .superRefine((season, ctx) => {
    for (const problem of seasonDateProblems(season)) ctx.addIssue({ code: 'custom', path: [problem.field], message: problem.message });
  });
export type TCreateSeason = z.input<typeof ZCreateSeason>;
/** A new season as the server takes it: trimmed, divisions in the league's order. */
export type TNewSeason = z.output<typeof ZCreateSeason>;

/**
 * PATCH /api/seasons/{id}: any of the fields, at least one. `isCurrent: true` makes it the current season
 * (the other one stops being current); `closed` closes it to new registrations or reopens it. The dates are
 * checked together with those the season keeps; a division that has players in the season cannot be removed.
 */
export const ZUpdateSeason = z
  .strictObject(
    {
      ...z.object(seasonFields).partial().shape,
      isCurrent: z
        .literal(true, { error: 'isCurrent can only be set to true: to change the current season, make another season current' })
        .optional(),
      closed: z.boolean({ error: 'closed must be true or false' }).optional(),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `Unknown field ${issue.keys.join(', ')}: change name, kind, year, startsOn, endsOn, registrationDeadline, divisions, isCurrent or closed`
          : undefined,
    },
  )
  .refine((patch) => Object.values(patch).some((value) => value !== undefined), {
    error: 'Change at least one of name, kind, year, dates, divisions, current or closed.',
  });
export type TUpdateSeason = z.input<typeof ZUpdateSeason>;
export type TSeasonPatch = z.output<typeof ZUpdateSeason>;
