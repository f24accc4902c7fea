import {
  ageDateFor,
  DIVISIONS,
  seasonDateProblems,
  seasonIdFor,
  type TDivision,
  type TDivisionAges,
  type TNewSeason,
  type TSeason,
  type TSeasonPatch,
  type TSeasonRequirements,
} from '../../contract';
import { recordAuditEvent, type Actor } from '../audit';
import { sharedReads } from '../platform/shared-reads';
import type { Db } from '../platform/db/client';
import { AppError } from '../platform/errors';
import { listInWords, toSeason } from './season-rules';
import {
  countRegistrationsByDivision,
  findSeason,
  findSeasonByName,
  hasCurrentSeason,
  insertSeason,
  listSeasonRequirements,
  listSeasons,
  lockSeasonsForCreation,
  makeCurrentSeason,
  updateSeason,
  updateSeasonRequirements,
  type SeasonChanges,
  type SeasonRow,
} from './seasons.repository';

export type SeasonsServiceDeps = { db: Db; now?: () => Date };

/** The fields PATCH may change as they are, in the order an audit entry lists them. */
const PLAIN_FIELDS = ['name', 'kind', 'year', 'startsOn', 'endsOn', 'registrationDeadline'] as const;

const notFound = (id: string) => new AppError('NOT_FOUND', `Season ${id} does not exist.`);

/** 409 for a name another season has, placed on the name field for the form. */
const nameTaken = (name: string) => {
  const message = `Another season is already called ${name}. Choose another name.`;
  return new AppError('CONFLICT', message, [{ path: 'body.name', message }]);
};

/** 400 with each date problem on its own field. */
const datesRefused = (problems: ReturnType<typeof seasonDateProblems>) =>
  new AppError(
    'VALIDATION_FAILED',
    `${problems.map((problem) => problem.message).join('. ')}.`,
    problems.map((problem) => ({ path: `body.${problem.field}`, message: problem.message })),
  );

/** The rule fields an audit entry compares, in the order it lists them. */
const RULE_FIELDS = ['required', 'lasts', 'months', 'documents', 'groups', 'datedFrom', 'datedTo'] as const;

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** A division's ages as stored, or none (any age); built afresh, as jsonb keeps its keys in an order of its own. */
function agesOf(ages: Partial<Record<TDivision, TDivisionAges>>, division: TDivision): TDivisionAges | null {
  const found = ages[division];
  return found ? { min: found.min, max: found.max } : null;
}

/**
 * The requirements as GET answers them: the ages of the divisions the season offers only (what PUT takes back);
 * a season without an age date (none is written so) counts on 31 August.
 */
function requirementsOf(season: SeasonRow, rules: TSeasonRequirements['rules']): TSeasonRequirements {
  const divisionAges: Partial<Record<TDivision, TDivisionAges>> = {};
  for (const division of season.divisions) {
    const ages = agesOf(season.divisionAges, division);
    if (ages) divisionAges[division] = ages;
  }
  return {
    rules,
    ageDate: season.ageDate ?? ageDateFor('baseball', season.year),
    divisionAges,
    removeVerifiedBirthCertificateFilesAfterDays: season.removeVerifiedBirthCertificateFilesAfterDays,
  };
}

const sameDivisions = (a: readonly TDivision[], b: readonly TDivision[]) => a.length === b.length && a.every((division) => b.includes(division));

