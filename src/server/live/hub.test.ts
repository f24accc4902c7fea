import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { ZServerMessage, type TDivision, type TPrincipal, type TServerMessage } from '../../contract';
import { createLogger } from '../platform/logger';
import { createLiveHub, type LiveHub } from './hub';

const principal = (divisions: TDivision[] | null): TPrincipal => ({
  kind: 'user',
  userId: divisions === null ? 'everyone' : divisions.join('+'),
  name: 'Test person',
  email: null,
  role: 'moderator',
  divisions,
  twoFactorEnabled: false,
  twoFactorSetupRequired: false,
});

/** Real sockets: a WebSocket server on a free port whose connections the hub accepts, and clients that record what they get. */
describe('the live hub sends document events only to connections whose divisions include them', () => {
  let server: WebSocketServer;
  let hub: LiveHub;
  const clients: WebSocket[] = [];

  beforeAll(async () => {
    server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  });
  afterEach(() => {
    hub.closeAll();
    for (const client of clients.splice(0)) client.terminate();
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  /** A client whose server side the hub accepted for `divisions`; resolves with what it has received so far, once connected. */
  async function connect(divisions: TDivision[] | null): Promise<TServerMessage[]> {
    return (await connectClient(divisions)).received;
  }

  async function connectClient(divisions: TDivision[] | null): Promise<{ client: WebSocket; received: TServerMessage[] }> {
    const accepted = new Promise<void>((resolve) =>
      server.once('connection', (socket) => {
        hub.accept(socket, { sessionId: `session-${clients.length}`, principal: principal(divisions) });
        resolve();
      }),
    );
    const { port } = server.address() as AddressInfo;
    const client = new WebSocket(`ws://127.0.0.1:${port}`);
    clients.push(client);
    const received: TServerMessage[] = [];
    const connected = new Promise<void>((resolve) =>
      client.on('message', (data: Buffer) => {
        const message = ZServerMessage.parse(JSON.parse(data.toString('utf8')));
        if (message.type === 'connected') resolve();
        else received.push(message);
      }),
    );
    await accepted;
    await connected;
    return { client, received };
  }

  /** Publishes, then a marker every connection gets, and waits until each has it: whatever was due before has arrived. */
  async function publishAndSettle(messages: TServerMessage[], inboxes: TServerMessage[][]): Promise<void> {
    for (const message of messages) hub.publish(message);
    hub.publish({ type: 'system_status', data: { level: 'info', message: 'marker' } });
    const deadline = Date.now() + 5_000;
    while (!inboxes.every((inbox) => inbox.some((m) => m.type === 'system_status'))) {
      if (Date.now() > deadline) throw new Error('the marker did not reach every connection');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  const documentIds = (inbox: TServerMessage[]) =>
    inbox.flatMap((m) => (m.type === 'document_uploaded' || m.type === 'document_status_updated' || m.type === 'document_read' ? [`${m.type} ${m.data.documentId}`] : []));

  it('an AA event reaches the AA and the unlimited connection; an AAA event and one without a division only the unlimited one', async () => {
    hub = createLiveHub(createLogger('silent'));
    const aa = await connect(['AA']);
    const aaAndA = await connect(['AA', 'A']);
    const everyone = await connect(null);
    await publishAndSettle(
      [
        { type: 'document_uploaded', data: { documentId: 'aa-upload', playerName: 'Ava Smith', docType: 'waiver', division: 'AA' } },
        { type: 'document_uploaded', data: { documentId: 'aaa-upload', playerName: 'Cara Jones', docType: null, division: 'AAA' } },
        { type: 'document_status_updated', data: { documentId: 'aa-status', status: 'verified', division: 'AA' } },
        { type: 'document_status_updated', data: { documentId: 'a-status', status: 'rejected', division: 'A' } },
        { type: 'document_status_updated', data: { documentId: 'no-registration', status: 'pending', division: null } },
        { type: 'document_status_updated', data: { documentId: 'no-division-field', status: 'pending' } },
        { type: 'document_read', data: { documentId: 'aaa-read', division: 'AAA' } },
      ],
      [aa, aaAndA, everyone],
    );
    expect(documentIds(aa)).toEqual(['document_uploaded aa-upload', 'document_status_updated aa-status']);
    expect(documentIds(aaAndA)).toEqual(['document_uploaded aa-upload', 'document_status_updated aa-status', 'document_status_updated a-status']);
    expect(documentIds(everyone)).toEqual([
      'document_uploaded aa-upload',
      'document_uploaded aaa-upload',
      'document_status_updated aa-status',
      'document_status_updated a-status',
      'document_status_updated no-registration',
      'document_status_updated no-division-field',
      'document_read aaa-read',
    ]);
    // Messages about no document reach every connection.
    for (const inbox of [aa, aaAndA, everyone]) expect(inbox.filter((m) => m.type === 'system_status')).toHaveLength(1);
  });

  it('closes a changed person’s connections with 1012, so their page reconnects under their new divisions; others stay open', async () => {
    hub = createLiveHub(createLogger('silent'));
    const changed = await connectClient(['AA']);
    const other = await connectClient(['AAA']);
    const closed = new Promise<number>((resolve) => changed.client.once('close', (code) => resolve(code)));
    hub.reopen({ userId: 'AA' });
    expect(await closed).toBe(1012);
    expect(other.client.readyState).toBe(WebSocket.OPEN);
  });
});
