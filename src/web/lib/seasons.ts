import type { TSeason } from '../../contract';

/** The current season, else the newest (the list comes newest first). */
export const currentSeason = (seasons: readonly TSeason[]): TSeason | undefined => seasons.find((s) => s.isCurrent) ?? seasons[0];

/**
 * The season a select shows for a season parameter: undefined is the current season, a year is that
 * year's latest season (as the server reads it), an id is itself. Undefined when nothing matches.
 */
export function resolveSeason(seasons: readonly TSeason[], param: string | number | undefined): TSeason | undefined {
  if (param === undefined || param === '') return currentSeason(seasons);
  const text = String(param);
  if (/^\d{4}$/.test(text)) return seasons.find((s) => s.year === Number(text));
  return seasons.find((s) => s.id === text);
}
