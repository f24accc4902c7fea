import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZHealth } from '../../contract';
import type { AppDeps } from './app';

export function registerHealthRoutes(parent: FastifyInstance, deps: Pick<AppDeps, 'health'>): void {
  const app = parent.withTypeProvider<ZodTypeProvider>();

  /** Liveness for process supervisors: says only that the process answers, to whatever address the probe uses. */
  app.get('/healthz', { config: { access: 'public', anyHost: true } }, async (_request, reply) => reply.type('text/plain').send('ok'));

  app.get('/api/health', { schema: { response: { 200: ZHealth } } }, () => deps.health());
}
