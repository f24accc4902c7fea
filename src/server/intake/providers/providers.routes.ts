import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { FORM_PROVIDER_NAMES, ZDeliveryParams, ZFormProvider, ZIntakeDelivery, ZProviderParams, type TFormProvider } from '../../../contract';
import { AppError } from '../../platform/errors';
import { actorOf } from '../../platform/http/access';
import { registerRawBodyRoutes, startBodyDeadline, ZIntakeResponse } from '../intake-route';
import { maxDeliveryBytes, receiveDelivery, replayDelivery, type ProviderIntakeDeps } from './receive-delivery';
import { perAddressRateLimit } from '../../platform/http/rate-limit';

/** `/api/intake/{provider}/{token}`: the token stands in for a signature, for providers that cannot sign. */
const ZTokenParams = z.object({ provider: ZFormProvider, token: z.string().min(1).max(200, 'must be at most 200 characters') });

/**
 * The form builders' webhooks, `POST /api/intake/{provider}` and, for those that cannot sign,
 * `POST /api/intake/{provider}/{token}`: public, as `/api/intake/form` is, authenticated by the provider's
 * own proof (a signature, a handshake key, the token) instead of a session, with the same abuse limits
 * (requests per address per minute, time for the body to arrive). The token is never logged (the logger
 * redacts it from every address) and is compared in constant time.
 *
 * `POST /api/integrations/deliveries/{id}/replay` runs a kept delivery through again (Settings → Integrations).
 */
export function registerProviderRoutes(parent: FastifyInstance, deps: { providers: ProviderIntakeDeps }): void {
  const app = parent.withTypeProvider<ZodTypeProvider>();
  const intake = deps.providers;
  registerRawBodyRoutes(parent, (raw) => {
    const scoped = raw.withTypeProvider<ZodTypeProvider>();
    const limits = {
      bodyLimit: maxDeliveryBytes(intake.maxFileBytes),
      config: {
        // Public: authenticated by the provider's proof over its delivery, not by a session.
        access: 'public' as const,
        rateLimit: perAddressRateLimit(intake.rateLimitPerMinute, 'deliveries'),
      },
    };
    const receive = async (request: FastifyRequest, reply: FastifyReply, provider: TFormProvider, token: string | undefined) => {
      const deadline = startBodyDeadline(request.raw, intake.bodyTimeoutMs, `The ${FORM_PROVIDER_NAMES[provider]} delivery`);
      try {
        const answer = await receiveDelivery(intake, {
          provider,
          token,
          body: request.raw,
          contentType: request.headers['content-type'] ?? '',
          headers: Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : value])),
          receivedAt: new Date(),
          deadline: deadline.signal,
        });
        return reply.status(202).send(answer);
      } catch (error) {
        // Worth a warning: a provider with the wrong secret loses every delivery. Never the secret, the token or the body.
        if (error instanceof AppError && error.code === 'UNAUTHENTICATED') request.log.warn({ provider }, 'form builder delivery refused: missing or wrong proof');
        throw error;
      } finally {
        deadline.clear();
      }
    };
    scoped.post('/api/intake/:provider', { ...limits, schema: { params: ZProviderParams, response: { 202: ZIntakeResponse } } }, (request, reply) =>
      receive(request, reply, request.params.provider, undefined),
    );
    scoped.post('/api/intake/:provider/:token', { ...limits, schema: { params: ZTokenParams, response: { 202: ZIntakeResponse } } }, (request, reply) =>
      receive(request, reply, request.params.provider, request.params.token),
    );
  });

  app.post(
    '/api/integrations/deliveries/:id/replay',
    { schema: { params: ZDeliveryParams, response: { 200: ZIntakeDelivery } }, config: { access: 'settings.manage' } },
    (request) => replayDelivery(intake, request.params.id, actorOf(request)),
  );
}
