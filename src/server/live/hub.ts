import { randomUUID } from 'node:crypto';
import type { WebSocket } from 'ws';
import { ZClientMessage, type TServerMessage } from '../../contract';
import type { Logger } from '../platform/logger';

/**
 * The open /ws connections of this instance. `publish` sends a typed message to each; issue-level
 * fan-out across instances (LISTEN/NOTIFY) feeds into the same `publish`.
 */
export type LiveHub = {
  accept(socket: WebSocket): string;
  publish(message: TServerMessage): void;
  readonly size: number;
  /** Closes every connection; by default as a shutdown (1001), which clients answer by reconnecting. */
  closeAll(code?: number, reason?: string): void;
};

export function createLiveHub(log: Logger): LiveHub {
  const sockets = new Map<string, WebSocket>();

  const send = (socket: WebSocket, message: TServerMessage) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
  };

  return {
    accept(socket) {
      const connectionId = randomUUID();
      sockets.set(connectionId, socket);
      socket.on('message', (raw: Buffer) => {
        const parsed = ZClientMessage.safeParse(safeJson(raw.toString('utf8')));
        if (!parsed.success) log.debug({ connectionId }, 'ignored an unparseable live message');
      });
      socket.on('close', () => sockets.delete(connectionId));
      socket.on('error', (error) => log.debug({ connectionId, err: error }, 'live connection error'));
      send(socket, { type: 'connected', connectionId, data: { message: 'Live updates connected' } });
      return connectionId;
    },
    publish(message) {
      for (const socket of sockets.values()) send(socket, message);
    },
    get size() {
      return sockets.size;
    },
    closeAll(code = 1001, reason = 'Server shutting down') {
      for (const socket of sockets.values()) socket.close(code, reason);
      sockets.clear();
    },
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
