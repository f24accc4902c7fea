import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZHealth, type THealth } from '../../contract';

export function registerHealthRoutes(parent: FastifyInstance, deps: { health: () => Promise<THealth> }): void {
  const app = parent.withTypeProvider<ZodTypeProvider>();

  /** Liveness for process supervisors: says only that the process answers, to whatever address the probe uses. */
  app.get('/healthz', { config: { access: 'public', anyHost: true } }, async (_request, reply) => reply.type('text/plain').send('ok'));

  app.get('/api/health', { config: { access: 'read' }, schema: { response: { 200: ZHealth } } }, () => deps.health());
}
