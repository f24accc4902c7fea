export { derivePlayerId, normaliseName } from './player-id';
export { birthDateLockedMessage, dayInWords } from './birth-date-lock';
export { findPlayer, insertPlayers, lockPlayerBirthDate, upsertPlayer, verifyPlayerBirthDate, type NewPlayer } from './players.repository';
export { registerPlayerRoutes } from './players.routes';
export { createPlayersService, type PlayersService } from './players.service';
export { findRegistration, insertRegistrations, upsertRegistration, type NewRegistration } from './registrations.repository';
export { createEraseFilesHandler, createFamilyDataService, ERASE_FILES_QUEUE, type FamilyDataService } from './family-data.service';
