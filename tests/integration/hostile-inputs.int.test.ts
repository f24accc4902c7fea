import { readFile, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ZApiError } from '../../src/contract';
import { openTestDatabase, type TestDatabase } from '../support/databases';
import { buildMultipart, makePdf } from '../support/multipart';
import { openRawRequest, sendRaw, WEBSOCKET_OPENING, type RawAnswer } from '../support/raw-http';
import { startSignedInClearbase, type SignedInClearbase } from '../support/signed-in-clearbase';

/**
 * Every hostile input of docs/security.md, sent to a real server over a socket. The table in that file is
 * written from these answers: the test fails when an answer changes or the table no longer says what the
 * server does. `UPDATE_SECURITY_TABLE=1` rewrites the table from the answers (then read the diff).
 */

const DOC = new URL('../../docs/security.md', import.meta.url);
const START = '<!-- hostile-inputs:start -->';
const END = '<!-- hostile-inputs:end -->';
const WEBHOOK_SECRET = 'hostile-inputs-webhook-secret';
const LOGIN_LIMIT = 5;
const WEBHOOK_LIMIT = 6;

type Context = { port: number; cookie: string; origin: string };
type HostileCase = {
  /** What was tried, as the table shows it. */
  input: string;
  /** The status the server must answer; the table shows it with the code and message. */
  status: number;
  send(ctx: Context): Promise<RawAnswer>;
};

const get = (target: string, headers: Record<string, string> = {}) => (ctx: Context) => sendRaw(ctx.port, { method: 'GET', target, headers });
const json = (method: string, target: string, body: string, headers: (ctx: Context) => Record<string, string>) => (ctx: Context) =>
  sendRaw(ctx.port, { method, target, body, headers: { 'content-type': 'application/json', ...headers(ctx) } });
const signedIn = (ctx: Context) => ({ cookie: ctx.cookie, origin: ctx.origin });
const NEW_ADMIN = JSON.stringify({ firstName: 'Eve', lastName: 'Intruder', email: 'eve@evil.example', role: 'admin' });

