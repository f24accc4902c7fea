import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import websocket from '@fastify/websocket';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import {
  serializerCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { THealth } from '../contract';
import type { Logger } from './platform/logger';
import { type LiveHub, registerLiveRoutes } from './live';
import { type AccountService, type AuthService, registerAuthRoutes, type SignInModeSource } from './auth';
import { AppError } from './platform/errors';
import { registerAccessGate, requireSession, type RouteAccess } from './platform/http/access';
import { canonicalPath, isApiPath } from './platform/http/request-path';
import type { SiteGuard } from './platform/http/site';
import { toApiError } from './platform/http/error-mapping';
import { SECURITY_HEADERS } from './platform/http/security-headers';
import { safeValidatorCompiler } from './platform/http/validation';
import { registerHealthRoutes } from './health';
import { registerDocumentRoutes, type DocumentsService } from './documents';
import {
  registerIntakeRoutes,
  registerIntakeSetupRoutes,
  registerIntegrationRoutes,
  registerMailboxRoutes,
  registerProviderRoutes,
  type FormIntakeDeps,
  type FormSecret,
  type IntegrationsService,
  type MailboxService,
  type MailboxSettingsService,
  type ProviderIntakeDeps,
  registerFamilyUploadRoutes,
  type FamilyIntakeDeps,
} from './intake';
import { registerUploadLinkRoutes, type UploadLinksService } from './upload-links';
import { registerPlayerRoutes, type FamilyDataService, type PlayersService } from './players';
import { registerEligibilityRoutes, registerReportRoutes, registerSeasonReportRoutes, type EligibilityService, type ReportsService, type SeasonReportService } from './reports';
import { registerSeasonRoutes, type SeasonsService } from './seasons';
import { registerSettingsRoutes, type SettingsService } from './settings';
import { registerMasterKeyRoutes, type MasterKeyBackupService } from './master-key';
import { registerBackupRoutes, type NightlyBackups } from './backup';
import { registerUserRoutes, type UsersService } from './users';
import { registerNotificationRoutes, type NotificationsService } from './notifications';

export type AppDeps = {
  log: Logger;
  auth: AuthService;
  /** A person's own account: password links, sessions, two-step sign-in. */
  account: AccountService;
  /** How staff sign in now (Settings → Security). */
  signIn: SignInModeSource;
  /** This installation's own names and origins (CLEARBASE_PUBLIC_URL, or the listening address). */
  site: SiteGuard;
  health: () => Promise<THealth>;
  hub: LiveHub;
  trustProxy: boolean;
  /** The built web app (dist/web); absent in API-only tests. */
  webDir?: string;
  bodyLimitBytes?: number;
  intake: FormIntakeDeps;
  /** The form builders' webhooks (Jotform, Typeform …) and their deliveries log. */
  providers: ProviderIntakeDeps;
  maxFileBytes: number;
  documents: DocumentsService;
  mailbox: MailboxService;
  /** Settings → Integrations: the form builders' secrets, mappings and deliveries. */
  integrations: IntegrationsService;
  /** Settings → Integrations: the form webhook's secret (Reveal, Rotate). */
  formSecret: FormSecret;
  /** Settings → Integrations: the mailbox's settings and Test connection. */
  mailboxSettings: MailboxSettingsService;
  reports: ReportsService;
  seasonReport: SeasonReportService;
  /** Reports → Eligibility packet: a division's roster with ages and verifications, as a PDF. */
  eligibility: EligibilityService;
  seasons: SeasonsService;
  players: PlayersService;
  /** A player's data exported for their family, or erased (admins). */
  familyData: FamilyDataService;
  settings: SettingsService;
  /** Settings → Security: the master key's one-time recovery sheet and its confirmation (admins). */
  masterKeyBackup: MasterKeyBackupService;
  /** Settings → System → Backups: the nightly backup's schedule, its last result, and one made now (admins). */
  backups: NightlyBackups;
  users: UsersService;
  notifications: NotificationsService;
  /** Families' upload links: staff issue, check and revoke them; the family page reads through them. */
  uploadLinks: UploadLinksService;
  /** Uploads through a family's link (intake). */
  family: FamilyIntakeDeps;
};

/** One registered method and path, and who may call it (the route's own `config.access`; undefined only until ready, where it fails). */
export type RouteEntry = { method: string; url: string; access: RouteAccess | undefined };

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route as Fastify registered it, HEAD routes included: what the access tests walk. */
    routeTable: RouteEntry[];
  }
}

function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const { status, body } = toApiError(error, request.id);
  void reply.status(status).send(body);
}

