import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { Readable } from 'node:stream';
import { ZCreatedPlayer, ZCreatePlayer, ZErasedPlayer, ZErasePlayer, ZPlayerIdParams, ZPlayerTimeline } from '../../contract';
import type { PlayersService } from './players.service';
import type { FamilyDataService } from './family-data.service';
import { actorOf, principalOf } from '../platform/http/access';
import { contentDisposition } from '../platform/http/content-disposition';

export function registerPlayerRoutes(parent: FastifyInstance, deps: { players: PlayersService; familyData: FamilyDataService }): void {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { players, familyData } = deps;

  app.post('/api/players', { config: { access: 'players.add' }, schema: { body: ZCreatePlayer, response: { 201: ZCreatedPlayer } } }, async (request, reply) =>
    reply.status(201).send(await players.createPlayer(request.body, actorOf(request))),
  );

  app.get(
    '/api/players/:playerId/timeline',
    { config: { access: 'read' }, schema: { params: ZPlayerIdParams, response: { 200: ZPlayerTimeline } } },
    (request) => players.timeline(request.params.playerId, principalOf(request)),
  );

  // Everything held about the player as a ZIP, written while it is sent (files decrypted on the way).
  app.get('/api/players/:playerId/export', { config: { access: 'players.privacy' }, schema: { params: ZPlayerIdParams } }, async (request, reply) => {
    const file = await familyData.exportPlayer(request.params.playerId, actorOf(request));
    return reply
      .header('content-type', 'application/zip')
      .header('content-disposition', contentDisposition(file.filename))
      .header('cache-control', 'private, no-store')
      .header('x-content-type-options', 'nosniff')
      .send(Readable.from(file.body));
  });

  app.post(
    '/api/players/:playerId/erase',
    { config: { access: 'players.privacy' }, schema: { params: ZPlayerIdParams, body: ZErasePlayer, response: { 200: ZErasedPlayer } } },
    (request) => familyData.erasePlayer(request.params.playerId, request.body.confirmName, actorOf(request)),
  );
}
