import { z } from 'zod';
import { DIVISIONS, DOC_TYPES, ZDocType, type TDivision } from './domain';

/**
 * A season's requirement rules: which documents a player needs, how long an approval counts, how many
 * residency documents from which groups, the day league age is counted on and the divisions' ages.
 * Completion everywhere (dashboard, players, reports, exports, reminders) is computed from these rules by
 * the database's registration summary; the server's rule engine (`src/server/requirements/rule-engine.ts`)
 * states the same rules in TypeScript and the tests compare the two.
 */

/**
 * How long an approval counts:
 * - `season`: in the season it was handed in for only;
 * - `months`: N months from the document's date (the exam date of a medical form; the day it was received
 *   when no date was recorded), in any season of the same child, until that day;
 * - `forever`: in every later season of the same child (a verified birth certificate).
 */
export const REQUIREMENT_LASTS = ['season', 'months', 'forever'] as const;
export const ZRequirementLasts = z.enum(REQUIREMENT_LASTS, { error: 'must be season, months or forever' });
export type TRequirementLasts = z.infer<typeof ZRequirementLasts>;

export const REQUIREMENT_LASTS_LABELS: Record<TRequirementLasts, string> = {
  season: 'This season only',
  months: 'Months from the document’s date',
  forever: 'For good',
};

export const MAX_REQUIREMENT_MONTHS = 60;
export const MAX_REQUIRED_DOCUMENTS = 5;
export const MAX_RESIDENCY_GROUPS = 6;
export const MAX_RESIDENCY_GROUP_LENGTH = 120;

const isoDay = (label: string) =>
  z.iso.date(`${label} must be a date such as 2026-02-01`);

/** One document type's rule in a season. */
export const ZRequirementRule = z
  .object({
    docType: ZDocType,
    required: z.boolean({ error: 'required must be true or false' }),
    lasts: ZRequirementLasts,
    /** With `lasts: 'months'`: how many months (1–60); null otherwise. */
    months: z
      .number({ error: 'Months must be a whole number' })
      .int('Months must be a whole number')
      .min(1, 'Months must be at least 1')
      .max(MAX_REQUIREMENT_MONTHS, `Months must be at most ${MAX_REQUIREMENT_MONTHS}`)
      .nullable(),
    /**
     * How many approved documents of the type are needed (residency: Little League asks for three). When
     * `groups` lists groups, each must come from a different one of them.
     */
    documents: z
      .number({ error: 'Documents needed must be a whole number' })
      .int('Documents needed must be a whole number')
      .min(1, 'Documents needed must be at least 1')
      .max(MAX_REQUIRED_DOCUMENTS, `Documents needed must be at most ${MAX_REQUIRED_DOCUMENTS}`),
    /** Named groups a document belongs to (residency: 'Group I: ID and school records'…); empty for none. */
    groups: z
      .array(
        z
          .string({ error: 'A group must be a name' })
          .trim()
          .min(1, 'A group needs a name')
          .max(MAX_RESIDENCY_GROUP_LENGTH, `A group's name must be at most ${MAX_RESIDENCY_GROUP_LENGTH} characters`),
      )
      .max(MAX_RESIDENCY_GROUPS, `At most ${MAX_RESIDENCY_GROUPS} groups`),
    /** Only documents dated on or after this day count (YYYY-MM-DD); null for no limit. */
    datedFrom: isoDay('Dated from').nullable(),
    /** Only documents dated on or before this day count; null for no limit. */
    datedTo: isoDay('Dated to').nullable(),
  })
  .superRefine((rule, ctx) => {
    if (rule.lasts === 'months' && rule.months === null) {
      ctx.addIssue({ code: 'custom', path: ['months'], message: 'Say how many months an approval lasts' });
    }
    if (rule.groups.length > 0 && rule.documents > rule.groups.length) {
      ctx.addIssue({ code: 'custom', path: ['documents'], message: `Documents needed cannot be more than the ${rule.groups.length} groups they come from` });
    }
    if (new Set(rule.groups.map((group) => group.toLowerCase())).size !== rule.groups.length) {
      ctx.addIssue({ code: 'custom', path: ['groups'], message: 'Each group needs a different name' });
    }
    if (rule.datedFrom !== null && rule.datedTo !== null && rule.datedTo < rule.datedFrom) {
      ctx.addIssue({ code: 'custom', path: ['datedTo'], message: `Dated to must be on or after ${rule.datedFrom}` });
    }
  });