/** A request's headers must have arrived within this; at most the request limit, or Node ignores that one. */
const HEADERS_TIMEOUT_MS = 30_000;

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const loggerInstance: FastifyBaseLogger = deps.log;
  const app = Fastify({
    loggerInstance,
    trustProxy: deps.trustProxy,
    bodyLimit: deps.bodyLimitBytes ?? 1024 * 1024,
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    return503OnClosing: true,
    // No request may take forever to arrive (Fastify's default is no limit): the form webhook's own body limit
    // answers first with a clear 408, this one closes whatever is left. Node applies it only when the header
    // limit below is no larger.
    requestTimeout: deps.intake.bodyTimeoutMs + 30_000,
    // Requests Fastify refuses before routing (an address it cannot decode) answer in the API's error shape too.
    frameworkErrors: answerFrameworkError,
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

  app.server.headersTimeout = HEADERS_TIMEOUT_MS;
  app.setValidatorCompiler(safeValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const routeTable: RouteEntry[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    // Read when asked: a plugin's routes are flagged by an onRoute hook of their own context, which runs after this one.
    const config = (route.config ??= {});
    for (const method of methods) {
      routeTable.push({
        method,
        url: route.url,
        get access() {
          return config.access;
        },
      });
    }
  });

  app.setErrorHandler((error, request, reply) => {
    const { status, body } = toApiError(error, request.id);
    // A database or service that is away for a moment answers 503 to every request meanwhile: a warning each.
    if (status === 503) request.log.warn({ err: error }, 'request failed: a service is unavailable');
    else if (status >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.info({ code: body.code, status }, 'request refused');
    return reply.status(status).send(body);
  });

  // Cookies are parsed by this plugin's own onRequest hook, which must run before the access gate below.
  await app.register(cookie);
  await app.register(rateLimit, { global: false });
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  // The API speaks JSON only; Fastify's default text/plain parser would let a form post through.
  app.removeContentTypeParser('text/plain');

  // Before the gate: refusals carry the security headers and the request id too. No answer is kept by a
  // browser or proxy cache unless its route says so (the web app's files do): they hold children's records.
  app.addHook('onRequest', async (request, reply) => {
    reply.headers(SECURITY_HEADERS).header('x-request-id', request.id).header('cache-control', 'no-store');
  });
  registerAccessGate(app, deps);

  registerAuthRoutes(app, deps);
  registerHealthRoutes(app, deps);
  registerLiveRoutes(app, deps);
  registerIntakeRoutes(app, deps);
  registerProviderRoutes(app, deps);
  registerDocumentRoutes(app, deps);
  registerMailboxRoutes(app, deps);
  registerIntegrationRoutes(app, deps);
  registerIntakeSetupRoutes(app, deps);
  registerReportRoutes(app, deps);
  registerSeasonReportRoutes(app, deps);
  registerEligibilityRoutes(app, deps);
  registerSeasonRoutes(app, deps);
  registerPlayerRoutes(app, deps);
  registerSettingsRoutes(app, deps);
  registerMasterKeyRoutes(app, deps);
  registerBackupRoutes(app, deps);
  registerUserRoutes(app, deps);
  registerNotificationRoutes(app, deps);
  registerUploadLinkRoutes(app, deps);
  registerFamilyUploadRoutes(app, deps);
  await registerWebApp(app, deps);

  return app;
}

/** The built web app, with every non-API path answered by index.html so client routes (and the 404 page) work. */
async function registerWebApp(app: FastifyInstance, deps: Pick<AppDeps, 'webDir' | 'auth'>): Promise<void> {
  const { webDir } = deps;
  const indexFile = webDir ? path.join(webDir, 'index.html') : undefined;
  const built = indexFile !== undefined && existsSync(indexFile);
  if (built && webDir) {
    // One public route per file of the build (no wildcard): any other path is the not-found handler's to judge.
    // The plugin's routes cannot declare their access themselves, so this context flags them.
    await app.register(async (pages) => {
      pages.addHook('onRoute', (route) => {
        Object.assign((route.config ??= {}), { access: 'public' });
      });
      await pages.register(fastifyStatic, {
        root: webDir,
        wildcard: false,
        index: ['index.html'],
        setHeaders: (res, filePath) => {
          const hashedAsset = filePath.includes(`${path.sep}assets${path.sep}`);
          res.header('cache-control', hashedAsset ? 'public, max-age=31536000, immutable' : 'no-cache');
        },
      });
    });
  }

  // Nothing matched: a page of the web app (its client routes and its own 404 page), or else 401 until a
  // session is shown, so no spelling of an API path tells anything to a caller without one.
  app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
    const pathname = canonicalPath(request.url);
    const wantsPage = (request.method === 'GET' || request.method === 'HEAD') && !isApiPath(pathname);
    if (wantsPage && built && indexFile) {
      // Read each time: it is small, and the static plugin's sendFile belongs to the pages' own context.
      return reply.header('cache-control', 'no-cache').type('text/html').send(await readFile(indexFile));
    }
    if (wantsPage) {
      throw new AppError('SERVICE_UNAVAILABLE', 'The web app is not built. Run `npm run build`, or start with `npm start`.');
    }
    await requireSession(request, deps);
    throw new AppError('NOT_FOUND', `No such route: ${request.method} ${pathname}`);
  });
}
