import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ZApiError } from '../../src/contract';
import type { RouteEntry } from '../../src/server/app';
import { describeEachDatabase } from '../support/databases';
import { sendRaw, type RawAnswer } from '../support/raw-http';
import { startSignedInClearbase, type SignedInClearbase } from '../support/signed-in-clearbase';

/**
 * The access gate, walked over Fastify's own route table: every registered method and path, so a route
 * added tomorrow is covered without touching this file. Each private route is sent without a session in
 * many spellings that a router or proxy may treat as the same path; none may reach a handler or return data.
 * Requests go over a real socket, so the server sees the request line exactly as written here.
 */

/** Fastify's handler-start channel: a message for every route handler that begins to run. */
const HANDLER_START = 'tracing:fastify.request.handler:start';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const A_UUID = '7b0e7a52-5c1d-4b8e-9a0b-3f6a2c1d4e5f';

const encodeChar = (c: string) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;
const encodeFirstLetter = (segment: string) => segment.replace(/[a-z]/i, encodeChar);

/** The spellings of one concrete path (`/api/users/…`) that must all be refused without a session. */
export function spellingsOf(concrete: string, origin: string): Array<{ name: string; target: string }> {
  const segments = concrete.split('/').slice(1);
  const join = (parts: string[]) => `/${parts.join('/')}`;
  const spellings = [
    { name: 'as registered', target: concrete },
    ...segments.map((_, i) => ({
      name: `percent-encoded letter in segment ${i + 1}`,
      target: join(segments.map((s, j) => (j === i ? encodeFirstLetter(s) : s))),
    })),
    { name: 'every letter percent-encoded', target: join(segments.map((s) => s.replace(/[a-z]/gi, encodeChar))) },
    { name: 'double-encoded', target: join(segments.map((s, j) => (j === 0 ? encodeFirstLetter(s).replace('%', '%25') : s))) },
    { name: 'doubled leading slash', target: `/${concrete}` },
    { name: 'doubled inner slash', target: concrete.replace(/\/([^/]*)$/, '//$1') },
    { name: 'trailing slash', target: `${concrete}/` },
    { name: 'dot segment', target: join([segments[0] ?? '', '.', ...segments.slice(1)]) },
    { name: 'dot-dot segment', target: join([segments[0] ?? '', 'x', '..', ...segments.slice(1)]) },
    { name: 'leading dot-dot', target: `/..${concrete}` },
    { name: 'semicolon parameter', target: `${concrete};x` },
    { name: 'semicolon in first segment', target: join([`${segments[0] ?? ''};x`, ...segments.slice(1)]) },
    { name: 'absolute-form target', target: `${origin}${concrete}` },
    { name: 'mixed case', target: concrete.toUpperCase().replace(A_UUID.toUpperCase(), A_UUID) },
    { name: 'encoded slash', target: segments.length > 1 ? concrete.replace(/\/([^/]*)$/, '%2F$1') : `/%2F${segments[0] ?? ''}` },
    { name: 'backslash', target: segments.length > 1 ? concrete.replace(/\/([^/]*)$/, '\\$1') : `/\\${segments[0] ?? ''}` },
    { name: 'with a query string', target: `${concrete}?x=1` },
  ];
  return spellings;
}

const send = (port: number, method: string, target: string, headers: Record<string, string> = {}): Promise<RawAnswer> =>
  SAFE_METHODS.has(method)
    ? sendRaw(port, { method, target, headers })
    : sendRaw(port, { method, target, headers: { 'content-type': 'application/json', ...headers }, body: '{}' });

const concretePath = (url: string) => url.replace(/:\w+/g, A_UUID);