export type TRequirementRule = z.infer<typeof ZRequirementRule>;

/** A division's league ages (both ends included); null for no bound. */
export const ZDivisionAges = z
  .object({
    min: z.number({ error: 'Youngest age must be a whole number' }).int('Youngest age must be a whole number').min(3, 'Youngest age must be at least 3').max(25, 'Youngest age must be at most 25').nullable(),
    max: z.number({ error: 'Oldest age must be a whole number' }).int('Oldest age must be a whole number').min(3, 'Oldest age must be at least 3').max(25, 'Oldest age must be at most 25').nullable(),
  })
  .refine((ages) => ages.min === null || ages.max === null || ages.min <= ages.max, { path: ['max'], message: 'Oldest age must not be below the youngest' });
export type TDivisionAges = z.infer<typeof ZDivisionAges>;

export const MAX_MINIMISE_DAYS = 3650;

/**
 * GET and PUT /api/seasons/{id}/requirements: the season's rules. PUT replaces them all and recomputes every
 * registration of the season.
 */
export const ZSeasonRequirements = z.object({
  /** One rule per document type, in DOC_TYPES order. */
  rules: z
    .array(ZRequirementRule)
    .length(DOC_TYPES.length, `Send one rule for each of the ${DOC_TYPES.length} document types`)
    .refine((rules) => DOC_TYPES.every((type) => rules.some((rule) => rule.docType === type)), 'Send one rule for each document type')
    .transform((rules) => DOC_TYPES.map((type) => rules.find((rule) => rule.docType === type) as TRequirementRule)),
  /** The day league age is counted on (YYYY-MM-DD): baseball 31 August, softball 1 January, hockey 31 December. */
  ageDate: isoDay('Age date'),
  /** The league ages each division takes; a division not listed takes any age. */
  divisionAges: z.partialRecord(z.enum(DIVISIONS, { error: `Division must be one of ${DIVISIONS.join(', ')}` }), ZDivisionAges),
  /**
   * Verify, then minimise: this many days after a birth certificate is verified, its stored file is deleted;
   * the verification (who, when, the date of birth it showed, the file's SHA-256) stays. Null: files are kept.
   */
  removeVerifiedBirthCertificateFilesAfterDays: z
    .number({ error: 'Days must be a whole number' })
    .int('Days must be a whole number')
    .min(1, 'Days must be at least 1')
    .max(MAX_MINIMISE_DAYS, `Days must be at most ${MAX_MINIMISE_DAYS}`)
    .nullable(),
});
export type TSeasonRequirements = z.output<typeof ZSeasonRequirements>;
export type TSeasonRequirementsInput = z.input<typeof ZSeasonRequirements>;

/** The rules a new season starts with: birth certificate for good, medical 12 months from the exam, residency and waiver each season. */
export const DEFAULT_REQUIREMENT_RULES: readonly TRequirementRule[] = [
  { docType: 'birth_certificate', required: true, lasts: 'forever', months: null, documents: 1, groups: [], datedFrom: null, datedTo: null },
  { docType: 'residency', required: true, lasts: 'season', months: null, documents: 1, groups: [], datedFrom: null, datedTo: null },
  { docType: 'medical', required: true, lasts: 'months', months: 12, documents: 1, groups: [], datedFrom: null, datedTo: null },
  { docType: 'waiver', required: true, lasts: 'season', months: null, documents: 1, groups: [], datedFrom: null, datedTo: null },
];

