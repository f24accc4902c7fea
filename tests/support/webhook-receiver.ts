import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type ReceivedPost = { path: string; contentType: string; body: unknown };

/**
 * A local incoming-webhook endpoint on 127.0.0.1 (node:http): records every JSON POST. Paths starting
 * with /fail answer 500 with a body, as a broken webhook does.
 */
export async function startWebhookReceiver(): Promise<{ origin: string; received: ReceivedPost[]; stop(): Promise<void> }> {
  const received: ReceivedPost[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        body = Buffer.concat(chunks).toString('utf8');
      }
      received.push({ path, contentType: req.headers['content-type'] ?? '', body });
      if (path.startsWith('/fail')) {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end('invalid_payload');
        return;
      }
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
