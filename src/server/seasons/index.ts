export {
  countSeasons,
  findCurrentSeason,
  insertSeasons,
  listSeasonRequirements,
  listSeasons,
  resolveSeason,
  type NewSeason,
  type SeasonRow,
} from './seasons.repository';
export { registrationRefusal, toSeason } from './season-rules';
export { registerSeasonRoutes } from './seasons.routes';
export { createSeasonsService, type SeasonsService } from './seasons.service';
