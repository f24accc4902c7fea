import type { FastifyInstance, FastifyRequest } from 'fastify';
import { FORBIDDEN_MESSAGE, principalCan, TWO_FACTOR_SETUP_REQUIRED_MESSAGE, type TPermission, type TPrincipal } from '../../../contract';
import { AppError } from '../errors';
import type { SiteGuard } from './site';

/**
 * Who may call a route, declared in the route's own definition beside its schema: `'public'` (no session),
 * or the permission a signed-in person's role must hold (`config: { access: 'documents.review' }`).
 * A route that declares neither cannot start: the server refuses to become ready.
 */
export type RouteAccess = 'public' | TPermission;

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
    /** Answers whatever Host a request names: only for a liveness probe that says nothing but 'ok'. */
    anyHost?: boolean;
  }
  interface FastifyRequest {
    session: ActiveSession | undefined;
  }
}

/** A signed-in session as the gate sees it: who it belongs to, and when it ends if left idle. */
export type ActiveSession = { id: string; expiresAt: Date; principal: TPrincipal };

/** How the gate finds the session a cookie names (the sign-in module answers it). */
export type SessionLookup = { resolveSession(token: string | undefined): Promise<ActiveSession | undefined> };

export const SESSION_COOKIE = 'cb_session';

export const SESSION_ENDED_MESSAGE = 'Your session has ended. Please sign in again.';
const CROSS_SITE_MESSAGE = 'Cross-site requests are not accepted.';
const FOREIGN_HOST_MESSAGE = 'This server does not answer to that address. Open Clearbase at its own address.';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export type AccessGateDeps = { auth: SessionLookup; site: SiteGuard };

/**
 * The gate, run on every request after the router has matched it, so it judges the route that will
 * really answer and not the text of the URL (which may be spelled in many ways that reach the same route).
 * Unmatched requests are judged by the not-found handler (`requireSessionForUnmatched`).
 */
export function registerAccessGate(app: FastifyInstance, deps: AccessGateDeps): void {
  app.decorateRequest('session', undefined);
  const routes: { label: string; config: { access?: RouteAccess } }[] = [];
  app.addHook('onRoute', (route) => {
    // Read at ready: a plugin context may flag its routes in an onRoute hook of its own, after this one.
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    routes.push({ label: `${methods.join(',')} ${route.url}`, config: (route.config ??= {}) });
  });
  app.addHook('onReady', (done) => {
    const undeclared = routes.filter((route) => route.config.access === undefined).map((route) => route.label);
    done(undeclared.length > 0 ? new Error(`Every route must declare its access (config.access); these do not: ${undeclared.join('; ')}`) : undefined);
  });
  app.addHook('onRequest', async (request) => {
    const config = request.routeOptions.config;
    if (!config.anyHost && !deps.site.isOwnHost(request.hostname)) throw new AppError('FORBIDDEN', FOREIGN_HOST_MESSAGE);
    if (request.is404) return;
    assertSameSite(request, deps.site);
    if (config.access === 'public') return;
    const session = await requireSession(request, deps);
    // Undeclared access never reaches here (the server would not have started); refuse it all the same.
    const needed = config.access ?? 'users.manage';
    if (session.principal.twoFactorSetupRequired && needed !== 'account') throw new AppError('FORBIDDEN', TWO_FACTOR_SETUP_REQUIRED_MESSAGE);
    if (!principalCan(session.principal, needed)) throw new AppError('FORBIDDEN', FORBIDDEN_MESSAGE);
  });
}

/** The principal of a request the gate has let through a private route. */
export function principalOf(request: FastifyRequest): TPrincipal {
  if (!request.session) throw new Error('principalOf called on a request without a session (a public route?)');
  return request.session.principal;
}

/** Who acts on a request, for the services and their audit records. */
export const actorOf = (request: FastifyRequest): { requestId: string; principal: TPrincipal } => ({ requestId: request.id, principal: principalOf(request) });

/** For a request no route matched: the answer is 401 until a session is shown, so nothing is learnt of the API without one. */
export async function requireSession(request: FastifyRequest, deps: Pick<AccessGateDeps, 'auth'>): Promise<ActiveSession> {
  request.session ??= await deps.auth.resolveSession(request.cookies[SESSION_COOKIE]);
  if (!request.session) throw new AppError('UNAUTHENTICATED', SESSION_ENDED_MESSAGE);
  return request.session;
}

const isUpgrade = (request: FastifyRequest) => request.headers.upgrade !== undefined;

/**
 * Refuses a state change or a live connection started by another site's page, on top of the
 * SameSite=Strict cookie. Browsers send Origin on every such request (and on every WebSocket opening);
 * a client that sends neither Origin nor Sec-Fetch-Site is not a browser and carries no one's cookie by accident.
 */
function assertSameSite(request: FastifyRequest, site: SiteGuard): void {
  const upgrade = isUpgrade(request);
  if (SAFE_METHODS.has(request.method) && !upgrade) return;
  const fetchSite = request.headers['sec-fetch-site'];
  if (fetchSite !== undefined && fetchSite !== 'same-origin' && fetchSite !== 'none') throw new AppError('FORBIDDEN', CROSS_SITE_MESSAGE);
  const origin = request.headers.origin;
  if (origin === undefined && !upgrade) return;
  if (origin === undefined || !site.isOwnOrigin(origin, request.host)) throw new AppError('FORBIDDEN', CROSS_SITE_MESSAGE);
}
