import { sql } from 'drizzle-orm';
import { afterEach, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { describeEachDatabase } from '../../../tests/support/databases';
import type { TServerMessage } from '../../contract';
import { createNotifyChannel, NOTIFY_PAYLOAD_LIMIT_BYTES, NotifyPayloadTooLargeError, type NotifyLog } from '../platform/db/notify';
import { createLogger } from '../platform/logger';
import { createLiveBus, type LiveBus } from './live-bus';

const DELIVERY = { timeout: 5_000, interval: 20 };
/** Long enough for a duplicate or a stray message to have shown up, had there been one. */
const SETTLE_MS = 300;

const statusMessage = (message: string): TServerMessage => ({ type: 'system_status', data: { level: 'info', message } });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let channelCount = 0;
/** A channel name of its own per test: a late notification from one test can never reach the next. */
const nextChannelName = () => `live_bus_test_${process.pid}_${++channelCount}`;

describeEachDatabase('live bus over LISTEN/NOTIFY', ({ getDatabase, getDb, kind }) => {
  const opened: LiveBus[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((bus) => bus.close()));
  });

  /** One "instance": its own channel (on PostgreSQL its own LISTEN session), bus and recording hub. */
  const startInstance = async (channelName: string) => {
    const notifyEvents: Array<{ level: string; message: string }> = [];
    const notifyLog: NotifyLog = (level, message) => notifyEvents.push({ level, message });
    const channel = await createNotifyChannel(getDatabase(), channelName, { log: notifyLog, reconnectDelayMs: 100 });
    const received: TServerMessage[] = [];
    const logLines: Array<{ level: number; msg: string }> = [];
    const log = createLogger('info', { write: (line: string) => logLines.push(JSON.parse(line) as (typeof logLines)[number]) });
    const bus = createLiveBus({ hub: { publish: (message) => void received.push(message) }, channel, log });
    opened.push(bus);
    return { bus, channel, received, logLines, notifyEvents };
  };

  const ZSessionRows = z.object({ rows: z.array(z.object({ pid: z.number(), state: z.string().nullable() })) });
  /** The sessions whose last statement was a LISTEN: the channels' dedicated sessions. */
  const listenSessionPids = async () => {
    const result = await getDb().execute(
      sql`select pid, state from pg_stat_activity where datname = current_database() and query ilike 'LISTEN%'`,
    );
    return ZSessionRows.parse(result).rows;
  };

  it('delivers a message published on instance A exactly once to the hubs of A and B', async () => {
    const name = nextChannelName();
    const a = await startInstance(name);
    const b = await startInstance(name);
    const message: TServerMessage = { type: 'document_status_updated', data: { documentId: 'doc-1', status: 'verified' } };

    a.bus.publish(message);

    await vi.waitFor(() => {
      expect(a.received).toHaveLength(1);
      expect(b.received).toHaveLength(1);
    }, DELIVERY);
    await sleep(SETTLE_MS);
    expect(a.received).toEqual([message]);
    expect(b.received).toEqual([message]);
  });

  it.runIf(kind === 'postgres')('gives each instance a LISTEN session of its own, outside the query pool', async () => {
    const name = nextChannelName();
    await startInstance(name);
    await startInstance(name);
    const sessions = await listenSessionPids();
    expect(sessions).toHaveLength(2);
    expect(new Set(sessions.map((session) => session.pid)).size).toBe(2);
  });

  it('drops payloads that are not valid live messages, logs them, and keeps delivering valid ones', async () => {
    const name = nextChannelName();
    const a = await startInstance(name);
    const b = await startInstance(name);
    const valid = statusMessage('after the junk');
    const rawPayloads = [
      'not json',
      JSON.stringify({ origin: 'elsewhere', message: { type: 'no_such_type', data: {} } }),
      JSON.stringify({ origin: 'elsewhere', message: { type: 'system_status', data: { level: 'fatal', message: 'x' } } }),
      JSON.stringify(valid), // a bare message without its envelope
    ];
    for (const payload of rawPayloads) await getDb().execute(sql`select pg_notify(${name}, ${payload})`);
    // Notifications arrive in commit order: once this one is in, the invalid ones have been handled.
    await getDb().execute(sql`select pg_notify(${name}, ${JSON.stringify({ origin: 'elsewhere', message: valid })})`);

    await vi.waitFor(() => {
      expect(a.received).toEqual([valid]);
      expect(b.received).toEqual([valid]);
    }, DELIVERY);
    for (const instance of [a, b]) {
      const dropped = instance.logLines.filter((line) => line.msg === 'dropped an invalid live message from the database');
      expect(dropped).toHaveLength(rawPayloads.length);
    }
  });

  it(`sends a payload of ${NOTIFY_PAYLOAD_LIMIT_BYTES} bytes and refuses a larger one with a clear error`, async () => {
    const name = nextChannelName();
    const { channel } = await startInstance(name);
    const arrived: string[] = [];
    channel.subscribe((payload) => arrived.push(payload));

    const atLimit = 'é'.repeat(NOTIFY_PAYLOAD_LIMIT_BYTES / 2); // 2 bytes each: the limit counts bytes, not characters
    await channel.publish(atLimit);
    await expect(channel.publish(`${atLimit}x`)).rejects.toThrow(NotifyPayloadTooLargeError);
    await expect(channel.publish(`${atLimit}x`)).rejects.toThrow(/7901 bytes, over the 7900-byte limit/);

    await vi.waitFor(() => expect(arrived).toEqual([atLimit]), DELIVERY);
  });

  it('delivers a live message too large for NOTIFY on its own instance only, and logs the error', async () => {
    const name = nextChannelName();
    const a = await startInstance(name);
    const b = await startInstance(name);
    const oversized = statusMessage('x'.repeat(NOTIFY_PAYLOAD_LIMIT_BYTES));

    a.bus.publish(oversized);

    await vi.waitFor(() => expect(a.received).toEqual([oversized]), DELIVERY);
    expect(a.logLines.some((line) => line.msg.startsWith('could not send a live message to other instances'))).toBe(true);
    await sleep(SETTLE_MS);
    expect(b.received).toEqual([]);
  });

  it('stops delivering to a bus once it is closed', async () => {
    const name = nextChannelName();
    const a = await startInstance(name);
    const b = await startInstance(name);
    await b.bus.close();

    a.bus.publish(statusMessage('after B closed'));

    await vi.waitFor(() => expect(a.received).toHaveLength(1), DELIVERY);
    await sleep(SETTLE_MS);
    expect(b.received).toEqual([]);
    if (kind === 'postgres') expect(await listenSessionPids()).toHaveLength(1);
  });

  it.runIf(kind === 'postgres')('re-opens a killed LISTEN session and delivers again within seconds', async () => {
    const name = nextChannelName();
    const a = await startInstance(name);
    const b = await startInstance(name);
    const before = (await listenSessionPids()).map((session) => session.pid);
    expect(before).toHaveLength(2);

    await getDb().execute(
      sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query ilike 'LISTEN%'`,
    );

    // NOTIFY is not queued for an absent listener: wait until both sessions are back before publishing.
    await vi.waitFor(async () => {
      const sessions = await listenSessionPids();
      expect(sessions).toHaveLength(2);
      expect(sessions.every((session) => session.state === 'idle' && !before.includes(session.pid))).toBe(true);
    }, DELIVERY);
    const message = statusMessage('after the reconnect');
    a.bus.publish(message);

    await vi.waitFor(() => {
      expect(a.received).toEqual([message]);
      expect(b.received).toEqual([message]);
    }, DELIVERY);
    for (const instance of [a, b]) {
      expect(instance.notifyEvents).toContainEqual({ level: 'warn', message: `lost the LISTEN session for "${name}"; reconnecting` });
      expect(instance.notifyEvents).toContainEqual({ level: 'info', message: `listening on "${name}" again` });
    }
  });
});
