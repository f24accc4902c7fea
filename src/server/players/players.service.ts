import { inDivisionScope, type TCreatePlayer, type TCreatedPlayer } from '../../contract';
import { recordAuditEvent, type Actor } from '../audit';
import type { Db } from '../platform/db/client';
import { findPlayer, upsertPlayer } from './players.repository';
import { insertRegistrationIfAbsent } from './registrations.repository';
import { findPlayerRegistration, toReportRow } from '../reports';
import { resolveSeason } from '../seasons';
import { AppError } from '../platform/errors';
import { derivePlayerId } from './player-id';

export type PlayersServiceDeps = { db: Db; idPrefix: string };


/** An optional text field as stored: blank is no value. */
const orNull = (value: string | undefined) => (value === undefined || value.trim() === '' ? null : value.trim());

export function createPlayersService(deps: PlayersServiceDeps) {
  return {
    /**
     * The 'Add Player' form: the player (created, or found by the id their name and birth date derive, as the
     * form webhook does) registered for the season, with an audit event, in one transaction. A player already
     * registered for that season is a conflict, named so staff can find them. A person limited to some
     * divisions adds players to those only.
     */
    async createPlayer(input: TCreatePlayer, actor: Actor): Promise<TCreatedPlayer> {
      const { divisions } = actor.principal;
      if (divisions !== null && !inDivisionScope(actor.principal, input.division)) {
        throw new AppError('FORBIDDEN', `You can add players only to your divisions: ${divisions.join(', ')}.`);
      }
      return deps.db.transaction(async (tx) => {
        const season = await resolveSeason(tx, input.season);
        if (!season) {
          throw new AppError('VALIDATION_FAILED', `Season "${input.season}" does not exist.`, [
            { path: 'body.season', message: 'is not a season year or id known to Clearbase' },
          ]);
        }
        const playerId = derivePlayerId({
          prefix: deps.idPrefix,
          year: season.year,
          firstName: input.firstName,
          lastName: input.lastName,
          birthDate: input.birthDate,
        });
        const existing = await findPlayer(tx, playerId);
        await upsertPlayer(tx, {
          id: playerId,
          firstName: input.firstName,
          lastName: input.lastName,
          birthDate: input.birthDate,
          guardianName: orNull(input.guardianName),
          guardianEmail: orNull(input.guardianEmail),
          guardianPhone: orNull(input.guardianPhone),
        });
        // Concurrent twins: the second waits for the first's row, then inserts nothing and is told so.
        if (!(await insertRegistrationIfAbsent(tx, { playerId, seasonId: season.id, division: input.division }))) {
          const who = existing ?? { firstName: input.firstName, lastName: input.lastName, birthDate: input.birthDate };
          throw new AppError(
            'CONFLICT',
            `${who.firstName} ${who.lastName} (born ${who.birthDate}) is already registered for ${season.name} as ${playerId}.`,
          );
        }
        await recordAuditEvent(tx, {
          actor: actor.principal,
          action: 'player.created',
          subjectType: 'player',
          subjectId: playerId,
          detail: { seasonId: season.id, division: input.division, newPlayer: existing === undefined },
          requestId: actor.requestId,
        });
        const registration = await findPlayerRegistration(tx, playerId, season.id);
        if (!registration) throw new Error(`registration of ${playerId} for ${season.id} vanished inside its transaction`);
        return { player: toReportRow(registration) };
      });
    },
  };
}
export type PlayersService = ReturnType<typeof createPlayersService>;
