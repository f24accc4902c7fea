import type { FastifyInstance } from 'fastify';
import type { AppDeps } from './app';

export function registerLiveRoutes(app: FastifyInstance, deps: Pick<AppDeps, 'hub'>): void {
  // The auth hook has already refused the upgrade when there is no session.
  app.get('/ws', { websocket: true }, (socket) => {
    deps.hub.accept(socket);
  });
}
