import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config';
import { createLogger } from '../../src/server/logger';
import { createClearbase, type Clearbase } from '../../src/server/main';
import { describeEachDatabase } from '../support/databases';

const PASSWORD = 'a password that must never be logged';

describeEachDatabase('logs', ({ getDatabase }) => {
  const lines: string[] = [];
  let clearbase: Clearbase | undefined;
  let dataDir = '';

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'cb-logs-'));
    const config = loadConfig({ CLEARBASE_DATA_DIR: dataDir, CLEARBASE_PASSWORD: PASSWORD, CLEARBASE_DEMO: 'false' });
    const log = createLogger('trace', { write: (line: string) => void lines.push(line) });
    clearbase = await createClearbase(config, log, { database: getDatabase(), webDir: path.join(dataDir, 'none') });
  });
  afterAll(async () => {
    await clearbase?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('never contain the password or a session token, even at trace level', async () => {
    const app = clearbase?.app;
    if (!app) throw new Error('not started');
    await app.inject({ method: 'POST', url: '/api/auth/login', payload: { password: `${PASSWORD}!` } });
    const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { password: PASSWORD } });
    const cookie = [login.headers['set-cookie']].flat().find((c) => c?.startsWith('cb_session=')) ?? '';
    const token = cookie.split(';')[0]?.split('=')[1] ?? '';
    expect(token.length).toBeGreaterThan(40);
    await app.inject({ method: 'GET', url: '/api/health', headers: { cookie: `cb_session=${token}` } });
    await app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie: `cb_session=${token}` } });

    const all = lines.join('');
    expect(lines.length).toBeGreaterThan(5);
    // One line per request, with its request id, method, path and status.
    const completed = lines.filter((line) => line.includes('request completed'));
    expect(completed).toHaveLength(4);
    expect(completed[2]).toMatch(/"reqId":"[0-9a-f-]{36}".*"method":"GET","url":"\/api\/health","statusCode":200/);
    expect(all).not.toContain(PASSWORD);
    expect(all).not.toContain(token);
  });
});