/** Little League's residency rule, offered as a preset: one document from each of three groups, dated in the year to 1 February. */
export const LITTLE_LEAGUE_RESIDENCY_GROUPS = [
  'Group I: driver’s license, school or vehicle records, employment, insurance',
  'Group II: welfare or child care, federal, state or local records, support payments, homeowner or tenant records',
  'Group III: utility bills, financial records, medical records, internet, cable or satellite',
] as const;
export const littleLeagueResidencyRule = (year: number): TRequirementRule => ({
  docType: 'residency',
  required: true,
  lasts: 'season',
  months: null,
  documents: 3,
  groups: [...LITTLE_LEAGUE_RESIDENCY_GROUPS],
  datedFrom: `${year - 1}-02-01`,
  datedTo: `${year}-02-01`,
});

/** The sports whose age date the season form offers, and the day of the season's year each counts age on. */
export const AGE_DATE_SPORTS = [
  { sport: 'baseball', label: 'Baseball', month: 8, day: 31 },
  { sport: 'softball', label: 'Softball', month: 1, day: 1 },
  { sport: 'hockey', label: 'Hockey', month: 12, day: 31 },
] as const;
export type TAgeDateSport = (typeof AGE_DATE_SPORTS)[number]['sport'];
export const ageDateFor = (sport: TAgeDateSport, year: number): string => {
  const preset = AGE_DATE_SPORTS.find((entry) => entry.sport === sport) ?? AGE_DATE_SPORTS[0];
  return `${year}-${String(preset.month).padStart(2, '0')}-${String(preset.day).padStart(2, '0')}`;
};

/** The league ages a new season gives its divisions. */
export const DEFAULT_DIVISION_AGES: Partial<Record<TDivision, TDivisionAges>> = {
  Peewee: { min: 4, max: 6 },
  A: { min: 7, max: 8 },
  AA: { min: 8, max: 10 },
  AAA: { min: 10, max: 12 },
};

/**
 * League age: the child's age in whole years on the season's age date. A child born on 29 February has a
 * birthday on 1 March in other years (the day after 28 February), so on a 28 February age date they are
 * not a year older yet.
 */
export function leagueAge(birthDate: string, ageDate: string): number {
  const [by, bm, bd] = birthDate.split('-').map(Number) as [number, number, number];
  const [ay, am, ad] = ageDate.split('-').map(Number) as [number, number, number];
  const hadBirthday = am > bm || (am === bm && ad >= bd);
  return ay - by - (hadBirthday ? 0 : 1);
}

/** Whether a league age fits a division's ages (a division with no ages takes anyone). */
export const ageFitsDivision = (age: number, ages: TDivisionAges | undefined): boolean =>
  ages === undefined || ((ages.min === null || age >= ages.min) && (ages.max === null || age <= ages.max));

/** Words for a division's ages: 'ages 7–8', 'ages 10 and over', 'any age'. */
export function divisionAgesText(ages: TDivisionAges | undefined): string {
  if (!ages || (ages.min === null && ages.max === null)) return 'any age';
  if (ages.min !== null && ages.max !== null) return ages.min === ages.max ? `age ${ages.min}` : `ages ${ages.min}–${ages.max}`;
  return ages.min !== null ? `ages ${ages.min} and over` : `ages ${ages.max} and under`;
}

/** A reason a reviewer picks when rejecting a document; the list is a system setting, editable on Settings. */
export const DEFAULT_REJECT_REASONS = [
  'The photo is blurry or cut off',
  'Wrong document',
  'Name does not match the player',
  'Date of birth does not match the registration',
  'Document is out of date',
  'Missing signature',
] as const;
export const MAX_REJECT_REASONS = 20;
export const MAX_REJECT_REASON_LENGTH = 120;

/** How long before an approval lapses a player shows as expiring (the filter, the dashboard card, the reminders). */
export const EXPIRING_WITHIN_DAYS = 30;

