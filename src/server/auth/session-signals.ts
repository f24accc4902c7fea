import { z } from 'zod';
import type { LiveHub } from '../live';
import type { NotifyChannel } from '../platform/db/notify';
import type { Logger } from '../platform/logger';
import type { AuthService } from './auth.service';

/**
 * What changed about sessions, told to every instance on the database (LISTEN/NOTIFY), so none trusts a
 * session it remembers (SESSION_RECHECK_MS) a moment longer than it should. Ids only: never a name or token.
 */
export type SessionSignals = {
  /** One person's sessions were ended (all but `keepSessionId`): forget them, close their live connections. */
  sessionsEnded(userId: string, keepSessionId?: string): Promise<void>;
  /**
   * One person changed (role, divisions, name, two-step sign-in): their sessions are read again, and stay open;
   * their live connections reconnect, so events follow the new divisions.
   */
  userChanged(userId: string): Promise<void>;
  /** Every shared-password session was ended. */
  sharedSessionsEnded(): Promise<void>;
};

const ZSignal = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('ended'), userId: z.string().min(1), keep: z.string().min(1).optional() }),
  z.object({ kind: z.literal('changed'), userId: z.string().min(1) }),
  z.object({ kind: z.literal('shared-ended') }),
]);
type Signal = z.infer<typeof ZSignal>;

export type SessionSignalDeps = {
  channel: NotifyChannel;
  auth: Pick<AuthService, 'forgetUser' | 'forgetShared'>;
  hub: Pick<LiveHub, 'endSessions' | 'reopen'>;
  log: Logger;
};

/**
 * Sends and applies session signals. The sender applies a signal at once and again when its own NOTIFY comes
 * back (both are idempotent): its next request is refused without waiting for the round trip, and a session it
 * read again meanwhile is forgotten once more. The channel belongs to the signals once handed over.
 */
export function createSessionSignals(deps: SessionSignalDeps): SessionSignals & { close(): Promise<void> } {
  let closed = false;
  const apply = (signal: Signal) => {
    if (signal.kind === 'shared-ended') {
      deps.auth.forgetShared();
      deps.hub.endSessions({ shared: true });
      return;
    }
    deps.auth.forgetUser(signal.userId);
    if (signal.kind === 'ended') deps.hub.endSessions(signal.keep === undefined ? { userId: signal.userId } : { userId: signal.userId, exceptSessionId: signal.keep });
    else deps.hub.reopen({ userId: signal.userId });
  };

  deps.channel.subscribe((payload) => {
    if (closed) return;
    const parsed = ZSignal.safeParse(parseJson(payload));
    if (!parsed.success) {
      deps.log.warn({ bytes: Buffer.byteLength(payload, 'utf8') }, 'dropped an invalid session signal from the database');
      return;
    }
    apply(parsed.data);
  });

  const send = async (signal: Signal) => {
    apply(signal);
    if (closed) return;
    // Callers send after their commit and must not fail because of it: the other instances see the change
    // within SESSION_RECHECK_MS anyway, as they would without signals.
    await deps.channel.publish(JSON.stringify(signal)).catch((error: unknown) => {
      deps.log.error({ err: error, kind: signal.kind }, 'could not tell the other instances that sessions changed; they notice within seconds');
    });
  };

  return {
    sessionsEnded: (userId, keepSessionId) => send(keepSessionId === undefined ? { kind: 'ended', userId } : { kind: 'ended', userId, keep: keepSessionId }),
    userChanged: (userId) => send({ kind: 'changed', userId }),
    sharedSessionsEnded: () => send({ kind: 'shared-ended' }),
    async close() {
      closed = true;
      await deps.channel.close();
    },
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
