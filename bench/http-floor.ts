/**
 * The HTTP floor of the scale bench: the least a Node.js server can do to answer an endpoint over HTTP. For
 * each path it runs the endpoint's own statements (a named one prepared by name, on a pg.Pool the size of the
 * server's, in the endpoint's steps: one step after another, a step's statements at once) and answers their
 * rows as JSON; no framework, session
 * check, validation, mapping, headers or logging. What the real server costs above this is Clearbase's own
 * stack; what this costs above the raw SQL is the HTTP hop itself (one more process, two more socket round
 * trips), which no server can avoid.
 *
 * Run by bench/scale.bench.ts as a child process:
 *   node --import tsx bench/http-floor.ts <routes.json> <port> <database url> <pool size>
 * GET /ready answers 204 once it listens; an unknown path 404.
 */
import http from 'node:http';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { z } from 'zod';

const ZStatement = z.object({ name: z.string().optional(), text: z.string(), values: z.array(z.unknown()) });
/** Per path, the steps of one answer: run one after another, each step's statements at once. */
const ZRoutes = z.record(z.string().startsWith('/'), z.object({ steps: z.array(z.array(ZStatement).min(1)).min(1) }));
export type FloorRoutes = z.infer<typeof ZRoutes>;

function main(): void {
  const [routesFile, port, databaseUrl, poolSize] = process.argv.slice(2);
  if (!routesFile || !port || !databaseUrl || !poolSize) {
    throw new Error('usage: node --import tsx bench/http-floor.ts <routes.json> <port> <database url> <pool size>');
  }
  const routes = ZRoutes.parse(JSON.parse(readFileSync(routesFile, 'utf8')));
  const pool = new pg.Pool({ connectionString: databaseUrl, max: Number(poolSize) });

  const answer = async (path: string): Promise<string | undefined> => {
    const route = routes[path];
    if (!route) return undefined;
    const run = (statement: z.infer<typeof ZStatement>) => pool.query({ ...statement, rowMode: 'array' }).then((result) => result.rows);
    const rows = [];
    for (const step of route.steps) rows.push(...(await Promise.all(step.map(run))));
    return JSON.stringify(rows);
  };

  const server = http.createServer((request, response) => {
    if (request.url === '/ready') {
      response.writeHead(204).end();
      return;
    }
    answer(request.url ?? '').then(
      (body) => {
        if (body === undefined) response.writeHead(404).end();
        else response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
      },
      (error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        response.writeHead(500, { 'content-type': 'text/plain' }).end(message);
      },
    );
  });
  server.listen(Number(port), '127.0.0.1');
  const stop = () => server.close(() => void pool.end().then(() => process.exit(0)));
  process.on('SIGTERM', stop);
}

main();
