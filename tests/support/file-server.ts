import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A local HTTP server playing the form provider's file host, with the misbehaviours the guards must survive. */
export async function startFileServer(files: Record<string, Buffer>): Promise<{ origin: string; stop(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    const file = files[url];
    if (file) {
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': file.length });
      res.end(file);
    } else if (url.startsWith('/redirect?to=')) {
      res.writeHead(302, { location: decodeURIComponent(url.slice('/redirect?to='.length)) });
      res.end();
    } else if (url === '/endless') {
      // Never ends on its own; the downloader must cut it at the size cap (bounded here for safety).
      res.writeHead(200, { 'content-type': 'application/pdf' });
      res.write('%PDF-1.7\n');
      let sent = 0;
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        while (sent < 64 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('close', () => (sent = Number.MAX_SAFE_INTEGER));
      pump();
    } else if (url === '/trickle') {
      // A byte every 50 ms: never idle long enough for the idle timeout, never done either.
      res.writeHead(200, { 'content-type': 'application/pdf' });
      res.write('%PDF-1.7\n');
      const timer = setInterval(() => res.write(' '), 50);
      res.on('close', () => clearInterval(timer));
    } else if (url === '/stall') {
      res.writeHead(200, { 'content-type': 'application/pdf' });
      res.write('%PDF-1.7\n'); // then nothing
    } else if (url === '/loop') {
      res.writeHead(302, { location: '/loop' });
      res.end();
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
