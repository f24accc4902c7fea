import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import WebSocket from 'ws';
import { ZDocumentList, ZServerMessage, ZSession, ZStats, type TServerMessage } from '../../src/contract';
import { openDatabase, type Database } from '../../src/server/platform/db/client';
import { childServerEnv, freePort, signIn, startChildServer, type ChildServer } from '../support/child-server';
import { createScratchPostgresDatabase } from '../support/databases';
import { D, P, REPORT_SEASONS, seedReportFixture } from '../support/report-fixture';
import { scopedRows } from '../support/scope-rows';
import { signInAs } from '../support/sessions';

const PASSWORD = 'division-scope-server-password';
const UNKNOWN_ID = '3f8b7c1e-0000-4000-8000-000000000000';
const postgresAdminUrl = inject('postgresAdminUrl');

if (!postgresAdminUrl) {
  describe.skip('division scope on the real server [postgres] — SKIPPED: PostgreSQL not reachable, and PGlite cannot be shared with a child process', () => undefined);
}

/**
 * The server as `npm start` runs it, in a child process, with a person limited to AA signed in by a session
 * row written into its database: the session is read by the server's own sign-in code, and every answer and
 * live event that person gets is AA's.
 */
describe.skipIf(!postgresAdminUrl)('division scope on the real server [postgres]', () => {
  const servers: ChildServer[] = [];
  let scratch: Awaited<ReturnType<typeof createScratchPostgresDatabase>> | undefined;
  let database: Database | undefined;
  let dataDir = '';
  let url = '';
  let aa = '';
  let everyone = '';

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'cb-scope-server-'));
    scratch = await createScratchPostgresDatabase();
    database = await openDatabase({ kind: 'postgres', url: scratch.url });
    await seedReportFixture(database.db);
    aa = await signInAs(database.db, { role: 'moderator', divisions: ['AA'] });
    const server = await startChildServer(
      childServerEnv({
        HOST: '127.0.0.1',
        PORT: String(await freePort()),
        DATABASE_URL: scratch.url,
        CLEARBASE_DATA_DIR: dataDir,
        CLEARBASE_PASSWORD: PASSWORD,
        CLEARBASE_DEMO: 'false',
        LOG_LEVEL: 'warn',
      }),
      servers,
    );
    url = server.url;
    everyone = await signIn(url, PASSWORD);
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.kill()));
    await database?.close();
    await scratch?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  const get = (cookie: string, route: string) => fetch(`${url}${route}`, { headers: { cookie }, signal: AbortSignal.timeout(10_000) });

  it('knows the signed-in person as limited to AA, and answers them AA\'s figures and documents only', async () => {
    const session = ZSession.parse(await (await get(aa, '/api/auth/session')).json());
    expect(session.principal).toMatchObject({ kind: 'user', role: 'moderator', divisions: ['AA'] });

    const rows = await scopedRows(database?.db ?? fail(), ['AA'], REPORT_SEASONS.fall2025.id);
    const stats = ZStats.parse(await (await get(aa, '/api/stats')).json());
    expect(stats).toMatchObject({ totalPlayers: rows.registrations.length, completeProfiles: rows.complete.length });
    expect(ZStats.parse(await (await get(everyone, '/api/stats')).json()).totalPlayers).toBeGreaterThan(stats.totalPlayers);

    const list = ZDocumentList.parse(await (await get(aa, '/api/documents?pageSize=100')).json());
    expect(list.total).toBe(rows.documents.length);
    expect(new Set(list.documents.map((d) => d.playerId))).toEqual(new Set([P.ava, P.ben]));

    const unknown = await get(aa, `/api/documents/${UNKNOWN_ID}`);
    const other = await get(aa, `/api/documents/${D.caraWaiver}`);
    expect(other.status).toBe(404);
    expect(unknown.status).toBe(404);
    const body = async (response: Response, id: string) => {
      const json = (await response.json()) as Record<string, unknown>;
      return { ...json, requestId: typeof json.requestId, message: String(json.message).replace(id, '<id>') };
    };
    expect(await body(other, D.caraWaiver)).toEqual(await body(unknown, UNKNOWN_ID));

    const division = await get(aa, '/api/report/missing?division=AAA');
    expect(division.status).toBe(404);
    expect(await division.json()).toMatchObject({ code: 'NOT_FOUND', message: 'No such division' });
  });

  it('sends the AA person\'s live connection the events of AA documents, not those of AAA', async () => {
    const open = async (cookie: string) => {
      const socket = new WebSocket(`${url.replace('http', 'ws')}/ws`, { headers: { cookie, origin: url } });
      const received: TServerMessage[] = [];
      await new Promise((resolve, reject) => {
        socket.once('message', resolve);
        socket.once('error', reject);
      });
      socket.on('message', (data: Buffer) => received.push(ZServerMessage.parse(JSON.parse(data.toString('utf8')))));
      return { socket, received };
    };
    const aaSocket = await open(aa);
    const allSocket = await open(everyone);
    const change = (id: string) =>
      fetch(`${url}/api/documents/${id}/status`, {
        method: 'PATCH',
        headers: { cookie: everyone, 'content-type': 'application/json', origin: url },
        body: JSON.stringify({ status: 'verified' }),
        signal: AbortSignal.timeout(10_000),
      });
    expect((await change(D.caraWaiver)).status).toBe(200);
    expect((await change(D.benResidency)).status).toBe(200);

    const statusEvents = (inbox: TServerMessage[]) => inbox.flatMap((m) => (m.type === 'document_status_updated' ? [`${m.data.documentId} ${m.data.division ?? '-'}`] : []));
    const deadline = Date.now() + 10_000;
    while (statusEvents(allSocket.received).length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    await new Promise((r) => setTimeout(r, 200));
    aaSocket.socket.close(1000);
    allSocket.socket.close(1000);
    expect(statusEvents(allSocket.received)).toEqual([`${D.caraWaiver} AAA`, `${D.benResidency} AA`]);
    expect(statusEvents(aaSocket.received)).toEqual([`${D.benResidency} AA`]);
  });
});

function fail(): never {
  throw new Error('the database is not open');
}
