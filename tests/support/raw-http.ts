import http from 'node:http';
import { connect, type Socket } from 'node:net';

export type RawAnswer = { status: number; body: string; headers: http.IncomingHttpHeaders };

/**
 * One HTTP request over a fresh connection, with the request target written exactly as given (percent
 * signs, dot segments, absolute form): what a hostile client sends, not what a URL parser would make of it.
 * A WebSocket opening that is accepted answers 101 with an empty body.
 */
export function sendRaw(
  port: number,
  request: { method: string; target: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const body = request.body;
    const outgoing = http.request(
      {
        host: '127.0.0.1',
        port,
        // A connection of its own each time: an answer refused before its body was read never affects the next.
        agent: false,
        method: request.method,
        path: request.target,
        headers: {
          host: `127.0.0.1:${port}`,
          ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }),
          ...request.headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), headers: response.headers }));
        response.on('error', reject);
      },
    );
    outgoing.on('upgrade', (response, socket) => {
      socket.destroy();
      resolve({ status: response.statusCode ?? 101, body: '', headers: response.headers });
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** The headers of a WebSocket opening, as a browser sends them (plus whatever the caller adds). */
export const WEBSOCKET_OPENING: Readonly<Record<string, string>> = {
  connection: 'Upgrade',
  upgrade: 'websocket',
  'sec-websocket-version': '13',
  'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
};

export type RawResponse = { status: number; headers: Record<string, string>; body: string };

/**
 * One HTTP/1.1 request over a plain socket, its body written by the test at its own pace: what a slow
 * sender or a cut connection looks like to the server, which `inject` cannot show.
 */
export type RawRequest = {
  socket: Socket;
  write(bytes: Buffer): Promise<void>;
  /** The answer, as soon as its head and Content-Length bytes have arrived (the connection may stay open). */
  response: Promise<RawResponse>;
  /** Resolves when the connection is closed, by either side. */
  closed: Promise<void>;
};

export async function openRawRequest(options: { port: number; path: string; headers: Record<string, string>; contentLength: number }): Promise<RawRequest> {
  const socket = connect({ host: '127.0.0.1', port: options.port });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve).once('error', reject);
  });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  // A write after the server closed the connection fails; the test looks at the answer, not at that.
  socket.on('error', () => undefined);

  let received = Buffer.alloc(0);
  const response = new Promise<RawResponse>((resolve, reject) => {
    const tryParse = () => {
      const headEnd = received.indexOf('\r\n\r\n');
      if (headEnd === -1) return;
      const [statusLine = '', ...headerLines] = received.subarray(0, headEnd).toString('latin1').split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of headerLines) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const length = Number(headers['content-length'] ?? 0);
      const body = received.subarray(headEnd + 4);
      if (body.length < length) return;
      socket.off('data', onData);
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: body.subarray(0, length).toString('utf8') });
    };
    const onData = (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      tryParse();
    };
    socket.on('data', onData);
    void closed.then(() => reject(new Error(`the connection closed without a complete answer (${received.length} bytes)`)));
  });
  // Looked at by the caller or not at all: a request cut on purpose never gets one.
  response.catch(() => undefined);

  const head = [
    `POST ${options.path} HTTP/1.1`,
    'Host: 127.0.0.1',
    `Content-Length: ${options.contentLength}`,
    ...Object.entries(options.headers).map(([name, value]) => `${name}: ${value}`),
    '',
    '',
  ].join('\r\n');
  const write = (bytes: Buffer) =>
    new Promise<void>((resolve) => {
      if (socket.destroyed) {
        resolve();
        return;
      }
      socket.write(bytes, () => resolve());
    });
  await write(Buffer.from(head, 'latin1'));
  return { socket, write, response, closed };
}
