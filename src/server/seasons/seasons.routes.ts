import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZCreateSeason, ZSeasonParams, ZSeasonRequirements, ZSeasonResponse, ZSeasons, ZUpdateSeason } from '../../contract';
import { actorOf } from '../platform/http/access';
import type { SeasonsService } from './seasons.service';

/**
 * Settings → Seasons: the seasons, a new one, changes to one (dates, divisions, current, closed), and its
 * requirement rules (read by anyone signed in, changed by who manages settings).
 */
export function registerSeasonRoutes(parent: FastifyInstance, deps: { seasons: SeasonsService }): void {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const { seasons } = deps;

  app.get('/api/seasons', { config: { access: 'read' }, schema: { response: { 200: ZSeasons } } }, async () => ({ seasons: await seasons.list() }));

  app.post('/api/seasons', { config: { access: 'settings.manage' }, schema: { body: ZCreateSeason, response: { 201: ZSeasonResponse } } }, async (request, reply) =>
    reply.status(201).send({ season: await seasons.create(request.body, actorOf(request)) }),
  );

  app.patch(
    '/api/seasons/:id',
    { config: { access: 'settings.manage' }, schema: { params: ZSeasonParams, body: ZUpdateSeason, response: { 200: ZSeasonResponse } } },
    async (request) => ({ season: await seasons.update(request.params.id, request.body, actorOf(request)) }),
  );
  app.get(
    '/api/seasons/:id/requirements',
    { config: { access: 'read' }, schema: { params: ZSeasonParams, response: { 200: ZSeasonRequirements } } },
    async (request) => seasons.requirements(request.params.id),
  );
  app.put(
    '/api/seasons/:id/requirements',
    { config: { access: 'settings.manage' }, schema: { params: ZSeasonParams, body: ZSeasonRequirements, response: { 200: ZSeasonRequirements } } },
    async (request) => seasons.updateRequirements(request.params.id, request.body, actorOf(request)),
  );
}
