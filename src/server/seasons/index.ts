export { countSeasons, findCurrentSeason, insertSeasons, listSeasons, resolveSeason, type NewSeason, type SeasonRow } from './seasons.repository';
