import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import type { Database } from './client';

/**
 * PostgreSQL rejects NOTIFY payloads of 8000 bytes or more. The margin keeps a payload that passes here
 * from failing there, whatever the server's encoding does to its length.
 */
export const NOTIFY_PAYLOAD_LIMIT_BYTES = 7_900;

export class NotifyPayloadTooLargeError extends Error {
  constructor(
    readonly channel: string,
    readonly bytes: number,
  ) {
    super(
      `NOTIFY payload on "${channel}" is ${bytes} bytes, over the ${NOTIFY_PAYLOAD_LIMIT_BYTES}-byte limit: ` +
        'send an id and let receivers fetch the rest',
    );
    this.name = 'NotifyPayloadTooLargeError';
  }
}

/** One LISTEN/NOTIFY channel: every subscriber on every instance sharing the database gets every payload, its sender's included. */
export type NotifyChannel = {
  publish(payload: string): Promise<void>;
  subscribe(listener: (payload: string) => void): void;
  close(): Promise<void>;
};

/** The db layer has no logger of its own: the caller decides where a lost or regained LISTEN session is reported. */
export type NotifyLog = (level: 'info' | 'warn', message: string, error?: unknown) => void;

export type NotifyChannelOptions = {
  log?: NotifyLog;
  /** First wait before re-listening after the session drops; doubles per failed attempt. */
  reconnectDelayMs?: number;
  maxReconnectDelayMs?: number;
};

// LISTEN takes an identifier, not a parameter: only names that need no quoting or case folding are allowed,
// so LISTEN and pg_notify() always agree on the name.
const CHANNEL_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Opens a channel for cross-instance messages. On PostgreSQL a dedicated session (not a pooled one: LISTEN
 * belongs to a session) listens, and is re-opened with backoff when it drops; notifications sent while it is
 * down are lost, as NOTIFY never queues for an absent listener. PGlite is one process, so its own
 * listen() carries the same NOTIFY path. Resolves once the first LISTEN is in place.
 */
export async function createNotifyChannel(
  database: Database,
  channel: string,
  options: NotifyChannelOptions = {},
): Promise<NotifyChannel> {
  if (!CHANNEL_NAME.test(channel)) throw new Error(`invalid NOTIFY channel name "${channel}": use lower-case letters, digits and _`);
  const log = options.log ?? (() => undefined);
  const listeners = new Set<(payload: string) => void>();
  let closed = false;

  const deliver = (payload: string) => {
    if (closed) return;
    for (const listener of listeners) {
      // One failing subscriber must neither starve the others nor surface inside the driver's event loop.
      try {
        listener(payload);
      } catch (error) {
        log('warn', `a subscriber of NOTIFY channel "${channel}" threw`, error);
      }
    }
  };

  const driver = database.driver;
  const stopListening =
    driver.kind === 'pglite'
      ? await listenOnPglite(driver.pglite, channel, deliver)
      : await listenOnPostgres(() => driver.newClient(), channel, deliver, log, {
          initialMs: options.reconnectDelayMs ?? 250,
          maxMs: options.maxReconnectDelayMs ?? 15_000,
        });

  return {
    async publish(payload) {
      if (closed) throw new Error(`NOTIFY channel "${channel}" is closed`);
      const bytes = Buffer.byteLength(payload, 'utf8');
      if (bytes > NOTIFY_PAYLOAD_LIMIT_BYTES) throw new NotifyPayloadTooLargeError(channel, bytes);
      // Through the query pool, not the listening session: a publisher never waits for a reconnect.
      await database.db.execute(sql`select pg_notify(${channel}, ${payload})`);
    },
    subscribe(listener) {
      listeners.add(listener);
    },
    async close() {
      if (closed) return;
      closed = true;
      listeners.clear();
      await stopListening();
    },
  };
}

async function listenOnPglite(pglite: PGlite, channel: string, deliver: (payload: string) => void): Promise<() => Promise<void>> {
  const unlisten = await pglite.listen(channel, deliver);
  return async () => {
    // Closing the database first already ended every LISTEN; nothing is left to undo.
    if (!pglite.closed) await unlisten().catch(() => undefined);
  };
}

async function listenOnPostgres(
  newClient: () => pg.Client,
  channel: string,
  deliver: (payload: string) => void,
  log: NotifyLog,
  backoff: { initialMs: number; maxMs: number },
): Promise<() => Promise<void>> {
  let closed = false;
  let current: pg.Client | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let failedAttempts = 0;

  const connect = async (): Promise<void> => {
    const client = newClient();
    // Without an 'error' listener a dropped connection would crash the process.
    client.on('error', (error) => lose(client, error));
    client.on('end', () => lose(client, undefined));
    client.on('notification', (notification) => {
      if (notification.channel === channel && notification.payload !== undefined) deliver(notification.payload);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${channel}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (closed) {
      await client.end().catch(() => undefined);
      return;
    }
    current = client;
  };

  // Called for both 'error' and 'end', which a dropped session may emit in either order or both.
  const lose = (client: pg.Client, error: unknown) => {
    if (client !== current) return;
    current = undefined;
    client.end().catch(() => undefined);
    if (closed) return;
    log('warn', `lost the LISTEN session for "${channel}"; reconnecting`, error);
    scheduleReconnect();
  };

  const scheduleReconnect = () => {
    if (closed || retryTimer) return;
    const delayMs = Math.min(backoff.initialMs * 2 ** failedAttempts, backoff.maxMs);
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      connect().then(
        () => {
          failedAttempts = 0;
          if (!closed) log('info', `listening on "${channel}" again`);
        },
        (error: unknown) => {
          failedAttempts += 1;
          log('warn', `could not re-open the LISTEN session for "${channel}"; retrying`, error);
          scheduleReconnect();
        },
      );
    }, delayMs);
    // Shutdown is close()'s job; a pending retry alone must not keep the process running.
    retryTimer.unref();
  };

  await connect();

  return async () => {
    closed = true;
    clearTimeout(retryTimer);
    retryTimer = undefined;
    const client = current;
    current = undefined;
    await client?.end().catch(() => undefined);
  };
}
