import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import WebSocket from 'ws';
import { LIVE_UNAUTHORIZED_CLOSE_CODE, ZServerMessage } from '../../src/contract';
import { createClearbase, type Clearbase } from '../../src/server/main';
import { loadConfig } from '../../src/server/platform/config';
import { openDatabase, type Database } from '../../src/server/platform/db/client';
import { createLogger } from '../../src/server/platform/logger';
import { addPerson, sessionCookieOf, setSignInMode, signInAs } from '../support/accounts';
import { createScratchPostgresDatabase } from '../support/databases';

/**
 * Two instances of one installation on one PostgreSQL database, each with its own connection pool, as two
 * servers behind a load balancer: what an admin does through one must reach the other's open sessions and
 * live connections at once, not when its session memory happens to expire.
 */

const PASSWORD = 'two instances shared password';
const MASTER_KEY = 'cd'.repeat(32);
const WITHIN_MS = 5_000;

type Instance = { clearbase: Clearbase; dataDir: string; app: FastifyInstance };

async function startInstance(database: Database): Promise<Instance> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'cb-instances-'));
  const config = loadConfig({
    CLEARBASE_DATA_DIR: dataDir,
    CLEARBASE_PASSWORD: PASSWORD,
    CLEARBASE_MASTER_KEY: MASTER_KEY,
    CLEARBASE_DEMO: 'false',
    CLEARBASE_LOGIN_RATE_LIMIT: '1000',
  });
  const clearbase = await createClearbase(config, createLogger('silent'), { readDocuments: false, database, webDir: path.join(dataDir, 'none'), startWorkers: false });
  return { clearbase, dataDir, app: clearbase.app };
}

/** A live connection of `cookie`'s session, once its first message has arrived; `closed` says how it ends. */
async function openLive(baseUrl: string, cookie: string): Promise<{ socket: WebSocket; closed: Promise<{ code: number; atMs: number }> }> {
  const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/ws`, { headers: { cookie, origin: baseUrl } });
  const closed = new Promise<{ code: number; atMs: number }>((resolve) => socket.on('close', (code) => resolve({ code, atMs: performance.now() })));
  const first = await new Promise<unknown>((resolve, reject) => {
    socket.once('message', (data: Buffer) => resolve(JSON.parse(data.toString('utf8'))));
    socket.once('error', reject);
  });
  expect(ZServerMessage.parse(first).type).toBe('connected');
  return { socket, closed };
}

/** Polls until `cookie` is refused on `app` (401), or fails after WITHIN_MS; answers how long it took. */
async function refusedWithin(app: FastifyInstance, cookie: string): Promise<number> {
  const started = performance.now();
  for (;;) {
    const response = await app.inject({ method: 'GET', url: '/api/users', headers: { cookie } });
    if (response.statusCode === 401) return performance.now() - started;
    expect(response.statusCode).toBe(200);
    if (performance.now() - started > WITHIN_MS) throw new Error(`the session was still accepted after ${WITHIN_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const timeout = <T>(promise: Promise<T>, ms: number, what: string) =>
  Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms))]);

