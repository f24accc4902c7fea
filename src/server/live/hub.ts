import { randomUUID } from 'node:crypto';
import type { WebSocket } from 'ws';
import { inDivisionScope, LIVE_UNAUTHORIZED_CLOSE_CODE, ZClientMessage, type TPrincipal, type TServerMessage } from '../../contract';
import type { Logger } from '../platform/logger';

/** Whose a live connection is: the session that opened it, and what that person may see. */
export type LiveOwner = { sessionId: string; principal: TPrincipal };

/** Which sessions ended, for LiveHub.endSessions. */
export type EndedSessions = { userId: string; exceptSessionId?: string } | { sessionIds: readonly string[] } | { shared: true };

const endedBy = (which: EndedSessions, owner: LiveOwner): boolean => {
  if ('userId' in which) return owner.principal.userId === which.userId && owner.sessionId !== which.exceptSessionId;
  if ('sessionIds' in which) return which.sessionIds.includes(owner.sessionId);
  return owner.principal.kind === 'shared';
};

/** The session ended (signed out, deactivated): the client is told to sign in again, and does not reconnect. */
const SESSION_ENDED_REASON = 'Session ended';
/**
 * 1012 'Service Restart': the client reconnects after its usual pause, and the new connection is opened with the
 * person as they are now (their role and divisions), which a connection keeps for its whole life.
 */
const ACCESS_CHANGED_CLOSE_CODE = 1012;
const ACCESS_CHANGED_REASON = 'Access changed';

/**
 * The open /ws connections of this instance. `publish` sends a typed message to each connection allowed to
 * see it (a document event only to those whose divisions include the document's); fan-out across instances
 * (LISTEN/NOTIFY) feeds into the same `publish`.
 */
export type LiveHub = {
  accept(socket: WebSocket, owner: LiveOwner): string;
  publish(message: TServerMessage): void;
  /**
   * Closes the connections of ended sessions, with the close code that sends the page to sign-in: one person's
   * (but the session `exceptSessionId`, when they signed out their other sessions), the ones named, or every
   * shared-password session's.
   */
  endSessions(which: EndedSessions): void;
  /** Closes one person's connections so that their pages reconnect with what the person may see now. */
  reopen(which: { userId: string }): void;
  readonly size: number;
  /** Closes every connection; by default as a shutdown (1001), which clients answer by reconnecting. */
  closeAll(code?: number, reason?: string): void;
};

export function createLiveHub(log: Logger): LiveHub {
  const sockets = new Map<string, WebSocket>();
  const owners = new Map<string, LiveOwner>();

  const send = (socket: WebSocket, message: TServerMessage) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
  };

  return {
    accept(socket, owner) {
      const connectionId = randomUUID();
      sockets.set(connectionId, socket);
      owners.set(connectionId, owner);
      socket.on('message', (raw: Buffer) => {
        const parsed = ZClientMessage.safeParse(safeJson(raw.toString('utf8')));
        if (!parsed.success) log.debug({ connectionId }, 'ignored an unparseable live message');
      });
      socket.on('close', () => {
        sockets.delete(connectionId);
        owners.delete(connectionId);
      });
      socket.on('error', (error) => log.debug({ connectionId, err: error }, 'live connection error'));
      send(socket, { type: 'connected', connectionId, data: { message: 'Live updates connected' } });
      return connectionId;
    },
    publish(message) {
      const division = 'data' in message && 'division' in message.data ? message.data.division : undefined;
      const scoped = message.type === 'document_uploaded' || message.type === 'document_status_updated' || message.type === 'document_read';
      for (const [connectionId, socket] of sockets) {
        const owner = owners.get(connectionId);
        if (scoped && owner && !inDivisionScope(owner.principal, division)) continue;
        send(socket, message);
      }
    },
    endSessions(which) {
      for (const [connectionId, owner] of owners) {
        if (endedBy(which, owner)) sockets.get(connectionId)?.close(LIVE_UNAUTHORIZED_CLOSE_CODE, SESSION_ENDED_REASON);
      }
    },
    reopen({ userId }) {
      for (const [connectionId, owner] of owners) {
        if (owner.principal.userId === userId) sockets.get(connectionId)?.close(ACCESS_CHANGED_CLOSE_CODE, ACCESS_CHANGED_REASON);
      }
    },
    get size() {
      return sockets.size;
    },
    closeAll(code = 1001, reason = 'Server shutting down') {
      for (const socket of sockets.values()) socket.close(code, reason);
      sockets.clear();
      owners.clear();
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
