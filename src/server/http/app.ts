import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import websocket from '@fastify/websocket';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import {
  serializerCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { THealth } from '../../contract';
import type { Logger } from '../logger';
import type { LiveHub } from '../live/hub';
import type { AuthService } from '../services/auth.service';
import { AppError } from '../errors';
import { registerAuthRoutes, SESSION_COOKIE } from './auth.routes';
import { toApiError } from './error-mapping';
import { SECURITY_HEADERS } from './security-headers';
import { safeValidatorCompiler } from './validation';
import { registerHealthRoutes } from './health.routes';
import { registerDocumentRoutes } from './documents.routes';
import { registerMailboxRoutes } from './mailbox.routes';
import type { MailboxService } from '../mailbox/mailbox.service';
import { registerIntakeRoutes } from './intake.routes';
import type { DocumentsService } from '../services/documents.service';
import { registerLiveRoutes } from './live.routes';
import { registerPlayerRoutes } from './players.routes';
import { registerReportRoutes } from './reports.routes';
import { registerSeasonReportRoutes } from './season-report.routes';
import { registerSettingsRoutes } from './settings.routes';
import { registerUserRoutes } from './users.routes';
import { registerNotificationRoutes } from './notifications.routes';
import type { NotificationsService } from '../services/notifications.service';
import type { PlayersService } from '../services/players.service';
import type { ReportsService } from '../services/reports.service';
import type { SeasonReportService } from '../services/season-report.service';
import type { SettingsService } from '../services/settings.service';
import type { UsersService } from '../services/users.service';
import type { FormIntakeDeps } from '../intake/form-intake.service';

export type AppDeps = {
  log: Logger;
  auth: AuthService;
  health: () => Promise<THealth>;
  hub: LiveHub;
  trustProxy: boolean;
  loginRateLimitPerMinute: number;
  /** The built web app (dist/web); absent in API-only tests. */
  webDir?: string;
  bodyLimitBytes?: number;
  intake: FormIntakeDeps;
  maxFileBytes: number;
  documents: DocumentsService;
  mailbox: MailboxService;
  reports: ReportsService;
  seasonReport: SeasonReportService;
  players: PlayersService;
  settings: SettingsService;
  users: UsersService;
  notifications: NotificationsService;
};

export type RouteEntry = { method: string; url: string };

/**
 * Routes anyone may call. Everything else under /api, and /ws, needs a session: the auth hook denies
 * by default, so a new route is private unless it is added here on purpose.
 */
export const PUBLIC_ROUTES: readonly RouteEntry[] = [
  { method: 'POST', url: '/api/auth/login' },
  { method: 'GET', url: '/api/auth/session' },
  { method: 'POST', url: '/api/auth/logout' },
  // Authenticated by its HMAC signature over the raw body, not by a session.
  { method: 'POST', url: '/api/intake/form' },
];

const isPublic = (method: string, url: string) =>
  PUBLIC_ROUTES.some((route) => route.method === method && route.url === url);

const needsSession = (pathname: string) => pathname === '/ws' || pathname === '/api' || pathname.startsWith('/api/');

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

declare module 'fastify' {
  interface FastifyRequest {
    session: { id: string; expiresAt: Date } | undefined;
  }
  interface FastifyInstance {
    routeTable: RouteEntry[];
  }
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const loggerInstance: FastifyBaseLogger = deps.log;
  const app = Fastify({
    loggerInstance,
    trustProxy: deps.trustProxy,
    bodyLimit: deps.bodyLimitBytes ?? 1024 * 1024,
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    return503OnClosing: true,
    // One line per request (the onResponse hook below) instead of Fastify's two: half the logging work on every call.
    logController: new LogController({ disableRequestLogging: true }),
  }).withTypeProvider<ZodTypeProvider>();

  app.addHook('onResponse', (request, reply, done) => {
    request.log.info(
      { method: request.method, url: request.url, statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10 },
      'request completed',
    );
    done();
  });

  app.setValidatorCompiler(safeValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const routeTable: RouteEntry[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) routeTable.push({ method, url: route.url });
  });

  app.setErrorHandler((error, request, reply) => {
    const { status, body } = toApiError(error, request.id);
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.info({ code: body.code, status }, 'request refused');
    return reply.status(status).send(body);
  });

  // Cookies are parsed by this plugin's own onRequest hook, which must run before the auth hook below.
  await app.register(cookie);
  await app.register(rateLimit, { global: false });
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  // The API speaks JSON only; Fastify's default text/plain parser would let a form post through.
  app.removeContentTypeParser('text/plain');

  app.decorateRequest('session', undefined);
  app.addHook('onRequest', async (request, reply) => {
    reply.headers(SECURITY_HEADERS).header('x-request-id', request.id);
    const pathname = request.url.split('?')[0] ?? '';
    if (!needsSession(pathname)) return;
    if (!SAFE_METHODS.has(request.method)) assertSameOrigin(request);
    if (isPublic(request.method, pathname)) return;
    request.session = await deps.auth.resolveSession(request.cookies[SESSION_COOKIE]);
    if (!request.session) throw new AppError('UNAUTHENTICATED', 'Your session has ended. Enter the system password again.');
  });

  registerAuthRoutes(app, deps);
  registerHealthRoutes(app, deps);
  registerLiveRoutes(app, deps);
  registerIntakeRoutes(app, deps);
  registerDocumentRoutes(app, deps);
  registerMailboxRoutes(app, deps);
  registerReportRoutes(app, deps);
  registerSeasonReportRoutes(app, deps);
  registerPlayerRoutes(app, deps);
  registerSettingsRoutes(app, deps);
  registerUserRoutes(app, deps);
  registerNotificationRoutes(app, deps);
  await registerWebApp(app, deps.webDir);

  return app;
}

/** Refuses state changes sent by another site's page, on top of the SameSite=Strict cookie. */
function assertSameOrigin(request: FastifyRequest): void {
  if (request.headers['sec-fetch-site'] === 'cross-site') {
    throw new AppError('FORBIDDEN', 'Cross-site requests are not accepted.');
  }
  const origin = request.headers.origin;
  if (origin === undefined) return;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    throw new AppError('FORBIDDEN', 'Cross-site requests are not accepted.');
  }
  if (originHost !== request.host) throw new AppError('FORBIDDEN', 'Cross-site requests are not accepted.');
}

/** The built web app, with every non-API path answered by index.html so client routes (and the 404 page) work. */
async function registerWebApp(app: FastifyInstance, webDir: string | undefined): Promise<void> {
  const indexFile = webDir ? path.join(webDir, 'index.html') : undefined;
  const built = indexFile !== undefined && existsSync(indexFile);
  if (built && webDir) {
    await app.register(fastifyStatic, {
      root: webDir,
      wildcard: true,
      index: ['index.html'],
      setHeaders: (res, filePath) => {
        const hashedAsset = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('cache-control', hashedAsset ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
    const pathname = request.url.split('?')[0] ?? '';
    const wantsPage = (request.method === 'GET' || request.method === 'HEAD') && !needsSession(pathname);
    if (wantsPage && built) {
      return reply.header('cache-control', 'no-cache').type('text/html').sendFile('index.html');
    }
    if (wantsPage) {
      throw new AppError('SERVICE_UNAVAILABLE', 'The web app is not built. Run `npm run build`, or start with `npm start`.');
    }
    throw new AppError('NOT_FOUND', `No such route: ${request.method} ${pathname}`);
  });
}
