import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../errors';
import type { SiteGuard } from './site';

/**
 * Who may call a route, declared in the route's own definition (`config: { access: 'public' }`).
 * A route without it needs a signed-in session: private is the default, public is a choice made where
 * the route is written.
 */
export type RouteAccess = 'public' | 'signed-in';

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

/** A signed-in session as the gate sees it. */
export type ActiveSession = { id: string; expiresAt: Date };

/** How the gate finds the session a cookie names (the sign-in module answers it). */
export type SessionLookup = { resolveSession(token: string | undefined): Promise<ActiveSession | undefined> };

export const SESSION_COOKIE = 'cb_session';

export const SESSION_ENDED_MESSAGE = 'Your session has ended. Enter the system password again.';
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
  app.addHook('onRequest', async (request) => {
    const config = request.routeOptions.config;
    if (!config.anyHost && !deps.site.isOwnHost(request.hostname)) throw new AppError('FORBIDDEN', FOREIGN_HOST_MESSAGE);
    if (request.is404) return;
    assertSameSite(request, deps.site);
    if (config.access === 'public') return;
    await requireSession(request, deps);
  });
}

/** For a request no route matched: the answer is 401 until a session is shown, so nothing is learnt of the API without one. */
export async function requireSession(request: FastifyRequest, deps: Pick<AccessGateDeps, 'auth'>): Promise<void> {
  request.session ??= await deps.auth.resolveSession(request.cookies[SESSION_COOKIE]);
  if (!request.session) throw new AppError('UNAUTHENTICATED', SESSION_ENDED_MESSAGE);
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
