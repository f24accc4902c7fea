import http from 'node:http';

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
