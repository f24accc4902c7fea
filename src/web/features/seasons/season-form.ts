import {
  DIVISIONS,
  SEASON_KINDS,
  ZCreateSeason,
  type TApiError,
  type TDivision,
  type TNewSeason,
  type TSeason,
  type TSeasonKind,
  type TUpdateSeason,
} from '../../../contract';

/** The season form's fields, in the order they are shown (and focused when invalid). */
export const SEASON_FORM_FIELDS = ['kind', 'year', 'name', 'startsOn', 'endsOn', 'registrationDeadline', 'divisions'] as const;
export type TSeasonFormField = (typeof SEASON_FORM_FIELDS)[number];
/** The fields typed or picked as text. */
export type TSeasonTextField = Exclude<TSeasonFormField, 'divisions'>;
export type SeasonFormText = Record<TSeasonTextField, string>;
export type SeasonFieldErrors = Partial<Record<TSeasonFormField, string>>;

/** The fields filled in from the kind and the year until the person types their own. */
export const SUGGESTED_FIELDS = ['name', 'startsOn', 'endsOn', 'registrationDeadline'] as const;
export type TSuggestedField = (typeof SUGGESTED_FIELDS)[number];

export const isSeasonKind = (value: string): value is TSeasonKind => (SEASON_KINDS as readonly string[]).includes(value);

/** The league's usual season of a kind and year: Spring March to June, Fall mid-August to November. */
export function suggestedSeason(kind: TSeasonKind, year: number): Record<TSuggestedField, string> {
  const spring = kind === 'Spring Ball';
  return {
    name: `${kind} ${year}`,
    startsOn: spring ? `${year}-03-01` : `${year}-08-15`,
    endsOn: spring ? `${year}-06-30` : `${year}-11-30`,
    registrationDeadline: spring ? `${year}-03-31` : `${year}-09-15`,
  };
}

/** What a new season offers unless unticked: every division but TEST, which only staff's pipeline test uses. */
export const NEW_SEASON_DIVISIONS: readonly TDivision[] = DIVISIONS.filter((division) => division !== 'TEST');

/**
 * The season most likely to come next: the one after the newest season there is (Spring, then Fall of the
 * same year), or with none, the one about to start: Spring until April, Fall until October, then next Spring.
 */
export function nextSeason(today: Date, seasons: readonly Pick<TSeason, 'kind' | 'year' | 'startsOn'>[]): { kind: TSeasonKind; year: number } {
  const newest = [...seasons].sort((a, b) => b.startsOn.localeCompare(a.startsOn))[0];
  if (newest) return newest.kind === 'Spring Ball' ? { kind: 'Fall Ball', year: newest.year } : { kind: 'Spring Ball', year: newest.year + 1 };
  const year = today.getFullYear();
  const month = today.getMonth();
  if (month <= 3) return { kind: 'Spring Ball', year };
  if (month <= 9) return { kind: 'Fall Ball', year };
  return { kind: 'Spring Ball', year: year + 1 };
}

/** The 'New season' form, filled in for the season that comes next. */
export function newSeasonForm(today: Date, seasons: readonly Pick<TSeason, 'kind' | 'year' | 'startsOn'>[]): { text: SeasonFormText; divisions: TDivision[] } {
  const { kind, year } = nextSeason(today, seasons);
  return { text: { kind, year: String(year), ...suggestedSeason(kind, year) }, divisions: [...NEW_SEASON_DIVISIONS] };
}

/** The form filled from a season, for Edit. */
export function seasonFormFromSeason(season: TSeason): { text: SeasonFormText; divisions: TDivision[] } {
  return {
    text: {
      kind: season.kind,
      year: String(season.year),
      name: season.name,
      startsOn: season.startsOn,
      endsOn: season.endsOn,
      registrationDeadline: season.registrationDeadline,
    },
    divisions: [...season.divisions],
  };
}

/**
 * The form after the kind or the year changed: the fields the person has not typed into follow the new kind
 * and year ('Fall Ball 2027' and its usual dates); what they typed stays.
 */
export function followKindAndYear(text: SeasonFormText, typed: ReadonlySet<TSuggestedField>): SeasonFormText {
  const year = Number(text.year);
  if (!isSeasonKind(text.kind) || !/^\d{4}$/.test(text.year)) return text;
  const suggested = suggestedSeason(text.kind, year);
  const next = { ...text };
  for (const field of SUGGESTED_FIELDS) if (!typed.has(field)) next[field] = suggested[field];
  return next;
}

export type SeasonFormValidation = { ok: true; season: TNewSeason } | { ok: false; errors: SeasonFieldErrors };

const isFormField = (value: string): value is TSeasonFormField => (SEASON_FORM_FIELDS as readonly string[]).includes(value);

/** Checks the form with the contract's ZCreateSeason (the server checks the same), one message per field. */
export function validateSeasonForm(text: SeasonFormText, divisions: readonly TDivision[]): SeasonFormValidation {
  const year = text.year.trim();
  const result = ZCreateSeason.safeParse({
    name: text.name,
    kind: text.kind === '' ? undefined : text.kind,
    year: year === '' ? undefined : /^\d+$/.test(year) ? Number(year) : Number.NaN,
    startsOn: text.startsOn === '' ? undefined : text.startsOn,
    endsOn: text.endsOn === '' ? undefined : text.endsOn,
    registrationDeadline: text.registrationDeadline === '' ? undefined : text.registrationDeadline,
    divisions: [...divisions],
  });
  if (result.success) return { ok: true, season: result.data };
  const errors: SeasonFieldErrors = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? '');
    if (isFormField(field) && !errors[field]) errors[field] = issue.message;
  }
  return { ok: false, errors };
}

/** The PATCH body for what Edit changed; null when nothing did. */
export function seasonChanges(season: TSeason, checked: TNewSeason): TUpdateSeason | null {
  const patch: TUpdateSeason = {};
  if (checked.name !== season.name) patch.name = checked.name;
  if (checked.kind !== season.kind) patch.kind = checked.kind;
  if (checked.year !== season.year) patch.year = checked.year;
  if (checked.startsOn !== season.startsOn) patch.startsOn = checked.startsOn;
  if (checked.endsOn !== season.endsOn) patch.endsOn = checked.endsOn;
  if (checked.registrationDeadline !== season.registrationDeadline) patch.registrationDeadline = checked.registrationDeadline;
  if (checked.divisions.join() !== season.divisions.join()) patch.divisions = checked.divisions;
  return Object.keys(patch).length > 0 ? patch : null;
}

/**
 * A refused POST or PATCH as the form shows it: each detail next to its field ('body.endsOn' → End date), so a
 * 409 on a kind and year already used lands on the year; whatever has no field becomes the form's message.
 */
export function serverSeasonErrors(body: TApiError | undefined, fallback: string): { fields: SeasonFieldErrors; message: string | null } {
  const fields: SeasonFieldErrors = {};
  let unplaced = false;
  for (const detail of body?.details ?? []) {
    const field = detail.path.split('.').find(isFormField);
    if (field && !fields[field]) fields[field] = detail.message;
    else if (!field) unplaced = true;
  }
  if (Object.keys(fields).length > 0 && !unplaced) return { fields, message: null };
  return { fields, message: body?.message ?? fallback };
}

/** The first field with an error, in form order: where focus goes after a failed submit. */
export const firstInvalidSeasonField = (errors: SeasonFieldErrors): TSeasonFormField | undefined =>
  SEASON_FORM_FIELDS.find((field) => errors[field] !== undefined);