const CASES: HostileCase[] = [
  // The gate, spelled every way a router or proxy may read as /api/users.
  { input: '`GET /%61pi/users` without a session (percent-encoded letter)', status: 401, send: get('/%61pi/users') },
  { input: '`GET /%2561pi/users` without a session (encoded twice)', status: 401, send: get('/%2561pi/users') },
  { input: '`GET //api//users` without a session (doubled slashes)', status: 401, send: get('//api//users') },
  { input: '`GET /api/users/` without a session (trailing slash)', status: 401, send: get('/api/users/') },
  { input: '`GET /api/./users` and `/x/../api/users` without a session', status: 401, send: get('/x/../api/./users') },
  { input: '`GET /api/users;x` without a session (`;` parameter)', status: 401, send: get('/api/users;x') },
  { input: '`GET http://127.0.0.1/api/users` without a session (absolute-form target)', status: 401, send: (ctx) => get(`${ctx.origin}/api/users`)(ctx) },
  { input: '`GET /API/Users` without a session (letter case)', status: 401, send: get('/API/Users') },
  { input: '`GET /api/no-such-route` without a session', status: 401, send: get('/api/no-such-route') },
  { input: '`GET /api/no-such-route` with a session', status: 404, send: (ctx) => get('/api/no-such-route', { cookie: ctx.cookie })(ctx) },
  // Cross-site requests carrying a signed-in person's cookie.
  {
    input: '`POST /%61pi/users` creating an admin from another site, with a session',
    status: 403,
    send: json('POST', '/%61pi/users', NEW_ADMIN, (ctx) => ({ cookie: ctx.cookie, origin: 'https://evil.example' })),
  },
  {
    input: '`POST /api/users` with `Sec-Fetch-Site: cross-site`, with a session',
    status: 403,
    send: json('POST', '/api/users', NEW_ADMIN, (ctx) => ({ cookie: ctx.cookie, 'sec-fetch-site': 'cross-site' })),
  },
  {
    input: '`POST /api/auth/login` from another site (login CSRF)',
    status: 403,
    send: json('POST', '/api/auth/login', '{"password":"x"}', () => ({ origin: 'https://evil.example' })),
  },
  { input: '`GET /api/users` naming a foreign Host (DNS rebinding), with a session', status: 403, send: (ctx) => get('/api/users', { cookie: ctx.cookie, host: 'rebound.evil.example' })(ctx) },
  // The live connection.
  { input: 'WebSocket `/ws` without a session', status: 401, send: (ctx) => get('/ws', { ...WEBSOCKET_OPENING, origin: ctx.origin })(ctx) },
  { input: 'WebSocket `/ws` from another site, with a session', status: 403, send: (ctx) => get('/ws', { ...WEBSOCKET_OPENING, cookie: ctx.cookie, origin: 'https://evil.example' })(ctx) },
  { input: 'WebSocket `/ws` with no Origin, with a session', status: 403, send: (ctx) => get('/ws', { ...WEBSOCKET_OPENING, cookie: ctx.cookie })(ctx) },
  {
    input: 'WebSocket `/ws` naming a foreign Host, with a session',
    status: 403,
    send: (ctx) => get('/ws', { ...WEBSOCKET_OPENING, cookie: ctx.cookie, host: 'rebound.evil.example', origin: 'http://rebound.evil.example' })(ctx),
  },
  // Bodies that are not what the API takes.
  { input: 'Malformed JSON body', status: 400, send: json('POST', '/api/players', '{"firstName": ', signedIn) },
  { input: 'A JSON array where an object is expected', status: 400, send: json('POST', '/api/players', '[]', signedIn) },
  {
    input: 'A form post (`text/plain`) to a JSON route',
    status: 415,
    send: (ctx) => sendRaw(ctx.port, { method: 'POST', target: '/api/players', body: 'firstName=x', headers: { ...signedIn(ctx), 'content-type': 'text/plain' } }),
  },
  { input: 'A 2 MB JSON body', status: 413, send: json('POST', '/api/players', JSON.stringify({ firstName: 'x'.repeat(2 * 1024 * 1024) }), signedIn) },
  { input: 'A document id that is not one (`GET /api/documents/1%20or%201=1`)', status: 400, send: (ctx) => get('/api/documents/1%20or%201=1', { cookie: ctx.cookie })(ctx) },
  // Text the database cannot store, and addresses that cannot be read.
  { input: 'A NUL byte in a search (`GET /api/users?search=a%00b`)', status: 400, send: (ctx) => get('/api/users?search=a%00b', { cookie: ctx.cookie })(ctx) },
  {
    input: 'Half a UTF-16 character (`"\\ud800"`) in a JSON field',
    status: 400,
    send: json('POST', '/api/players', '{"firstName":"\\ud800","lastName":"Lee","birthDate":"2015-01-01","division":"AA"}', signedIn),
  },
  { input: 'An undecodable byte sequence in a path (`GET /api/documents/%ED%A0%80`)', status: 400, send: (ctx) => get('/api/documents/%ED%A0%80', { cookie: ctx.cookie })(ctx) },
  { input: '`GET /api/admin/test` (it changes data, so it is `POST` only)', status: 404, send: (ctx) => get('/api/admin/test', { cookie: ctx.cookie })(ctx) },
  // The form webhook.
  {
    input: 'Form webhook with a wrong signature',
    status: 401,
    send: (ctx) => {
      const { body, contentType } = buildMultipart([
        { name: 'submissionId', value: 'forged-1' },
        { name: 'birth_certificate', filename: 'birth.pdf', content: makePdf('forged'), contentType: 'application/pdf' },
      ]);
      return sendRaw(ctx.port, { method: 'POST', target: '/api/intake/form', body, headers: { 'content-type': contentType, 'x-clearbase-signature': `sha256=${'0'.repeat(64)}` } });
    },
  },
  {
    input: 'Form webhook with no signature',
    status: 401,
    send: (ctx) => sendRaw(ctx.port, { method: 'POST', target: '/api/intake/form', body: '{}', headers: { 'content-type': 'application/json' } }),
  },
  {
    input: 'Form webhook body sent a few bytes at a time (slow sender)',
    status: 408,
    send: async (ctx) => {
      const request = await openRawRequest({
        port: ctx.port,
        path: '/api/intake/form',
        contentLength: 10_000,
        headers: { 'content-type': 'application/json', 'x-clearbase-signature': `sha256=${'0'.repeat(64)}` },
      });
      await request.write(Buffer.from('{"submissionId":'));
      const answer = await request.response;
      request.socket.destroy();
      return { status: answer.status, body: answer.body, headers: answer.headers };
    },
  },
  // Floods, last: they use up their limits.
  {
    input: `Form webhook flood: more than ${WEBHOOK_LIMIT} posts a minute from one address`,
    status: 429,
    send: async (ctx) => {
      const post = () => sendRaw(ctx.port, { method: 'POST', target: '/api/intake/form', body: '{}', headers: { 'content-type': 'application/json' } });
      for (let i = 0; i < WEBHOOK_LIMIT; i++) await post();
      return post();
    },
  },
  {
    input: `Password guessing: more than ${LOGIN_LIMIT} logins a minute from one address (counted in the database, across instances)`,
    status: 429,
    send: async (ctx) => {
      const guess = () => json('POST', '/api/auth/login', '{"password":"guess"}', () => ({}))(ctx);
      for (let i = 0; i < LOGIN_LIMIT; i++) await guess();
      return guess();
    },
  },
];

