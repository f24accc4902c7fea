import { DOC_TYPES, type TDocType, type TDocumentStatus, type TPlayerDocStatus, type TRequirementRule } from '../../contract';

/**
 * The requirement rules, stated in TypeScript: what a season's rules make of a child's documents on a day.
 * The database keeps the same judgement in the registration summary (migration 0016,
 * `registration_summary_refresh`); the integration tests recompute every summary with this engine and compare,
 * so the two cannot drift apart (decision 030).
 *
 * - A season is judged on the requirement day, or on its last day once it has ended.
 * - The documents looked at: this season's documents of the player (any status), and the child's verified
 *   documents of other seasons (the same child under another year's player id too) when the approval outlasts
 *   its season and was made by the judging day.
 * - A verified document counts when it is dated inside the rule's window and, when the rule names groups, is in
 *   one of them; with `lasts: 'months'` it counts until its date (the day received when none was recorded)
 *   plus the months, that day excluded.
 * - A type is met with `documents` counting approvals (one per group when the rule names groups).
 */

/** A document of the child, as the rules read it. */
export type RuleDocument = {
  seasonId: string;
  /** The player row it belongs to (a child has one per year). */
  playerId: string;
  docType: TDocType | null;
  status: TDocumentStatus;
  uploadedAt: Date;
  reviewedAt: Date | null;
  /** YYYY-MM-DD: a medical form's exam date, a residency document's date. */
  documentDate: string | null;
  residencyGroup: string | null;
  /** Removed by retention: counts for nothing. */
  purged: boolean;
  /** Stable and unique: two documents of one group are one approval, two without groups are two. */
  id: string;
};

export type RuleRegistration = {
  playerId: string;
  seasonId: string;
  /** The season's last day, YYYY-MM-DD. */
  seasonEndsOn: string;
  registeredAt: Date;
  rules: readonly TRequirementRule[];
};

export type TypeJudgement = {
  status: TPlayerDocStatus;
  /** While met: since when. */
  metAt: Date | null;
  /** While met: the first day it stops being met, when that is within the season. */
  expiresOn: string | null;
};

export type RegistrationJudgement = {
  statuses: Record<TDocType, TPlayerDocStatus>;
  /** Met types: complete or not required. Four means the player is complete. */
  completeTypes: number;
  pendingTypes: number;
  /** While every type is met: when the last one became met (the registration time when none needed a document). */
  completedAt: Date | null;
  /** The first day within the season a met type stops being met. */
  expiresOn: string | null;
};

const DAY_MS = 24 * 60 * 60 * 1000;

/** YYYY-MM-DD of an instant, in UTC. */
export const utcDay = (at: Date): string => at.toISOString().slice(0, 10);

/**
 * A date plus whole months, the day kept when the month has it and the month's last day otherwise
 * (31 January + 1 month = 28 or 29 February; 29 February + 12 months = 28 February), as PostgreSQL adds an interval.
 */
export function addMonths(day: string, months: number): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const monthIndex = year * 12 + (month - 1) + months;
  const targetYear = Math.floor(monthIndex / 12);
  const targetMonth = monthIndex % 12;
  const lastDay = new Date(Date.UTC(targetYear, targetMonth + 1, 0)).getUTCDate();
  return new Date(Date.UTC(targetYear, targetMonth, Math.min(date, lastDay))).toISOString().slice(0, 10);
}

/** The day a season is judged on: the requirement day, or its last day once it has ended. */
export const judgingDay = (requirementDay: string, seasonEndsOn: string): string => (requirementDay < seasonEndsOn ? requirementDay : seasonEndsOn);

type Considered = { document: RuleDocument; thisSeason: boolean; counts: boolean; until: string | null; unit: string };

