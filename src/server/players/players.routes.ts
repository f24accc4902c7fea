import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZCreatedPlayer, ZCreatePlayer, ZPlayerIdParams, ZPlayerTimeline } from '../../contract';
import type { PlayersService } from './players.service';
import { actorOf, principalOf } from '../platform/http/access';

export function registerPlayerRoutes(parent: FastifyInstance, deps: { players: PlayersService }): void {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { players } = deps;

  app.post('/api/players', { config: { access: 'players.add' }, schema: { body: ZCreatePlayer, response: { 201: ZCreatedPlayer } } }, async (request, reply) =>
    reply.status(201).send(await players.createPlayer(request.body, actorOf(request))),
  );

  app.get(
    '/api/players/:playerId/timeline',
    { config: { access: 'read' }, schema: { params: ZPlayerIdParams, response: { 200: ZPlayerTimeline } } },
    (request) => players.timeline(request.params.playerId, principalOf(request)),
  );
}
