export { derivePlayerId, normaliseName } from './player-id';
export { insertPlayers, upsertPlayer, type NewPlayer } from './players.repository';
export { registerPlayerRoutes } from './players.routes';
export { createPlayersService, type PlayersService } from './players.service';
export { insertRegistrations, upsertRegistration, type NewRegistration } from './registrations.repository';
