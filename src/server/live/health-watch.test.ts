import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { THealth, THealthServiceName, THealthStatus, TServerMessage } from '../../contract';
import { createLogger } from '../platform/logger';
import { createHealthWatch, type HealthWatch } from './health-watch';

const INTERVAL_MS = 30_000;

type Overrides = Partial<Record<THealthServiceName, { status: THealthStatus; message?: string }>>;

/** Every service ok, except the ones named. */
function healthOf(overrides: Overrides = {}): THealth {
  const service = (name: THealthServiceName) => {
    const override = overrides[name];
    return { status: override?.status ?? 'ok', message: override?.message ?? `${name} fine` };
  };
  return {
    timestamp: new Date().toISOString(),
    services: {
      database: service('database'),
      s3: service('s3'),
      form: service('form'),
      gmail: service('gmail'),
      antivirus: service('antivirus'),
    },
  };
}

function captureLog() {
  const lines: Array<{ level: number; msg: string }> = [];
  const log = createLogger('info', { write: (line: string) => lines.push(JSON.parse(line) as (typeof lines)[number]) });
  return { log, lines };
}

/** A check that answers from a script, one entry per poll; the last one repeats. */
function scriptedCheck(script: Array<THealth | Error>) {
  let calls = 0;
  const check = vi.fn(() => {
    const next = script[Math.min(calls, script.length - 1)];
    calls += 1;
    return next instanceof Error ? Promise.reject(next) : Promise.resolve(next ?? healthOf());
  });
  return check;
}

describe('createHealthWatch', () => {
  let published: TServerMessage[];
  let watch: HealthWatch | undefined;
  const live = { publish: (message: TServerMessage) => void published.push(message) };

  beforeEach(() => {
    vi.useFakeTimers();
    published = [];
  });
  afterEach(async () => {
    await watch?.stop();
    watch = undefined;
    vi.useRealTimers();
  });

  const startWatch = async (check: () => Promise<THealth>, log = captureLog().log) => {
    watch = createHealthWatch({ check, live, intervalMs: INTERVAL_MS, log });
    watch.start();
    await vi.advanceTimersByTimeAsync(0);
  };
  const nextPoll = () => vi.advanceTimersByTimeAsync(INTERVAL_MS);

  it('publishes nothing on the first poll, even when a service is already down', async () => {
    const check = scriptedCheck([healthOf({ antivirus: { status: 'error', message: 'down' }, gmail: { status: 'warning' } })]);
    await startWatch(check);
    expect(check).toHaveBeenCalledTimes(1);
    expect(published).toEqual([]);
  });

  it('publishes an error naming the service and the check message when a service goes from ok to error', async () => {
    const check = scriptedCheck([
      healthOf(),
      healthOf({ antivirus: { status: 'error', message: 'clamd at 127.0.0.1:3310 is not reachable' } }),
    ]);
    await startWatch(check);
    await nextPoll();
    expect(published).toEqual([
      { type: 'system_status', data: { level: 'error', message: 'Antivirus: error — clamd at 127.0.0.1:3310 is not reachable' } },
    ]);
  });

  it('publishes a warning when a service degrades to warning', async () => {
    const check = scriptedCheck([healthOf(), healthOf({ s3: { status: 'warning', message: 'slow answers' } })]);
    await startWatch(check);
    await nextPoll();
    expect(published).toEqual([{ type: 'system_status', data: { level: 'warning', message: 'Secure Storage: warning — slow answers' } }]);
  });

  it('publishes info "… is operational again" when a service recovers to ok', async () => {
    const check = scriptedCheck([healthOf({ antivirus: { status: 'error', message: 'down' } }), healthOf()]);
    await startWatch(check);
    await nextPoll();
    expect(published).toEqual([{ type: 'system_status', data: { level: 'info', message: 'Antivirus is operational again' } }]);
  });

  it('publishes each status change once, not again while the status stays the same even if its message changes', async () => {
    const check = scriptedCheck([
      healthOf(),
      healthOf({ database: { status: 'error', message: 'refused' } }),
      healthOf({ database: { status: 'error', message: 'timed out' } }),
      healthOf({ database: { status: 'error', message: 'timed out' } }),
    ]);
    await startWatch(check);
    await nextPoll();
    await nextPoll();
    await nextPoll();
    expect(check).toHaveBeenCalledTimes(4);
    expect(published).toEqual([{ type: 'system_status', data: { level: 'error', message: 'Database: error — refused' } }]);
  });

  it('reports every service that changed in the same poll, each in its own message', async () => {
    const check = scriptedCheck([
      healthOf({ form: { status: 'warning' } }),
      healthOf({ database: { status: 'error', message: 'refused' }, form: { status: 'ok' } }),
    ]);
    await startWatch(check);
    await nextPoll();
    expect(published).toEqual([
      { type: 'system_status', data: { level: 'error', message: 'Database: error — refused' } },
      { type: 'system_status', data: { level: 'info', message: 'Form Webhook is operational again' } },
    ]);
  });

  it('keeps the last known statuses when the check itself throws, and logs it', async () => {
    const { log, lines } = captureLog();
    const check = scriptedCheck([healthOf(), new Error('check crashed'), healthOf({ gmail: { status: 'error', message: 'x' } })]);
    await startWatch(check, log);
    await nextPoll();
    expect(published).toEqual([]);
    expect(lines.some((line) => line.msg.includes('health check failed'))).toBe(true);
    await nextPoll();
    expect(published).toEqual([{ type: 'system_status', data: { level: 'error', message: 'Mailbox: error — x' } }]);
  });

  it('polls every interval, waiting for a slow check instead of overlapping it', async () => {
    let release: (() => void) | undefined;
    const check = vi.fn(
      () =>
        new Promise<THealth>((resolve) => {
          release = () => resolve(healthOf());
        }),
    );
    await startWatch(check);
    expect(check).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(INTERVAL_MS * 3);
    expect(check).toHaveBeenCalledTimes(1);
    release?.();
    await vi.advanceTimersByTimeAsync(INTERVAL_MS - 1);
    expect(check).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(check).toHaveBeenCalledTimes(2);
    release?.(); // lets afterEach's stop() finish
  });

  it('stops polling on stop(), waits for the poll in flight and publishes nothing from it', async () => {
    let release: ((health: THealth) => void) | undefined;
    const check = vi
      .fn<() => Promise<THealth>>()
      .mockResolvedValueOnce(healthOf())
      .mockImplementationOnce(
        () =>
          new Promise<THealth>((resolve) => {
            release = resolve;
          }),
      );
    await startWatch(check);
    await nextPoll();
    expect(check).toHaveBeenCalledTimes(2);

    let stopped = false;
    const stopping = watch?.stop().then(() => {
      stopped = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    release?.(healthOf({ antivirus: { status: 'error', message: 'down' } }));
    await stopping;
    expect(stopped).toBe(true);
    await vi.advanceTimersByTimeAsync(INTERVAL_MS * 5);
    expect(check).toHaveBeenCalledTimes(2);
    expect(published).toEqual([]);
  });
});
