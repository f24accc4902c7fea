import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { THealth, THealthServiceName, TServiceHealth } from '../../contract';
import type { Storage } from '../adapters/storage/port';

export type HealthCheck = () => Promise<TServiceHealth>;
export type HealthChecks = Record<THealthServiceName, HealthCheck>;

const CHECK_TIMEOUT_MS = 5_000;

/** Runs every check at once; a check that throws or hangs reports `error` instead of failing the call. */
export async function checkHealth(checks: HealthChecks, now: () => Date = () => new Date()): Promise<THealth> {
  const names = Object.keys(checks) as THealthServiceName[];
  const results = await Promise.all(names.map((name) => runCheck(checks[name])));
  const services = Object.fromEntries(names.map((name, i) => [name, results[i]])) as THealth['services'];
  return { timestamp: now().toISOString(), services };
}

async function runCheck(check: HealthCheck): Promise<TServiceHealth> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<TServiceHealth>((resolve) => {
    timer = setTimeout(
      () => resolve({ status: 'error', message: `No answer within ${CHECK_TIMEOUT_MS / 1000} s` }),
      CHECK_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([check(), timeout]);
  } catch (error) {
    return { status: 'error', message: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
  }
}

export function databaseCheck(ping: () => Promise<number>, kind: 'pglite' | 'postgres'): HealthCheck {
  const label = kind === 'pglite' ? 'Embedded PostgreSQL (PGlite)' : 'PostgreSQL';
  return async () => {
    const ms = await ping();
    return { status: 'ok', message: `${label} answered in ${ms.toFixed(1)} ms` };
  };
}

/** Proves the storage can write, read back and delete an object, not merely that it is configured. */
export function storageCheck(storage: Storage): HealthCheck {
  return async () => {
    const key = `.health/probe-${randomBytes(8).toString('hex')}`;
    const payload = randomBytes(32);
    try {
      await storage.put(key, payload);
      const readBack = await readAll(await storage.get(key));
      if (!readBack.equals(payload)) return { status: 'error', message: 'Storage returned different bytes than written' };
    } finally {
      await storage.delete(key).catch(() => undefined);
    }
    const where = storage.driver === 'local' ? `Local encrypted storage at ${storage.location}` : `S3 ${storage.location}`;
    return { status: 'ok', message: `${where}: write and read OK` };
  };
}

export function formWebhookCheck(secretConfigured: boolean): HealthCheck {
  return () =>
    Promise.resolve(
      secretConfigured
        ? { status: 'ok', message: 'Webhook signature secret configured' }
        : { status: 'warning', message: 'Not configured: set FORM_WEBHOOK_SECRET to accept form submissions' },
    );
}

/** For a service whose integration is not set up on this installation. */
export function notConfiguredCheck(what: string): HealthCheck {
  return () => Promise.resolve({ status: 'warning', message: `Not configured: ${what}` });
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
