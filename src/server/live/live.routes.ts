import type { FastifyInstance } from 'fastify';
import { LIVE_UNAUTHORIZED_CLOSE_CODE, REALTIME_OFF_MESSAGE } from '../../contract';
import { AppError } from '../platform/errors';
import type { LiveHub } from './hub';

/** Whether live updates are switched on in Settings → System (asked at each connection). */
export type RealtimeSwitch = { realtimeOn(): Promise<boolean> };

export function registerLiveRoutes(app: FastifyInstance, deps: { hub: LiveHub; settings: RealtimeSwitch }): void {
  // The access gate has already refused the upgrade without a session, from another site's page or to a foreign Host.
  app.get(
    '/ws',
    {
      config: { access: 'read' }, websocket: true,
      // Before the upgrade, so a refused connection is a plain HTTP answer the browser sees as closed.
      preValidation: async () => {
        if (!(await deps.settings.realtimeOn())) throw new AppError('FORBIDDEN', REALTIME_OFF_MESSAGE);
      },
    },
    (socket, request) => {
      const { session } = request;
      // The gate let the upgrade through only with a session; without one, nothing to accept.
      if (!session) return socket.close(LIVE_UNAUTHORIZED_CLOSE_CODE, 'Session ended');
      deps.hub.accept(socket, { sessionId: session.id, principal: session.principal });
    },
  );
}
