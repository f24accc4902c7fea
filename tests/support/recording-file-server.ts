import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type RecordedRequest = { path: string; host: string; headers: http.IncomingHttpHeaders };

/**
 * A local HTTP server playing a form builder's file host: it serves what `serve` answers for a path (the
 * query string is not part of it, as a signed link's is not a file's name), redirects `/redirect?to=<url>`, and records every request
 * with its headers, so a test can see what was asked and with which credentials. `origin` names it by host
 * name (localhost), the way a form builder's links do.
 */
export async function startRecordingFileServer(serve: (path: string) => Buffer | undefined): Promise<{
  origin: string;
  /** The same server by address: another host as far as a download's headers are concerned. */
  addressOrigin: string;
  requests: RecordedRequest[];
  stop(): Promise<void>;
}> {
  const requests: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://placeholder');
    requests.push({ path: url.pathname, host: req.headers.host ?? '', headers: req.headers });
    const file = url.pathname === '/redirect' ? undefined : serve(url.pathname);
    if (file) {
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': file.length });
      res.end(file);
    } else if (url.pathname === '/redirect') {
      res.writeHead(302, { location: url.searchParams.get('to') ?? '/' });
      res.end();
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://localhost:${port}`,
    addressOrigin: `http://127.0.0.1:${port}`,
    requests,
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
