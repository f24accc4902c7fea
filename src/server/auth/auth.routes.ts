import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { INVALID_PASSWORD_MESSAGE, PERMISSIONS, principalCan, ZLoginRequest, ZSession, type TPrincipal, type TSession, type TSignInMode } from '../../contract';
import { AppError } from '../platform/errors';
import { SESSION_COOKIE } from '../platform/http/access';
import { SHARED_PRINCIPAL, type AuthService } from './auth.service';

/** How staff sign in now (Settings → Security, read through the settings' short cache). */
export type SignInModeSource = { signInMode(): Promise<TSignInMode> };

export function registerAuthRoutes(
  parent: FastifyInstance,
  deps: { auth: AuthService; signIn: SignInModeSource },
): void {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const answer = async (session: { expiresAt: Date; principal: TPrincipal } | undefined): Promise<TSession> => {
    const signInMode = await deps.signIn.signInMode();
    if (!session) return { authenticated: false, signInMode };
    const { principal } = session;
    return {
      authenticated: true,
      signInMode,
      expiresAt: session.expiresAt.toISOString(),
      principal,
      permissions: PERMISSIONS.filter((permission) => principalCan(principal, permission)),
    };
  };

  app.post(
    '/api/auth/login',
    {
      schema: { body: ZLoginRequest, response: { 200: ZSession } },
      config: { access: 'public' },
      // Counted in the database (login-throttle.ts), so the limit holds across every instance; checked on
      // arrival, before the body is parsed or the password hashed.
      onRequest: async (request, reply) => {
        // IPv6 addresses count by their /64, as one client usually holds a whole one.
        const admission = await deps.auth.admitLoginAttempt(normalizeIP(request.ip));
        if (admission.allowed) return;
        reply.header('retry-after', String(admission.retryAfterSeconds));
        throw new AppError('RATE_LIMITED', `Too many login attempts. Try again in ${admission.retryAfterSeconds} seconds.`);
      },
    },
    async (request, reply) => {
      const session = await deps.auth.login(request.body.password, {
        ip: request.ip,
        userAgent: request.headers['user-agent'],
        requestId: request.id,
      });
      if (!session) throw new AppError('INVALID_PASSWORD', INVALID_PASSWORD_MESSAGE);
      const previous = request.cookies[SESSION_COOKIE];
      if (previous) await deps.auth.endSession(previous);
      reply.setCookie(SESSION_COOKIE, session.token, {
        httpOnly: true,
        sameSite: 'strict',
        secure: request.protocol === 'https',
        path: '/',
      });
      return answer({ expiresAt: session.expiresAt, principal: SHARED_PRINCIPAL });
    },
  );

  app.get('/api/auth/session', { config: { access: 'public' }, schema: { response: { 200: ZSession } } }, async (request) => {
    return answer(await deps.auth.resolveSession(request.cookies[SESSION_COOKIE]));
  });

  app.post('/api/auth/logout', { config: { access: 'public' }, schema: { response: { 200: ZSession } } }, async (request, reply) => {
    const token = request.cookies[SESSION_COOKIE];
    if (token) await deps.auth.endSession(token);
    reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'strict', secure: request.protocol === 'https' });
    return answer(undefined);
  });
}