describeEachDatabase('access gate over the route table', ({ getDatabase }) => {
  let server: SignedInClearbase | undefined;
  let webDir = '';
  let port = 0;
  const handlersRun: string[] = [];
  const onHandlerStart = (message: unknown) => {
    const route = (message as { route?: { method?: unknown; url?: unknown } }).route;
    handlersRun.push(`${String(route?.method)} ${String(route?.url)}`);
  };
  const routes = (): RouteEntry[] => {
    if (!server) throw new Error('server not started');
    return server.app.routeTable;
  };
  const privateRoutes = () => routes().filter((route) => route.access !== 'public');
  const cookie = () => server?.cookie ?? '';

  beforeAll(async () => {
    // A built web app of two files, so the public page routes are in the table as they are in production.
    webDir = await mkdtemp(path.join(tmpdir(), 'cb-gate-web-'));
    await mkdir(path.join(webDir, 'assets'));
    await writeFile(path.join(webDir, 'index.html'), '<!doctype html><title>Clearbase</title>');
    await writeFile(path.join(webDir, 'assets', 'app.js'), 'export {};');
    server = await startSignedInClearbase({ database: getDatabase(), prefix: 'cb-gate', webDir, startWorkers: false });
    const address = await server.app.listen({ host: '127.0.0.1', port: 0 });
    port = Number(new URL(address).port);
    subscribe(HANDLER_START, onHandlerStart);
  });
  afterAll(async () => {
    unsubscribe(HANDLER_START, onHandlerStart);
    await server?.close();
    await rm(webDir, { recursive: true, force: true });
  });

  it('declares exactly these routes public, in their own definitions', () => {
    const publicRoutes = routes()
      .filter((route) => route.access === 'public')
      .map((route) => `${route.method} ${route.url}`)
      .sort();
    expect(publicRoutes).toEqual([
      // The web app's files: one route each, no wildcard.
      'GET /',
      'GET /api/auth/session',
      // A family's upload link: its token in the path is the credential (decision 028).
      'GET /api/family/:token',
      'GET /assets/app.js',
      'GET /healthz',
      'GET /index.html',
      'HEAD /',
      'HEAD /api/auth/session',
      'HEAD /api/family/:token',
      'HEAD /assets/app.js',
      'HEAD /healthz',
      'HEAD /index.html',
      'POST /api/auth/invitation',
      'POST /api/auth/invitation/status',
      'POST /api/auth/login',
      'POST /api/auth/logout',
      'POST /api/family/:token/uploads',
      'POST /api/intake/:provider',
      'POST /api/intake/:provider/:token',
      'POST /api/intake/form',
    ]);
    expect(privateRoutes().length).toBeGreaterThan(40);
  });

  it('sees a handler run when the gate lets a request through (the probe of the tests below works)', async () => {
    handlersRun.length = 0;
    const answer = await send(port, 'GET', '/api/users', { cookie: cookie() });
    expect(answer.status).toBe(200);
    expect(handlersRun).toEqual(['GET /api/users']);
  });

  it('refuses every private route without a session in every spelling: no handler runs, no data comes back', async () => {
    handlersRun.length = 0;
    let sent = 0;
    for (const route of privateRoutes()) {
      for (const { name, target } of spellingsOf(concretePath(route.url), `http://127.0.0.1:${port}`)) {
        const answer = await send(port, route.method, target);
        sent++;
        const where = `${route.method} ${target} (${route.url}, ${name})`;
        expect(answer.status, where).toBe(401);
        if (route.method !== 'HEAD') {
          const body: unknown = JSON.parse(answer.body);
          expect(ZApiError.strict().parse(body).code, where).toBe('UNAUTHENTICATED');
        }
      }
    }
    expect(handlersRun).toEqual([]);
    expect(sent).toBeGreaterThan(privateRoutes().length * 15);
  });

  it('refuses every state-changing route from another site, even with a valid session', async () => {
    handlersRun.length = 0;
    const stateChanging = routes().filter((route) => !SAFE_METHODS.has(route.method));
    expect(stateChanging.length).toBeGreaterThan(15);
    const crossSite: Array<Record<string, string>> = [
      { origin: 'https://evil.example' },
      { origin: `http://127.0.0.1:${port + 1}` },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
    ];
    for (const route of stateChanging) {
      for (const headers of crossSite) {
        const where = `${route.method} ${route.url} ${JSON.stringify(headers)}`;
        const answer = await send(port, route.method, concretePath(route.url), { cookie: cookie(), ...headers }).catch((error: unknown) => {
          throw new Error(`${where}: ${String(error)}`);
        });
        expect(answer.status, where).toBe(403);
        expect(ZApiError.strict().parse(JSON.parse(answer.body)).code, where).toBe('FORBIDDEN');
      }
      for (const { name, target } of spellingsOf(concretePath(route.url), `http://127.0.0.1:${port}`)) {
        const answer = await send(port, route.method, target, { cookie: cookie(), origin: 'https://evil.example' }).catch((error: unknown) => {
          throw new Error(`${route.method} ${target} (${name}): ${String(error)}`);
        });
        // A spelling the router does not match is answered by the not-found handler: 404 to a session.
        expect([403, 404], `${route.method} ${target} (${name})`).toContain(answer.status);
      }
    }
    expect(handlersRun).toEqual([]);
  });

  it('takes a state change from its own page', async () => {
    const answer = await send(port, 'POST', '/api/auth/logout', { origin: `http://127.0.0.1:${port}`, 'sec-fetch-site': 'same-origin' });
    expect(answer.status).toBe(200);
  });

  it('answers an unknown API path 404 only to a session, 401 otherwise, in every spelling', async () => {
    for (const { name, target } of spellingsOf('/api/no-such-thing', `http://127.0.0.1:${port}`)) {
      expect((await send(port, 'GET', target)).status, name).toBe(401);
      expect((await send(port, 'GET', target, { cookie: cookie() })).status, name).toBe(404);
    }
  });

  it('serves the pages without a session, and refuses a request naming a foreign host', async () => {
    const page = await send(port, 'GET', '/players');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>Clearbase</title>');
    expect(page.headers['cache-control']).toBe('no-cache');
    const asset = await send(port, 'GET', '/assets/app.js');
    expect(asset.status).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const apiAnswer = await send(port, 'GET', '/api/users', { cookie: cookie() });
    expect(apiAnswer.headers['cache-control']).toBe('no-store');
    expect((await send(port, 'GET', '/api/users')).headers['cache-control']).toBe('no-store');

    for (const target of ['/players', '/api/auth/session', '/api/users']) {
      const answer = await send(port, 'GET', target, { host: `rebound.evil.example:${port}`, cookie: cookie() });
      expect(answer.status, target).toBe(403);
      expect(ZApiError.parse(JSON.parse(answer.body)).code).toBe('FORBIDDEN');
    }
    // A liveness probe may use any address: it says nothing but 'ok'.
    expect((await send(port, 'GET', '/healthz', { host: '10.0.0.7' })).body).toBe('ok');
  });
});

