import type { TDivision, TSeason } from '../../contract';
import type { SeasonRow } from './seasons.repository';

/** A season as the API answers it: the deadline of a season made before deadlines were kept is its end date. */
export function toSeason(row: SeasonRow): TSeason {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    year: row.year,
    startsOn: row.startsOn,
    endsOn: row.endsOn,
    registrationDeadline: row.registrationDeadline ?? row.endsOn,
    divisions: row.divisions,
    isCurrent: row.isCurrent,
    closed: row.closedAt !== null,
    closedAt: row.closedAt?.toISOString() ?? null,
  };
}

/** 'AAA, AA and A'. */
export const listInWords = (items: readonly string[]): string =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1) ?? ''}`;

/**
 * Why a family's registration into this season and division is refused, in words the family's form can show,
 * with the field it is about; undefined when it is taken. A closed season takes none; an open one, only the
 * divisions it offers.
 */
export function registrationRefusal(season: Pick<SeasonRow, 'name' | 'divisions' | 'closedAt'>, division: TDivision): { field: 'season' | 'division'; message: string } | undefined {
  if (season.closedAt !== null) return { field: 'season', message: `The ${season.name} season is closed to new registrations.` };
  if (!season.divisions.includes(division)) {
    return {
      field: 'division',
      message: `The ${season.name} season has no ${division} division. Choose ${season.divisions.length === 1 ? '' : 'one of '}${listInWords(season.divisions)}.`,
    };
  }
  return undefined;
}
