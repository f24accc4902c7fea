import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZCreatedPlayer, ZCreatePlayer } from '../../contract';
import type { PlayersService } from './players.service';
import { actorOf } from '../platform/http/access';

export function registerPlayerRoutes(parent: FastifyInstance, deps: { players: PlayersService }): void {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { players } = deps;

  app.post('/api/players', { config: { access: 'players.add' }, schema: { body: ZCreatePlayer, response: { 201: ZCreatedPlayer } } }, async (request, reply) =>
    reply.status(201).send(await players.createPlayer(request.body, actorOf(request))),
  );
}
