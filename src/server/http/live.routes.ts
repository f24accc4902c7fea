import type { FastifyInstance } from 'fastify';
import { REALTIME_OFF_MESSAGE } from '../../contract';
import { AppError } from '../errors';
import type { AppDeps } from './app';

export function registerLiveRoutes(app: FastifyInstance, deps: Pick<AppDeps, 'hub' | 'settings'>): void {
  // The access gate has already refused the upgrade without a session, from another site's page or to a foreign Host.
  app.get(
    '/ws',
    {
      websocket: true,
      // Before the upgrade, so a refused connection is a plain HTTP answer the browser sees as closed.
      preValidation: async () => {
        if (!(await deps.settings.realtimeOn())) throw new AppError('FORBIDDEN', REALTIME_OFF_MESSAGE);
      },
    },
    (socket) => {
      deps.hub.accept(socket);
    },
  );
}
