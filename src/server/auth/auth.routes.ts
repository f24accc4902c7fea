import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { INVALID_PASSWORD_MESSAGE, ZLoginRequest, ZSession } from '../../contract';
import { AppError } from '../platform/errors';
import { SESSION_COOKIE } from '../platform/http/access';
import type { AuthService } from './auth.service';

export function registerAuthRoutes(
  parent: FastifyInstance,
  deps: { auth: AuthService },
): void {
  const app = parent.withTypeProvider<ZodTypeProvider>();

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
      return { authenticated: true, expiresAt: session.expiresAt.toISOString() };
    },
  );

  app.get('/api/auth/session', { config: { access: 'public' }, schema: { response: { 200: ZSession } } }, async (request) => {
    const session = await deps.auth.resolveSession(request.cookies[SESSION_COOKIE]);
    return session ? { authenticated: true, expiresAt: session.expiresAt.toISOString() } : { authenticated: false };
  });

  app.post('/api/auth/logout', { config: { access: 'public' }, schema: { response: { 200: ZSession } } }, async (request, reply) => {
    const token = request.cookies[SESSION_COOKIE];
    if (token) await deps.auth.endSession(token);
    reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'strict', secure: request.protocol === 'https' });
    return { authenticated: false };
  });
}