describe('personal accounts across two instances [postgres]', () => {
  const postgres = inject('postgresAdminUrl');
  let scratch: { url: string; drop(): Promise<void> } | undefined;
  const databases: Database[] = [];
  let a: Instance | undefined;
  let b: Instance | undefined;
  let bUrl = '';
  let admin = '';
  const started = (instance: Instance | undefined) => {
    if (!instance) throw new Error('instances not started');
    return instance.app;
  };
  const A = () => started(a);
  const B = () => started(b);

  beforeAll(async () => {
    if (!postgres) return;
    scratch = await createScratchPostgresDatabase();
    const [first, second] = [await openDatabase({ kind: 'postgres', url: scratch.url }), await openDatabase({ kind: 'postgres', url: scratch.url })];
    databases.push(first, second);
    a = await startInstance(first);
    b = await startInstance(second);
    bUrl = await b.app.listen({ host: '127.0.0.1', port: 0 });
    admin = sessionCookieOf(await a.app.inject({ method: 'POST', url: '/api/auth/login', payload: { password: PASSWORD } }));
    await setSignInMode(a.app, admin, 'both');
  });
  afterAll(async () => {
    for (const instance of [a, b]) {
      if (!instance) continue;
      await instance.clearbase.close();
      await rm(instance.dataDir, { recursive: true, force: true });
    }
    for (const database of databases) await database.close();
    await scratch?.drop();
  });

  it.skipIf(!postgres)('a person deactivated through A is refused on B within 5 s, and their live connection on B closes with 4401', async () => {
    const person = await addPerson(A(), admin, { email: 'dee.deactivated@example.org', password: 'dee deactivated passphrase' });
    const cookie = await signInAs(B(), person);
    // B has read the session and trusts it for a few seconds from now.
    expect((await B().inject({ method: 'GET', url: '/api/users', headers: { cookie } })).statusCode).toBe(200);
    const live = await openLive(bUrl, cookie);

    const sentAt = performance.now();
    const deactivated = await A().inject({ method: 'PATCH', url: `/api/users/${person.id}`, headers: { cookie: admin }, payload: { status: 'inactive' } });
    expect(deactivated.statusCode).toBe(200);
    await refusedWithin(B(), cookie);
    const closed = await timeout(live.closed, WITHIN_MS, 'the live connection closing');
    expect(closed.code).toBe(LIVE_UNAUTHORIZED_CLOSE_CODE);
    expect(closed.atMs - sentAt).toBeLessThan(WITHIN_MS);
  });

  it.skipIf(!postgres)("'sign out everywhere' through A ends the session on B and its live connection, and keeps the one that asked", async () => {
    const person = await addPerson(A(), admin, { email: 'eve.everywhere@example.org', password: 'eve everywhere passphrase' });
    const onA = await signInAs(A(), person);
    const onB = await signInAs(B(), person);
    expect((await B().inject({ method: 'GET', url: '/api/users', headers: { cookie: onB } })).statusCode).toBe(200);
    const liveOnB = await openLive(bUrl, onB);
    // The session that asks keeps its own live connection, on whichever instance it is.
    const liveOnAsking = await openLive(bUrl, onA);
    let askingClosed = false;
    void liveOnAsking.closed.then(() => {
      askingClosed = true;
    });

    const sentAt = performance.now();
    const ended = await A().inject({ method: 'DELETE', url: '/api/auth/sessions', headers: { cookie: onA } });
    expect(ended.json()).toEqual({ ended: 1 });
    await refusedWithin(B(), onB);
    const closed = await timeout(liveOnB.closed, WITHIN_MS, 'the live connection closing');
    expect(closed.code).toBe(LIVE_UNAUTHORIZED_CLOSE_CODE);
    expect(closed.atMs - sentAt).toBeLessThan(WITHIN_MS);
    expect((await A().inject({ method: 'GET', url: '/api/users', headers: { cookie: onA } })).statusCode).toBe(200);
    expect((await B().inject({ method: 'GET', url: '/api/users', headers: { cookie: onA } })).statusCode).toBe(200);
    expect(askingClosed).toBe(false);
    liveOnAsking.socket.close(1000);
  });

  it.skipIf(!postgres)("turning the shared password off through A ends the shared-password sessions on B, and their live connections", async () => {
    const owner = await addPerson(A(), admin, { email: 'ola.owner@example.org', password: 'ola owner passphrase 1', role: 'admin' });
    const ownerCookie = await signInAs(A(), owner);
    const sharedOnB = sessionCookieOf(await B().inject({ method: 'POST', url: '/api/auth/login', payload: { password: PASSWORD } }));
    expect((await B().inject({ method: 'GET', url: '/api/users', headers: { cookie: sharedOnB } })).statusCode).toBe(200);
    const live = await openLive(bUrl, sharedOnB);
    const sentAt = performance.now();
    await setSignInMode(A(), ownerCookie, 'personal');
    await refusedWithin(B(), sharedOnB);
    const closed = await timeout(live.closed, WITHIN_MS, 'the live connection closing');
    expect(closed.code).toBe(LIVE_UNAUTHORIZED_CLOSE_CODE);
    expect(closed.atMs - sentAt).toBeLessThan(WITHIN_MS);
    expect((await A().inject({ method: 'GET', url: '/api/users', headers: { cookie: ownerCookie } })).statusCode).toBe(200);
  });
});