/** Seasons as Settings → Seasons lists and changes them: every change and its audit record commit together. */
export function createSeasonsService(deps: SeasonsServiceDeps) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());
  // Every open dashboard asks for these: identical calls while one runs share its answer.
  const lists = sharedReads<'seasons', TSeason[]>();
  const requirementReads = sharedReads<string, TSeasonRequirements>();

  return {
    /** Newest first, with the divisions each offers, its deadline, and whether it is current or closed. */
    list(): Promise<TSeason[]> {
      return lists.read('seasons', async () => (await listSeasons(db)).map(toSeason));
    },

    /**
     * A new season, its id made from its kind and year (`fall-2026`); the same id or name again is a 409. The
     * first season (more exactly: one created while none is current) becomes the current season.
     */
    async create(input: TNewSeason, actor: Actor): Promise<TSeason> {
      const id = seasonIdFor(input.kind, input.year);
      const row = await db.transaction(async (tx) => {
        await lockSeasonsForCreation(tx);
        const clash = await findSeason(tx, id);
        if (clash) {
          const message = `${input.kind} ${input.year} already exists as ${clash.name} (id ${id}). Edit that season instead, or pick another year.`;
          throw new AppError('CONFLICT', message, [{ path: 'body.year', message }]);
        }
        if (await findSeasonByName(tx, input.name)) throw nameTaken(input.name);
        const isCurrent = !(await hasCurrentSeason(tx));
        const created = await insertSeason(tx, { id, ...input, isCurrent });
        await recordAuditEvent(tx, {
          actor: actor.principal,
          action: 'season.created',
          subjectType: 'season',
          subjectId: id,
          detail: { ...toSeason(created) },
          requestId: actor.requestId,
        });
        return created;
      });
      return toSeason(row);
    },

    /**
     * Applies the fields that differ and audits each as { from, to }; a patch that changes nothing records
     * nothing. Dates are checked together with those the season keeps; a division that has players in the
     * season is not removed; making a season current unmarks the other one, in the same transaction.
     */
    async update(id: string, patch: TSeasonPatch, actor: Actor): Promise<TSeason> {
      const row = await db.transaction(async (tx) => {
        // Locked: a submission into the season waits for this change, and one under way is counted below.
        const before = await findSeason(tx, id, { lock: true });
        if (!before) throw notFound(id);
        const shown = toSeason(before);
        const changes: SeasonChanges = {};
        const detail: Record<string, { from: unknown; to: unknown }> = {};
        for (const field of PLAIN_FIELDS) {
          const to = patch[field];
          if (to === undefined || to === shown[field]) continue;
          Object.assign(changes, { [field]: to });
          detail[field] = { from: shown[field], to };
        }

        if (['year', 'startsOn', 'endsOn', 'registrationDeadline'].some((field) => field in detail)) {
          const startsOn = changes.startsOn ?? before.startsOn;
          const endsOn = changes.endsOn ?? before.endsOn;
          const problems = seasonDateProblems({
            year: changes.year ?? before.year,
            startsOn,
            endsOn,
            registrationDeadline: changes.registrationDeadline ?? before.registrationDeadline ?? endsOn,
          });
          if (problems.length > 0) throw datesRefused(problems);
        }
        if (changes.name !== undefined && (await findSeasonByName(tx, changes.name, id))) throw nameTaken(changes.name);

        if (patch.divisions !== undefined && !sameDivisions(patch.divisions, before.divisions)) {
          const removed = before.divisions.filter((division) => !patch.divisions?.includes(division));
          const taken = await countRegistrationsByDivision(tx, id, removed);
          if (taken.length > 0) {
            const players = taken.map(({ division, players }) => `${players} in ${division}`);
            const message = `${before.name} already has players in ${listInWords(taken.map((t) => t.division))} (${players.join(', ')}), so ${
              taken.length === 1 ? 'that division stays' : 'those divisions stay'
            }. A division can be removed only while no player of the season is in it.`;
            throw new AppError('CONFLICT', message, [{ path: 'body.divisions', message }]);
          }
          changes.divisions = patch.divisions;
          detail.divisions = { from: before.divisions, to: patch.divisions };
        }

        if (patch.closed !== undefined && patch.closed !== shown.closed) {
          changes.closedAt = patch.closed ? now() : null;
          detail.closed = { from: shown.closed, to: patch.closed };
        }

        let previousCurrent: string | undefined;
        if (patch.isCurrent === true && !before.isCurrent) {
          previousCurrent = await makeCurrentSeason(tx, id);
          detail.isCurrent = { from: false, to: true };
        }

        if (Object.keys(detail).length === 0) return before;
        const after: SeasonRow | undefined = await updateSeason(tx, id, changes);
        if (!after) throw notFound(id);
        await recordAuditEvent(tx, {
          actor: actor.principal,
          action: 'season.updated',
          subjectType: 'season',
          subjectId: id,
          detail: { name: after.name, changes: detail, ...(previousCurrent === undefined ? {} : { previousCurrent }) },
          requestId: actor.requestId,
        });
        return after;
      });
      return toSeason(row);
    },

    /** The season's requirement rules, its league age day, its divisions' ages and how long verified birth certificate files are kept. */
    requirements(id: string): Promise<TSeasonRequirements> {
      return requirementReads.read(id, async () => {
        const season = await findSeason(db, id);
        if (!season) throw notFound(id);
        return requirementsOf(season, await listSeasonRequirements(db, id));
      });
    },

    /**
     * Replaces the season's rules, age day, divisions' ages and file removal, and audits what changed as
     * { from, to }, in one transaction; the rule rows are updated in place (the trigger on them recomputes
     * every registration of the season). Ages are taken only for divisions the season offers; those stored
     * for a division it does not offer are kept, for when it is offered again. A save that changes nothing
     * records nothing.
     */
    async updateRequirements(id: string, input: TSeasonRequirements, actor: Actor): Promise<TSeasonRequirements> {
      return db.transaction(async (tx) => {
        // Locked: the divisions checked below stay as they are until the change commits.
        const season = await findSeason(tx, id, { lock: true });
        if (!season) throw notFound(id);
        const offered = new Set<TDivision>(season.divisions);
        const foreign = DIVISIONS.filter((division) => input.divisionAges[division] !== undefined && !offered.has(division));
        if (foreign.length > 0) {
          const message = `${season.name} has no ${listInWords(foreign)} division${foreign.length === 1 ? '' : 's'}. Give ages only for ${listInWords(season.divisions)}.`;
          throw new AppError(
            'VALIDATION_FAILED',
            message,
            foreign.map((division) => ({ path: `body.divisionAges.${division}`, message })),
          );
        }
        const before = requirementsOf(season, await listSeasonRequirements(tx, id));
        const changes: Record<string, unknown> = {};

        const changedRules = input.rules.filter((rule) => {
          const previous = before.rules.find((candidate) => candidate.docType === rule.docType);
          const fields: Record<string, { from: unknown; to: unknown }> = {};
          for (const field of RULE_FIELDS) {
            if (!same(previous?.[field] ?? null, rule[field])) fields[field] = { from: previous?.[field] ?? null, to: rule[field] };
          }
          if (Object.keys(fields).length > 0) changes[rule.docType] = fields;
          return Object.keys(fields).length > 0;
        });

        const seasonChanges: SeasonChanges = {};
        if (input.ageDate !== before.ageDate) {
          seasonChanges.ageDate = input.ageDate;
          changes.ageDate = { from: before.ageDate, to: input.ageDate };
        }
        const divisionAges: Partial<Record<TDivision, TDivisionAges>> = {};
        const agesChanged: Record<string, { from: TDivisionAges | null; to: TDivisionAges | null }> = {};
        for (const division of DIVISIONS) {
          const stored = agesOf(season.divisionAges, division);
          const wanted = offered.has(division) ? agesOf(input.divisionAges, division) : stored;
          if (wanted !== null) divisionAges[division] = wanted;
          if (!same(stored, wanted)) agesChanged[division] = { from: stored, to: wanted };
        }
        if (Object.keys(agesChanged).length > 0) {
          seasonChanges.divisionAges = divisionAges;
          changes.divisionAges = agesChanged;
        }
        const removeAfter = input.removeVerifiedBirthCertificateFilesAfterDays;
        if (removeAfter !== before.removeVerifiedBirthCertificateFilesAfterDays) {
          seasonChanges.removeVerifiedBirthCertificateFilesAfterDays = removeAfter;
          changes.removeVerifiedBirthCertificateFilesAfterDays = { from: before.removeVerifiedBirthCertificateFilesAfterDays, to: removeAfter };
        }

        if (Object.keys(changes).length === 0) return before;
        await updateSeasonRequirements(tx, id, changedRules);
        const after = Object.keys(seasonChanges).length > 0 ? await updateSeason(tx, id, seasonChanges) : season;
        if (!after) throw notFound(id);
        await recordAuditEvent(tx, {
          actor: actor.principal,
          action: 'season.requirements_updated',
          subjectType: 'season',
          subjectId: id,
          detail: { name: season.name, changes },
          requestId: actor.requestId,
        });
        return requirementsOf(after, await listSeasonRequirements(tx, id));
      });
    },
  };
}

export type SeasonsService = ReturnType<typeof createSeasonsService>;
