import { seasonDateProblems, seasonIdFor, type TDivision, type TNewSeason, type TSeason, type TSeasonPatch } from '../../contract';
import { recordAuditEvent, type Actor } from '../audit';
import type { Db } from '../platform/db/client';
import { AppError } from '../platform/errors';
import { listInWords, toSeason } from './season-rules';
import {
  countRegistrationsByDivision,
  findSeason,
  findSeasonByName,
  hasCurrentSeason,
  insertSeason,
  listSeasons,
  lockSeasonsForCreation,
  makeCurrentSeason,
  updateSeason,
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

const sameDivisions = (a: readonly TDivision[], b: readonly TDivision[]) => a.length === b.length && a.every((division) => b.includes(division));

/** Seasons as Settings → Seasons lists and changes them: every change and its audit record commit together. */
export function createSeasonsService(deps: SeasonsServiceDeps) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());

  return {
    /** Newest first, with the divisions each offers, its deadline, and whether it is current or closed. */
    async list(): Promise<TSeason[]> {
      return (await listSeasons(db)).map(toSeason);
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
  };
}

export type SeasonsService = ReturnType<typeof createSeasonsService>;
