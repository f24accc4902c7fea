import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ZApiError } from '../../src/contract';
import { loadConfig } from '../../src/server/platform/config';
import { openDatabase, type Database } from '../../src/server/platform/db/client';
import { createLogger } from '../../src/server/platform/logger';
import { createClearbase, type Clearbase } from '../../src/server/main';
import { createScratchPostgresDatabase, openTestDatabase, type TestDatabase } from '../support/databases';

const PASSWORD = 'login limit test password';
const LIMIT = 4;
// Instances of one installation share the master key; the address hash is keyed by it.
const MASTER_KEY = 'ab'.repeat(32);

type Instance = { clearbase: Clearbase; dataDir: string };

async function startInstance(database: Database): Promise<Instance> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'cb-login-limit-'));
  const config = loadConfig({
    CLEARBASE_DATA_DIR: dataDir,
    CLEARBASE_PASSWORD: PASSWORD,
    CLEARBASE_MASTER_KEY: MASTER_KEY,
    CLEARBASE_DEMO: 'false',
    CLEARBASE_LOGIN_RATE_LIMIT: String(LIMIT),
    TRUST_PROXY: 'true',
  });
  const clearbase = await createClearbase(config, createLogger('silent'), { readDocuments: false, database, webDir: path.join(dataDir, 'none'), startWorkers: false });
  return { clearbase, dataDir };
}

async function stopInstance(instance: Instance | undefined): Promise<void> {
  if (!instance) return;
  await instance.clearbase.close();
  await rm(instance.dataDir, { recursive: true, force: true });
}

const login = (instance: Instance, address: string, password = 'not the password') =>
  instance.clearbase.app.inject({ method: 'POST', url: '/api/auth/login', payload: { password }, headers: { 'x-forwarded-for': address } });

describe('login limit across instances [postgres]', () => {
  const postgres = inject('postgresAdminUrl');
  let scratch: { url: string; drop(): Promise<void> } | undefined;
  const databases: Database[] = [];
  const instances: Instance[] = [];

  beforeAll(async () => {
    if (!postgres) return;
    scratch = await createScratchPostgresDatabase();
    // Three instances, each with its own connection pool, as three servers on one database would have.
    for (let i = 0; i < 3; i++) databases.push(await openDatabase({ kind: 'postgres', url: scratch.url }));
    for (const database of databases) instances.push(await startInstance(database));
  });
  afterAll(async () => {
    for (const instance of instances) await stopInstance(instance);
    for (const database of databases) await database.close();
    await scratch?.drop();
  });

  it.skipIf(!postgres)(`allows ${LIMIT} attempts per address in total, not ${LIMIT} per instance`, async () => {
    const answers: number[] = [];
    for (let i = 0; i < LIMIT * instances.length; i++) {
      const instance = instances[i % instances.length];
      if (!instance) throw new Error('no instance');
      answers.push((await login(instance, '203.0.113.20')).statusCode);
    }
    expect(answers.filter((status) => status === 401)).toHaveLength(LIMIT);
    expect(answers.slice(LIMIT).every((status) => status === 429)).toBe(true);

    // Whichever instance is asked next, the address is refused, with when to try again.
    for (const instance of instances) {
      const limited = await login(instance, '203.0.113.20', PASSWORD);
      expect(limited.statusCode).toBe(429);
      expect(ZApiError.parse(limited.json()).message).toMatch(/^Too many login attempts\. Try again in \d+ seconds\.$/);
      const retryAfter = Number(limited.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
    }
    // Another address still signs in, on any instance.
    expect((await login(instances[2] as Instance, '203.0.113.21', PASSWORD)).statusCode).toBe(200);
  });

  it.skipIf(!postgres)('counts attempts sent to every instance at the same moment exactly once each', async () => {
    const answers = await Promise.all(
      Array.from({ length: 5 * LIMIT }, (_, i) => login(instances[i % instances.length] as Instance, '203.0.113.22').then((r) => r.statusCode)),
    );
    expect(answers.filter((status) => status !== 429)).toHaveLength(LIMIT);
  });
});

describe('login limit on one instance [pglite]', () => {
  let testDatabase: TestDatabase | undefined;
  let instance: Instance | undefined;
  beforeAll(async () => {
    testDatabase = await openTestDatabase('pglite');
    instance = await startInstance(testDatabase.database);
  });
  afterAll(async () => {
    await stopInstance(instance);
    await testDatabase?.drop();
  });

  it('keeps the count in the database, so a restarted instance does not start it again', async () => {
    if (!instance || !testDatabase) throw new Error('not started');
    for (let i = 0; i < LIMIT - 1; i++) expect((await login(instance, '203.0.113.30')).statusCode).toBe(401);
    await stopInstance(instance);
    instance = await startInstance(testDatabase.database);

    expect((await login(instance, '203.0.113.30')).statusCode).toBe(401);
    const limited = await login(instance, '203.0.113.30', PASSWORD);
    expect(limited.statusCode).toBe(429);
    expect(ZApiError.parse(limited.json())).toMatchObject({ code: 'RATE_LIMITED', message: expect.stringMatching(/^Too many login attempts\. Try again in \d+ seconds\.$/) as string });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });
});
