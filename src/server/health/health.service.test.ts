import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLocalStorage } from '../adapters/storage/local-storage';
import type { Storage } from '../adapters/storage/port';
import { createLogger } from '../platform/logger';
import { CHECK_FAILED, checkHealth, formWebhookCheck, notConfiguredCheck, STORAGE_PROBE_FRESH_MS, storageCheck, type HealthChecks } from './health.service';

const ok = () => Promise.resolve({ status: 'ok' as const, message: 'fine' });

const checks = (overrides: Partial<HealthChecks>): HealthChecks => ({
  database: ok,
  s3: ok,
  form: ok,
  gmail: ok,
  antivirus: ok,
  ...overrides,
});

describe('checkHealth', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reports every service with the time of the check', async () => {
    const health = await checkHealth(checks({}), { now: () => new Date('2025-09-01T10:00:00Z') });
    expect(health.timestamp).toBe('2025-09-01T10:00:00.000Z');
    expect(Object.keys(health.services).sort()).toEqual(['antivirus', 'database', 's3', 'form', 'gmail'].sort());
  });

  it('turns a failing check into an error in plain words, keeping the reason for the log only', async () => {
    const logged: string[] = [];
    const log = createLogger('warn', { write: (line: string) => void logged.push(line) });
    const failure = new Error("EACCES: permission denied, open '/srv/clearbase/storage/.health/probe'");
    const health = await checkHealth(checks({ s3: () => Promise.reject(failure) }), { log });
    expect(health.services.s3).toEqual({ status: 'error', message: CHECK_FAILED.s3 });
    expect(JSON.stringify(health)).not.toMatch(/EACCES|\/srv/);
    expect(health.services.database.status).toBe('ok');
    expect(logged).toHaveLength(1);
    expect(JSON.parse(logged[0] ?? '{}')).toMatchObject({ service: 's3', msg: 'health check failed', err: { message: failure.message } });
  });

  it('turns a hanging check into an error after 5 s', async () => {
    vi.useFakeTimers();
    const pending = checkHealth(checks({ s3: () => new Promise(() => undefined) }));
    await vi.advanceTimersByTimeAsync(5_000);
    expect((await pending).services.s3).toEqual({ status: 'error', message: 'No answer within 5 s' });
  });

  it('says where a volunteer finds the form webhook, and that the secret is made when health asks first', async () => {
    let asked = 0;
    const secret = () => {
      asked += 1;
      return Promise.resolve('generated');
    };
    await expect(formWebhookCheck(secret)()).resolves.toEqual({ status: 'ok', message: expect.stringContaining('Settings → Integrations') as string });
    expect(asked).toBe(1);
    await expect(notConfiguredCheck('The mailbox is not set up yet.')()).resolves.toEqual({ status: 'warning', message: 'The mailbox is not set up yet.' });
  });
});

describe('storageCheck', () => {
  it('probes the storage, lets a probe that passed stand for ten seconds, and never keeps a failed one', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'clearbase-health-'));
    try {
      const local = createLocalStorage(root);
      let puts = 0;
      let failing = false;
      const storage: Storage = {
        ...local,
        driver: local.driver,
        location: local.location,
        put: (key, body) => {
          puts += 1;
          return failing ? Promise.reject(new Error('EIO: i/o error, write')) : local.put(key, body);
        },
      };
      let clock = 0;
      const check = storageCheck(storage, { now: () => clock });
      const passed = { status: 'ok', message: 'Local encrypted storage: write and read OK' };
      await expect(check()).resolves.toEqual(passed);
      clock = STORAGE_PROBE_FRESH_MS - 1;
      await expect(check()).resolves.toEqual(passed);
      expect(puts).toBe(1);
      clock = STORAGE_PROBE_FRESH_MS;
      failing = true;
      await expect(check()).rejects.toThrow('EIO');
      expect(puts).toBe(2);
      await expect(check()).rejects.toThrow('EIO');
      expect(puts).toBe(3);
      failing = false;
      await expect(check()).resolves.toEqual(passed);
      expect(puts).toBe(4);
      // The probe's object is gone again.
      expect(await readdir(path.join(root, '.health'))).toEqual([]);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
