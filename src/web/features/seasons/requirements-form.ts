import {
  DIVISIONS,
  DOC_TYPES,
  type TApiError,
  type TDivision,
  type TDivisionAges,
  type TDocType,
  type TRequirementLasts,
  type TRequirementRule,
  type TSeasonRequirements,
  type TSeasonRequirementsInput,
} from '../../../contract';

/** One document type's rule as the form holds it: numbers and dates as typed ('' for blank). */
export type RuleForm = {
  docType: TDocType;
  required: boolean;
  lasts: TRequirementLasts;
  months: string;
  documents: string;
  groups: string[];
  datedFrom: string;
  datedTo: string;
};

export type RequirementsForm = {
  rules: RuleForm[];
  ageDate: string;
  /** Youngest and oldest per division the season offers, as typed. */
  divisionAges: Partial<Record<TDivision, { min: string; max: string }>>;
  removeFiles: boolean;
  removeAfterDays: string;
};

/** Where a message shows: the server's detail path without `body.` ('rules.2.months', 'divisionAges.AA.max', 'ageDate'). */
export type RequirementErrors = Record<string, string>;

const text = (value: number | null) => (value === null ? '' : String(value));

/** A rule as the form shows it. */
export const ruleForm = (rule: TRequirementRule): RuleForm => ({
  docType: rule.docType,
  required: rule.required,
  lasts: rule.lasts,
  months: text(rule.months),
  documents: String(rule.documents),
  groups: [...rule.groups],
  datedFrom: rule.datedFrom ?? '',
  datedTo: rule.datedTo ?? '',
});

/** The form filled from the season's requirements, with a line of ages for every division it offers. */
export function requirementsForm(requirements: TSeasonRequirements, divisions: readonly TDivision[]): RequirementsForm {
  const divisionAges: RequirementsForm['divisionAges'] = {};
  for (const division of divisions) {
    const ages = requirements.divisionAges[division];
    divisionAges[division] = { min: text(ages?.min ?? null), max: text(ages?.max ?? null) };
  }
  const days = requirements.removeVerifiedBirthCertificateFilesAfterDays;
  return {
    rules: DOC_TYPES.map((type) => {
      const rule = requirements.rules.find((candidate) => candidate.docType === type);
      return rule ? ruleForm(rule) : { docType: type, required: true, lasts: 'season', months: '', documents: '1', groups: [], datedFrom: '', datedTo: '' };
    }),
    ageDate: requirements.ageDate,
    divisionAges,
    removeFiles: days !== null,
    removeAfterDays: days === null ? '30' : String(days),
  };
}

/** A typed number: blank is null, anything not a whole number is sent as it is for the server to word the problem. */
function number(value: string): number | null {
  const trimmed = value.trim();
  if (trimmed === '') return null;
  return /^-?\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN;
}

/**
 * The PUT body: months only when an approval lasts months, dates null when blank, groups without blank lines
 * at the end, and the ages of the divisions with at least one bound (a division with none takes any age).
 */
export function requirementsBody(form: RequirementsForm): TSeasonRequirementsInput {
  const divisionAges: Partial<Record<TDivision, TDivisionAges>> = {};
  for (const division of DIVISIONS) {
    const ages = form.divisionAges[division];
    if (!ages) continue;
    const min = number(ages.min);
    const max = number(ages.max);
    if (min !== null || max !== null) divisionAges[division] = { min, max };
  }
  return {
    rules: form.rules.map((rule) => ({
      docType: rule.docType,
      required: rule.required,
      lasts: rule.lasts,
      months: rule.lasts === 'months' ? number(rule.months) : null,
      documents: number(rule.documents) ?? Number.NaN,
      groups: rule.groups,
      datedFrom: rule.datedFrom === '' ? null : rule.datedFrom,
      datedTo: rule.datedTo === '' ? null : rule.datedTo,
    })),
    ageDate: form.ageDate,
    divisionAges,
    removeVerifiedBirthCertificateFilesAfterDays: form.removeFiles ? (number(form.removeAfterDays) ?? Number.NaN) : null,
  };
}

/**
 * The keys the form shows a message under. A message about a division's ages as a whole (a division the
 * season does not offer) goes under that division's line when it has one.
 */
export function requirementFieldKeys(form: RequirementsForm): Set<string> {
  const keys = new Set(['ageDate', 'removeVerifiedBirthCertificateFilesAfterDays']);
  form.rules.forEach((rule, index) => {
    for (const field of ['months', 'documents', 'groups', 'datedFrom', 'datedTo']) keys.add(`rules.${index}.${field}`);
    rule.groups.forEach((_group, groupIndex) => keys.add(`rules.${index}.groups.${groupIndex}`));
  });
  for (const division of Object.keys(form.divisionAges)) {
    keys.add(`divisionAges.${division}`);
    keys.add(`divisionAges.${division}.min`);
    keys.add(`divisionAges.${division}.max`);
  }
  return keys;
}

/**
 * A refused PUT as the form shows it: each detail under its field; the server's message above the form when a
 * detail has no field here (or there are no details).
 */
export function serverRequirementErrors(body: TApiError | undefined, fallback: string, form: RequirementsForm): { fields: RequirementErrors; message: string | null } {
  const keys = requirementFieldKeys(form);
  const fields: RequirementErrors = {};
  let unplaced = false;
  for (const detail of body?.details ?? []) {
    const key = detail.path.replace(/^body\./, '');
    if (keys.has(key)) fields[key] ??= detail.message;
    else unplaced = true;
  }
  if (Object.keys(fields).length > 0 && !unplaced) return { fields, message: null };
  return { fields, message: body?.message ?? fallback };
}

const WHOLE = /^\d+$/;

/**
 * What the form finds before sending: a number box holding something other than a whole number (JSON cannot
 * carry it to the server), documents needed left blank, and days left blank while files are deleted. The rest
 * (ranges, groups, dates) the server checks, and its messages show under the fields.
 */
export function localRequirementProblems(form: RequirementsForm): RequirementErrors {
  const problems: RequirementErrors = {};
  const check = (key: string, value: string, message: string, blankAllowed: boolean) => {
    const trimmed = value.trim();
    if (trimmed === '' ? !blankAllowed : !WHOLE.test(trimmed)) problems[key] = message;
  };
  form.rules.forEach((rule, index) => {
    if (rule.lasts === 'months') check(`rules.${index}.months`, rule.months, 'Months must be a whole number', true);
    check(`rules.${index}.documents`, rule.documents, 'Documents needed must be a whole number', false);
  });
  for (const division of DIVISIONS) {
    const ages = form.divisionAges[division];
    if (!ages) continue;
    check(`divisionAges.${division}.min`, ages.min, 'Youngest age must be a whole number', true);
    check(`divisionAges.${division}.max`, ages.max, 'Oldest age must be a whole number', true);
  }
  if (form.removeFiles) check('removeVerifiedBirthCertificateFilesAfterDays', form.removeAfterDays, 'Days must be a whole number', false);
  return problems;
}
