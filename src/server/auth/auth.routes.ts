import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  INVALID_CREDENTIALS_MESSAGE,
  INVALID_PASSWORD_MESSAGE,
  INVALID_SECOND_FACTOR_MESSAGE,
  PERMISSIONS,
  PERSONAL_ACCOUNTS_OFF_MESSAGE,
  principalCan,
  SECOND_FACTOR_REQUIRED_MESSAGE,
  SHARED_PASSWORD_OFF_MESSAGE,
  ZAcceptedInvitation,
  ZAcceptInvitation,
  ZInvitationLookup,
  ZInvitationStatus,
  ZLoginRequest,
  ZRecoveryCodes,
  ZSession,
  ZSessionList,
  ZSessionsEnded,
  ZTwoFactorConfirm,
  ZTwoFactorDisable,
  ZTwoFactorSetup,
  type TPrincipal,
  type TSession,
  type TSignInMode,
} from '../../contract';
import type { LiveHub } from '../live';
import { AppError } from '../platform/errors';
import { actorOf, SESSION_COOKIE } from '../platform/http/access';
import type { AccountService } from './account.service';
import { SHARED_PRINCIPAL, type AuthService, type OpenedSession } from './auth.service';

/** How staff sign in now (Settings → Security, read through the settings' short cache). */
export type SignInModeSource = { signInMode(): Promise<TSignInMode> };

export type AuthRouteDeps = { auth: AuthService; account: AccountService; signIn: SignInModeSource; hub: Pick<LiveHub, 'endSessions'> };

export function registerAuthRoutes(parent: FastifyInstance, deps: AuthRouteDeps): void {
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

  /**
   * The per-address limit of the routes that take a secret from someone not signed in (login, and the
   * password links). Counted in the database (login-throttle.ts), so the limit holds across every instance;
   * checked on arrival, before the body is parsed or any password hashed.
   */
  const admitByAddress = async (request: FastifyRequest, reply: FastifyReply) => {
    // IPv6 addresses count by their /64, as one client usually holds a whole one.
    const admission = await deps.auth.admitLoginAttempt(normalizeIP(request.ip));
    if (admission.allowed) return;
    reply.header('retry-after', String(admission.retryAfterSeconds));
    throw new AppError('RATE_LIMITED', `Too many login attempts. Try again in ${admission.retryAfterSeconds} seconds.`);
  };

  const endLocally = (sessionId: string | undefined) => {
    if (sessionId !== undefined) deps.hub.endSessions({ sessionIds: [sessionId] });
  };

  app.post(
    '/api/auth/login',
    { schema: { body: ZLoginRequest, response: { 200: ZSession } }, config: { access: 'public' }, onRequest: admitByAddress },
    async (request, reply) => {
      const { email, password, code } = request.body;
      const meta = { ip: request.ip, userAgent: request.headers['user-agent'], requestId: request.id };
      const mode = await deps.signIn.signInMode();
      let opened: OpenedSession;
      if (email === undefined) {
        if (mode === 'personal') throw new AppError('INVALID_PASSWORD', SHARED_PASSWORD_OFF_MESSAGE);
        const session = await deps.auth.login(password, meta);
        if (!session) throw new AppError('INVALID_PASSWORD', INVALID_PASSWORD_MESSAGE);
        opened = { ...session, principal: SHARED_PRINCIPAL };
      } else {
        if (mode === 'shared') throw new AppError('INVALID_PASSWORD', PERSONAL_ACCOUNTS_OFF_MESSAGE);
        // Per account too: guesses spread over many addresses still meet a limit. Counted for any e-mail,
        // known or not, so the refusal tells nothing about which accounts exist.
        const admission = await deps.auth.admitAccountAttempt(email);
        if (!admission.allowed) {
          reply.header('retry-after', String(admission.retryAfterSeconds));
          const minutes = Math.ceil(admission.retryAfterSeconds / 60);
          throw new AppError('RATE_LIMITED', `Too many sign-in attempts for this e-mail address. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`);
        }
        const result = await deps.auth.loginPerson({ email, password, code }, meta);
        if (!result.ok) {
          if (result.refused === 'second-factor-required') throw new AppError('SECOND_FACTOR_REQUIRED', SECOND_FACTOR_REQUIRED_MESSAGE);
          if (result.refused === 'second-factor-wrong') throw new AppError('INVALID_PASSWORD', INVALID_SECOND_FACTOR_MESSAGE);
          throw new AppError('INVALID_PASSWORD', INVALID_CREDENTIALS_MESSAGE);
        }
        opened = result;
      }
      const previous = request.cookies[SESSION_COOKIE];
      if (previous) endLocally(await deps.auth.endSession(previous));
      reply.setCookie(SESSION_COOKIE, opened.token, {
        httpOnly: true,
        sameSite: 'strict',
        secure: request.protocol === 'https',
        path: '/',
      });
      return answer(opened);
    },
  );

  app.get('/api/auth/session', { config: { access: 'public' }, schema: { response: { 200: ZSession } } }, async (request) => {
    return answer(await deps.auth.resolveSession(request.cookies[SESSION_COOKIE]));
  });

  app.post('/api/auth/logout', { config: { access: 'public' }, schema: { response: { 200: ZSession } } }, async (request, reply) => {
    const token = request.cookies[SESSION_COOKIE];
    if (token) endLocally(await deps.auth.endSession(token));
    reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'strict', secure: request.protocol === 'https' });
    return answer(undefined);
  });

  // The page an invitation or reset link opens: the token travels in the link's #fragment and reaches the
  // server only in these bodies, never in a URL a log or proxy keeps.
  app.post(
    '/api/auth/invitation/status',
    { config: { access: 'public' }, onRequest: admitByAddress, schema: { body: ZInvitationLookup, response: { 200: ZInvitationStatus } } },
    (request) => deps.account.invitationStatus(request.body.token),
  );

  app.post(
    '/api/auth/invitation',
    { config: { access: 'public' }, onRequest: admitByAddress, schema: { body: ZAcceptInvitation, response: { 200: ZAcceptedInvitation } } },
    (request) => deps.account.acceptInvitation(request.body, { requestId: request.id }),
  );

  // The signed-in person's own sessions. The shared password is no one's: it has none to list or end.
  app.get('/api/auth/sessions', { config: { access: 'account' }, schema: { response: { 200: ZSessionList } } }, async (request) => {
    const { principal } = actorOf(request);
    if (principal.userId === null) return { sessions: [] };
    return deps.account.listSessions(principal.userId, request.session?.id);
  });

  app.delete('/api/auth/sessions', { config: { access: 'account' }, schema: { response: { 200: ZSessionsEnded } } }, async (request) => {
    const actor = actorOf(request);
    if (actor.principal.userId === null) return { ended: 0 };
    return deps.account.endSessions(actor.principal.userId, actor, request.session?.id);
  });

  app.post('/api/auth/two-factor/setup', { config: { access: 'account' }, schema: { response: { 200: ZTwoFactorSetup } } }, (request) =>
    deps.account.setupTwoFactor(actorOf(request)),
  );

  app.post('/api/auth/two-factor/enable', { config: { access: 'account' }, schema: { body: ZTwoFactorConfirm, response: { 200: ZRecoveryCodes } } }, (request) =>
    deps.account.enableTwoFactor(actorOf(request), request.body.code),
  );

  app.delete('/api/auth/two-factor', { config: { access: 'account' }, schema: { body: ZTwoFactorDisable } }, async (request, reply) => {
    await deps.account.disableTwoFactor(actorOf(request), request.body.password);
    return reply.status(204).send();
  });
}
