export { derivePlayerId, normaliseName } from './player-id';
export { findPlayer, insertPlayers, upsertPlayer, type NewPlayer } from './players.repository';
export { registerPlayerRoutes } from './players.routes';
export { createPlayersService, type PlayersService } from './players.service';
export { findRegistration, insertRegistrations, upsertRegistration, type NewRegistration } from './registrations.repository';
