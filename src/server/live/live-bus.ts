import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { ZServerMessage } from '../../contract';
import type { NotifyChannel } from '../platform/db/notify';
import type { Logger } from '../platform/logger';
import type { LivePublisher } from './publisher';

/** What travels over NOTIFY. `origin` says which instance sent it, for the logs when instances disagree. */
const ZLiveEnvelope = z.object({ origin: z.string().min(1), message: z.unknown() });

export type LiveBus = LivePublisher & {
  readonly instanceId: string;
  /** Stops delivering and closes the channel, which the bus owns once handed to it. */
  close(): Promise<void>;
};

export type LiveBusOptions = {
  /** This instance's sockets. */
  hub: LivePublisher;
  channel: NotifyChannel;
  log: Logger;
  instanceId?: string;
};

/**
 * Cross-instance live events: `publish` goes out through the database, and every instance (the sender
 * included) hands what arrives to its own hub. The sender does not also deliver locally, so each socket
 * sees each message exactly once.
 */
export function createLiveBus({ hub, channel, log, instanceId = randomUUID() }: LiveBusOptions): LiveBus {
  let closed = false;

  channel.subscribe((payload) => {
    if (closed) return;
    const envelope = ZLiveEnvelope.safeParse(parseJson(payload));
    const message = envelope.success ? ZServerMessage.safeParse(envelope.data.message) : undefined;
    if (!envelope.success || !message?.success) {
      // The payload itself stays out of the log: it may carry player names.
      const issues = (envelope.success ? message?.error : envelope.error)?.issues.map((issue) => issue.path.join('.') || issue.message);
      log.warn({ bytes: Buffer.byteLength(payload, 'utf8'), issues }, 'dropped an invalid live message from the database');
      return;
    }
    hub.publish(message.data);
  });

  return {
    instanceId,
    publish(message) {
      if (closed) {
        log.warn({ type: message.type }, 'live message published after the live bus closed; dropped');
        return;
      }
      // Callers publish after their commit and must not fail because of it: errors end here.
      channel.publish(JSON.stringify({ origin: instanceId, message })).catch((error: unknown) => {
        // Nothing went out, so local delivery cannot double up; only other instances miss this one.
        log.error({ err: error, type: message.type }, 'could not send a live message to other instances; delivered on this one only');
        hub.publish(message);
      });
    },
    async close() {
      closed = true;
      await channel.close();
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
