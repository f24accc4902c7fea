import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ZHealth, type THealth } from '../../contract';
import { sharedReads } from '../platform/shared-reads';

export function registerHealthRoutes(parent: FastifyInstance, deps: { health: () => Promise<THealth> }): void {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  // Every open dashboard asks: identical calls while one check runs share it (each check writes a probe file).
  const checks = sharedReads<'health', THealth>();

  /** Liveness for process supervisors: says only that the process answers, to whatever address the probe uses. */
  app.get('/healthz', { config: { access: 'public', anyHost: true } }, async (_request, reply) => reply.type('text/plain').send('ok'));

  app.get('/api/health', { config: { access: 'read' }, schema: { response: { 200: ZHealth } } }, () => checks.read('health', deps.health));
}
