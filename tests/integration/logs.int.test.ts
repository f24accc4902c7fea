import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/platform/config';
import { createLogger } from '../../src/server/platform/logger';
import { createClearbase, type Clearbase } from '../../src/server/main';
import { insertSeasons } from '../../src/server/seasons/seasons.repository';
import { describeEachDatabase } from '../support/databases';
import { injectSignedForm, makePdf } from '../support/multipart';
import { FALL_2025, waitForSettledDocument } from '../support/pipeline';

const PASSWORD = 'a password that must never be logged';
const SECRET = 'logs test webhook secret';
/** Distinctive, so a test can look for them in every log line: a search, and a family's contact details. */
const SEARCH = 'Quokkasearchterm';
const GUARDIAN = { name: 'Zanzibarina Quillfeather', email: 'zanzibarina.quill@example.org', phone: '+1 (555) 013-9871' };
const PLAYER = { firstName: 'Wrenfield', lastName: 'Oxtongue' };

describeEachDatabase('logs', ({ getDatabase }) => {
  const lines: string[] = [];
  let clearbase: Clearbase | undefined;
  let dataDir = '';

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'cb-logs-'));
    const config = loadConfig({ CLEARBASE_DATA_DIR: dataDir, CLEARBASE_PASSWORD: PASSWORD, CLEARBASE_DEMO: 'false', FORM_WEBHOOK_SECRET: SECRET });
    await insertSeasons(getDatabase().db, [FALL_2025]);
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

  it('never contain a search string or a family\'s name, e-mail address or phone number, even at trace level', async () => {
    const app = clearbase?.app;
    if (!app) throw new Error('not started');
    const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { password: PASSWORD } });
    const cookie = [login.headers['set-cookie']].flat().join(';').split(';')[0] ?? '';
    const searches = [
      `/api/report/missing?search=${SEARCH}`,
      `/api/documents?search=${SEARCH}&page=1`,
      `/api/users?search=${encodeURIComponent(GUARDIAN.email)}`,
      `/api/reports/season?search=${encodeURIComponent(GUARDIAN.phone)}`,
      // Refused (400) as well as answered: neither line may hold the value.
      `/api/documents?search=${SEARCH}&pageSize=${SEARCH}`,
    ];
    for (const url of searches) await app.inject({ method: 'GET', url, headers: { cookie } });

    const intake = await injectSignedForm(
      app,
      [
        { name: 'submissionId', value: 'logs-1' },
        { name: 'season', value: 'fall-2025' },
        { name: 'division', value: 'AA' },
        { name: 'playerFirstName', value: PLAYER.firstName },
        { name: 'playerLastName', value: PLAYER.lastName },
        { name: 'playerBirthDate', value: '2014-05-03' },
        { name: 'guardianName', value: GUARDIAN.name },
        { name: 'guardianEmail', value: GUARDIAN.email },
        { name: 'guardianPhone', value: GUARDIAN.phone },
        { name: 'birth_certificate', filename: `${PLAYER.lastName} birth.pdf`, content: makePdf('birth'), contentType: 'application/pdf' },
      ],
      SECRET,
    );
    expect(intake.statusCode).toBe(202);
    await waitForSettledDocument(getDatabase().db, intake.json<{ documents: Array<{ id: string }> }>().documents[0]?.id ?? '');

    const completed = lines.filter((line) => line.includes('request completed'));
    // The lines are there, with the path and the parameter names: what was asked, not what was typed.
    expect(completed.some((line) => line.includes('"url":"/api/documents?search=…&page=…"'))).toBe(true);
    expect(completed.some((line) => line.includes('"url":"/api/intake/form"') && line.includes('"statusCode":202'))).toBe(true);
    const all = lines.join('');
    for (const secret of [SEARCH, GUARDIAN.name, GUARDIAN.email, encodeURIComponent(GUARDIAN.email), GUARDIAN.phone, encodeURIComponent(GUARDIAN.phone), PLAYER.lastName]) {
      expect(all, secret).not.toContain(secret);
    }
  });
});