/** Numbers of seconds and request ids change between runs; the table keeps the words. */
const stable = (message: string) => message.replace(/\b\d+ seconds\b/g, 'N seconds').replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, '…');

function describeAnswer(answer: RawAnswer): string {
  if (answer.body === '') return `| ${answer.status} | | |`;
  const parsed = ZApiError.safeParse(JSON.parse(answer.body));
  if (!parsed.success) return `| ${answer.status} | | (not an API error) |`;
  return `| ${answer.status} | \`${parsed.data.code}\` | ${stable(parsed.data.message).replace(/\|/g, '\\|')} |`;
}

describe('hostile inputs (docs/security.md)', () => {
  let database: TestDatabase | undefined;
  let server: SignedInClearbase | undefined;
  let ctx: Context = { port: 0, cookie: '', origin: '' };

  beforeAll(async () => {
    database = await openTestDatabase('pglite');
    server = await startSignedInClearbase({
      database: database.database,
      prefix: 'cb-hostile',
      startWorkers: false,
      settings: {
        FORM_WEBHOOK_SECRET: WEBHOOK_SECRET,
        FORM_WEBHOOK_BODY_TIMEOUT_MS: '1000',
        FORM_WEBHOOK_RATE_LIMIT: String(WEBHOOK_LIMIT),
        CLEARBASE_LOGIN_RATE_LIMIT: String(LOGIN_LIMIT),
      },
    });
    const origin = await server.app.listen({ host: '127.0.0.1', port: 0 });
    ctx = { port: Number(new URL(origin).port), cookie: server.cookie, origin };
  });
  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  it('answers each as the table says, and the table says what the server answers', async () => {
    const rows: string[] = [];
    for (const hostile of CASES) {
      const answer = await hostile.send(ctx);
      expect(answer.status, hostile.input).toBe(hostile.status);
      expect(answer.body, hostile.input).not.toMatch(/\n\s+at |\/(?:work|tmp|home|var|usr)\//);
      rows.push(`| ${hostile.input} ${describeAnswer(answer)}`);
    }
    const table = ['| Input tried | Status | Code | Message |', '|---|---|---|---|', ...rows].join('\n');
    let doc = await readFile(DOC, 'utf8');
    const [before, rest] = doc.split(START);
    const after = rest?.split(END)[1];
    if (before === undefined || after === undefined) throw new Error(`docs/security.md must hold ${START} … ${END}`);
    const written = `${before}${START}\n${table}\n${END}${after}`;
    if (process.env.UPDATE_SECURITY_TABLE === '1') {
      await writeFile(DOC, written);
      doc = written;
    }
    expect(doc, 'docs/security.md is out of date: run with UPDATE_SECURITY_TABLE=1 and read the diff').toBe(written);
  });

  it('created no account through any of them', async () => {
    const answer = await sendRaw(ctx.port, { method: 'GET', target: '/api/users', headers: { cookie: ctx.cookie } });
    expect(answer.body).not.toContain('evil.example');
  });
});