function consider(rule: TRequirementRule, registration: RuleRegistration, documents: readonly RuleDocument[], judged: string): Considered[] {
  const considered: Considered[] = [];
  for (const document of documents) {
    if (document.docType !== rule.docType || document.purged) continue;
    const thisSeason = document.seasonId === registration.seasonId;
    const verifiedOn = utcDay(document.reviewedAt ?? document.uploadedAt);
    if (!thisSeason && !(rule.lasts !== 'season' && document.status === 'verified' && verifiedOn <= judged)) continue;
    const dated = document.documentDate;
    const inWindow = (rule.datedFrom === null || (dated !== null && dated >= rule.datedFrom)) && (rule.datedTo === null || (dated !== null && dated <= rule.datedTo));
    const inGroup = rule.groups.length === 0 || (document.residencyGroup !== null && rule.groups.includes(document.residencyGroup));
    considered.push({
      document,
      thisSeason,
      counts: document.status === 'verified' && inWindow && inGroup,
      until: rule.lasts === 'months' && rule.months !== null ? addMonths(dated ?? utcDay(document.uploadedAt), rule.months) : null,
      unit: rule.groups.length > 0 ? (document.residencyGroup ?? '') : document.id,
    });
  }
  return considered;
}

/** What one rule makes of the child's documents for a registration on its judging day. */
export function judgeType(rule: TRequirementRule, registration: RuleRegistration, documents: readonly RuleDocument[], judged: string): TypeJudgement {
  if (!rule.required) return { status: 'not_required', metAt: null, expiresOn: null };
  const considered = consider(rule, registration, documents, judged);
  // The approvals that count on the judging day, one per unit: until its latest document lapses (never, when
  // one does not lapse), since its first verification.
  const units = new Map<string, { until: string | null; since: number }>();
  for (const entry of considered) {
    if (!entry.counts || (entry.until !== null && entry.until <= judged)) continue;
    const since = (entry.document.reviewedAt ?? entry.document.uploadedAt).getTime();
    const unit = units.get(entry.unit);
    if (!unit) units.set(entry.unit, { until: entry.until, since });
    else {
      unit.until = unit.until === null || entry.until === null ? null : entry.until > unit.until ? entry.until : unit.until;
      unit.since = Math.min(unit.since, since);
    }
  }
  if (units.size >= rule.documents) {
    const nth = rule.documents - 1;
    // The set stays met until the `documents`-th latest unit lapses (a unit that never lapses sorts first).
    const untils = [...units.values()].map((unit) => unit.until).sort((a, b) => (a === b ? 0 : a === null ? -1 : b === null ? 1 : a < b ? 1 : -1));
    const sinces = [...units.values()].map((unit) => unit.since).sort((a, b) => a - b);
    const lapses = untils[nth] ?? null;
    return {
      status: 'complete',
      metAt: new Date(sinces[nth] ?? 0),
      expiresOn: lapses !== null && lapses <= registration.seasonEndsOn ? lapses : null,
    };
  }
  const status: TPlayerDocStatus = considered.some((entry) => entry.thisSeason && entry.document.status === 'pending')
    ? 'pending'
    : considered.some((entry) => entry.thisSeason && entry.document.status === 'processing')
      ? 'processing'
      : considered.some((entry) => entry.counts && entry.until !== null && entry.until <= judged)
        ? 'expired'
        : 'missing';
  return { status, metAt: null, expiresOn: null };
}

/** A registration's summary under its season's rules, from the child's documents (every season, every player row). */
export function judgeRegistration(registration: RuleRegistration, documents: readonly RuleDocument[], requirementDay: string): RegistrationJudgement {
  const judged = judgingDay(requirementDay, registration.seasonEndsOn);
  const byType = DOC_TYPES.map((type) => {
    const rule = registration.rules.find((candidate) => candidate.docType === type);
    return rule ? judgeType(rule, registration, documents, judged) : ({ status: 'missing', metAt: null, expiresOn: null } satisfies TypeJudgement);
  });
  const met = byType.filter((judgement) => judgement.status === 'complete' || judgement.status === 'not_required');
  const metTimes = byType.flatMap((judgement) => (judgement.metAt ? [judgement.metAt.getTime()] : []));
  const expiries = byType.flatMap((judgement) => (judgement.expiresOn ? [judgement.expiresOn] : [])).sort();
  return {
    statuses: Object.fromEntries(DOC_TYPES.map((type, index) => [type, byType[index]?.status ?? 'missing'])) as Record<TDocType, TPlayerDocStatus>,
    completeTypes: met.length,
    pendingTypes: byType.filter((judgement) => judgement.status === 'pending').length,
    completedAt: met.length === DOC_TYPES.length ? new Date(metTimes.length > 0 ? Math.max(...metTimes) : registration.registeredAt.getTime()) : null,
    expiresOn: expiries[0] ?? null,
  };
}

/** The day `days` after `day`. */
export const addDays = (day: string, days: number): string => new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