describeEachDatabase('live connection /ws', ({ getDatabase }) => {
  let server: SignedInClearbase | undefined;
  let port = 0;
  beforeAll(async () => {
    server = await startSignedInClearbase({ database: getDatabase(), prefix: 'cb-gate-ws', startWorkers: false });
    port = Number(new URL(await server.app.listen({ host: '127.0.0.1', port: 0 })).port);
  });
  afterAll(async () => {
    await server?.close();
  });

  /** Opens /ws and says how it went: 'open', or the HTTP status of the refused upgrade. */
  const open = (headers: Record<string, string>, target = '/ws') =>
    new Promise<number | 'open'>((resolve, reject) => {
      const socket = new WebSocket(`ws://127.0.0.1:${port}${target}`, { headers });
      socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      socket.on('open', () => {
        socket.close(1000);
        resolve('open');
      });
      socket.on('error', (error) => reject(error));
    });
  const ownOrigin = () => `http://127.0.0.1:${port}`;
  const cookie = () => server?.cookie ?? '';

  it('connects with a session from its own page', async () => {
    expect(await open({ cookie: cookie(), origin: ownOrigin() })).toBe('open');
  });

  it('refuses the upgrade without a session, in any spelling of the path', async () => {
    for (const target of ['/ws', '/%77s', '//ws', '/ws/', '/WS', '/./ws', '/ws;x']) {
      expect(await open({ origin: ownOrigin() }, target), target).toBe(401);
    }
  });

  it("refuses another site's page, even with a session", async () => {
    for (const origin of ['https://evil.example', `http://127.0.0.1:${port + 1}`, `http://localhost:${port}`, 'null']) {
      expect(await open({ cookie: cookie(), origin }), origin).toBe(403);
    }
  });

  it('refuses an upgrade that names no origin: a browser always does', async () => {
    expect(await open({ cookie: cookie() })).toBe(403);
  });

  it('refuses a foreign Host (a rebound DNS name), even with a session and a matching origin', async () => {
    const host = `rebound.evil.example:${port}`;
    expect(await open({ cookie: cookie(), host, origin: `http://${host}` })).toBe(403);
  });
});

describe('spellingsOf', () => {
  it('writes at least ten distinct spellings of a path', () => {
    const spellings = spellingsOf('/api/users', 'http://127.0.0.1:1');
    expect(new Set(spellings.map((s) => s.target)).size).toBe(spellings.length);
    expect(spellings.length).toBeGreaterThanOrEqual(10);
  });
});
