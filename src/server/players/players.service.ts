import { inDivisionScope, type TCreatePlayer, type TCreatedPlayer, type TPlayerTimeline, type TPrincipal } from '../../contract';
import { listPlayerEvents, recordAuditEvent, type Actor } from '../audit';
import { listPlayerTimelineDocuments } from '../documents';
import { listPlayerNotificationHistory } from '../notifications';
import type { Db } from '../platform/db/client';
import { findPlayer, upsertPlayer } from './players.repository';
import { insertRegistrationIfAbsent, listPlayerRegistrations } from './registrations.repository';
import { buildPlayerTimeline, QUIET_DOCUMENT_ACTIONS } from './player-timeline';
import { findPlayerRegistration, toReportRow } from '../reports';
import { resolveSeason } from '../seasons';
import { AppError } from '../platform/errors';
import { derivePlayerId } from './player-id';

export type PlayersServiceDeps = { db: Db; idPrefix: string };

/** The season an audit record's detail names, if any. */
const seasonOfDetail = (detail: Record<string, unknown>): string | null => (typeof detail.seasonId === 'string' ? detail.seasonId : null);

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

    /**
     * The player's story across the seasons the principal may see (those registered in one of their
     * divisions): registrations, files received, reviews, the documents' other steps and messages to the
     * family, newest first. A player with no such season is answered as one that does not exist.
     */
    async timeline(playerId: string, principal: TPrincipal): Promise<TPlayerTimeline> {
      const registrations = (await listPlayerRegistrations(deps.db, playerId)).filter((row) => inDivisionScope(principal, row.division));
      if (registrations.length === 0) throw new AppError('NOT_FOUND', `Player ${playerId} does not exist.`);
      const seasonIds = new Set(registrations.map((row) => row.seasonId));
      const [documents, notifications] = await Promise.all([
        listPlayerTimelineDocuments(deps.db, playerId, [...seasonIds]),
        listPlayerNotificationHistory(deps.db, playerId),
      ]);
      const events = await listPlayerEvents(deps.db, { playerId, documentIds: documents.map((row) => row.id), except: QUIET_DOCUMENT_ACTIONS });
      return {
        playerId,
        entries: buildPlayerTimeline({
          registrations,
          documents,
          // The player's own records of seasons out of sight stay out too.
          events: events.filter((event) => {
            const season = seasonOfDetail(event.detail);
            return event.subjectType === 'document' || season === null || seasonIds.has(season);
          }),
          // A message about no season: only for a principal of every division, as in notification History.
          notifications: notifications.filter((row) => (row.seasonId === null ? principal.divisions === null : seasonIds.has(row.seasonId))),
        }),
      };
    },
  };
}
export type PlayersService = ReturnType<typeof createPlayersService>;
